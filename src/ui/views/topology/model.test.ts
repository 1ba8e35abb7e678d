import { describe, expect, it } from 'vitest';
import { Cluster } from '../../../engine/cluster/cluster';
import {
  LayoutCache,
  StructureCache,
  layout,
  mergeStructures,
  stepChanges,
  routesText,
  structureOf,
} from './model';
import { tget, tvalues } from '../../../engine/state/table';

const ONE_NODE = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

function run(pods: number, spec = ONE_NODE): Cluster {
  const c = new Cluster(spec, { seed: 1 });
  for (let i = 0; i < pods; i++) c.createPod({ name: `web-${i}` });
  c.runFor(20_000_000);
  return c;
}

describe('topology model', () => {
  const c = run(2);
  const states = c.sim.states;
  const last = states[states.length - 1]!;

  it('puts the host ends of veths in the host namespace and their peers in the pods', () => {
    const s = structureOf(last);
    expect(s.nodes).toHaveLength(1);
    const n = s.nodes[0]!;
    expect(n.pods.map((p) => p.pod)).toEqual(['default/web-0', 'default/web-1']);
    const root = tget(last.nodes['node-1']!.kernel.netns, n.root)!;
    expect(n.hostLinks.map((i) => root.links[i]!.name)).toEqual(['lo', 'cni0']);
    for (const p of n.pods) {
      expect(p.hostPeers).toHaveLength(1);
      const veth = root.links[p.hostPeers[0]!]!;
      expect(veth.kind).toBe('veth');
      expect(veth.peer!.ns).toBe(p.id);
      expect(p.mounts[0]).toMatch(/^\/var\/run\/netns\/cni-/);
    }
  });

  it('names a pod namespace from the start of RunPodSandbox, before containerd records the sandbox', () => {
    const addr = c.events.find(
      (e) => e.kind === 'kernel' && /addr add .* dev eth0/.test(e.summary),
    )!;
    const at = states[addr.seq]!;
    const sandboxes = tvalues(at.nodes['node-1']!.containerd!.sandboxes);
    const n = structureOf(at).nodes[0]!;
    const named = n.pods.filter((p) => p.pod !== null).map((p) => p.pod);
    // Mid-ADD of the first pod: containerd has no sandbox yet, each namespace is still its pod's.
    expect(sandboxes).toHaveLength(0);
    expect(named).toEqual(['default/web-0', 'default/web-1']);
    expect(new StructureCache().get(at).nodes[0]!.pods.map((p) => p.pod)).toEqual(
      n.pods.map((p) => p.pod),
    );
  });

  it('marks exactly what a kernel step changed', () => {
    const addr = c.events.find(
      (e) => e.kind === 'kernel' && /addr add .* dev eth0/.test(e.summary),
    )!;
    const ch = stepChanges(states[addr.seq - 1], states[addr.seq]!);
    const n = structureOf(states[addr.seq]!).nodes[0]!;
    const podNs = n.pods[0]!.id;
    const eth0 = Object.values(
      tget(states[addr.seq]!.nodes['node-1']!.kernel.netns, podNs)!.links,
    ).find((l) => l.name === 'eth0')!;
    expect([...ch.marks.keys()]).toEqual([`node-1/${podNs}/${eth0.ifindex}`]);
    // Bringing eth0 up adds its prefix route: the namespace changed too.
    const up = c.events.find(
      (e) => e.seq > addr.seq && e.kind === 'kernel' && /link set eth0 up/.test(e.summary),
    )!;
    const ch2 = stepChanges(states[up.seq - 1], states[up.seq]!);
    expect(ch2.marks.get(`node-1/${podNs}`)).toBe('changed');
    expect(ch2.marks.get(`node-1/${podNs}/${eth0.ifindex}`)).toBe('changed');
    // An event that touches no kernel changes nothing.
    const api = c.events.find((e) => e.kind === 'api' && e.seq > 0)!;
    expect(stepChanges(states[api.seq - 1], states[api.seq]!).marks.size).toBe(0);
  });

  it('tells what a deletion removed', () => {
    const d = run(1);
    d.deletePod('web-0');
    d.runFor(5_000_000);
    const del = d.events.find((e) => e.kind === 'kernel' && /link del/.test(e.summary));
    expect(del).toBeDefined();
    const ch = stepChanges(d.sim.states[del!.seq - 1], d.sim.states[del!.seq]!);
    expect(
      ch.items
        .filter((i) => i.mark === 'removed')
        .map((i) => i.text)
        .join(' '),
    ).toMatch(/eth0|veth/);
  });

  it('recomputes the structure only when namespaces or links come or go', () => {
    const cache = new StructureCache();
    let changes = 0;
    let prev = null as unknown;
    for (const s of states) {
      const st = cache.get(s);
      if (st !== prev) changes++;
      prev = st;
      expect(st.key).toBe(structureOf(s).key);
    }
    expect(changes).toBeLessThan(states.length / 10);
  });

  it('lays out 110 pods in a grid without overlaps', () => {
    const big = run(110);
    const s = structureOf(big.sim.state);
    expect(s.nodes[0]!.pods).toHaveLength(110);
    const l = layout(s);
    const cells = l.nodes[0]!.cells;
    for (let i = 1; i < cells.length; i++) {
      const a = cells[i - 1]!.box;
      const b = cells[i]!.box;
      const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      expect(apart).toBe(true);
    }
    // Stepping through all 110 pods' events, the structure is recomputed only where namespaces
    // or links came or went (what it costs is npm run bench:ui's step latency, not a test's).
    const cache = new StructureCache();
    let computed = 0;
    let prev: unknown = null;
    for (const st of big.sim.states) {
      const got = cache.get(st);
      if (got !== prev) computed++;
      prev = got;
    }
    // About two per pod (its namespace, then its veth pair), out of some 6,400 steps.
    expect(computed).toBeLessThanOrEqual(3 * 110);
  }, 120_000);

  it('keeps the layout objects of the cells that did not move when a pod comes', () => {
    const d = run(5);
    const sc = new StructureCache();
    const lc = new LayoutCache();
    const before = lc.get(sc.get(d.sim.state));
    expect(lc.get(sc.get(d.sim.state))).toBe(before);
    d.createPod({ name: 'web-5' });
    d.runFor(5_000_000);
    const after = lc.get(sc.get(d.sim.state));
    expect(after).not.toBe(before);
    expect(after.nodes[0]!.cells).toHaveLength(6);
    for (let i = 0; i < 5; i++) expect(after.nodes[0]!.cells[i]).toBe(before.nodes[0]!.cells[i]);
  });

  it('prints routes as ip route does', () => {
    const n = structureOf(last).nodes[0]!;
    const ns = tget(last.nodes['node-1']!.kernel.netns, n.pods[0]!.id)!;
    expect(routesText(ns)).toEqual(
      expect.arrayContaining([
        'default via 10.244.1.1 dev eth0',
        expect.stringMatching(
          /^10\.244\.1\.0\/24 dev eth0 proto kernel scope link src 10\.244\.1\.\d+$/,
        ),
      ]),
    );
  });

  describe('what a step added, changed or removed', () => {
    it('marks a veth pair as added, with the pod namespace it leads to', () => {
      const ev = c.events.find(
        (e) => e.kind === 'kernel' && /link add .* type veth/.test(e.summary),
      )!;
      expect(ev).toBeDefined();
      const ch = stepChanges(states[ev.seq - 1], states[ev.seq]!);
      const links = ch.items.filter((i) => i.kind === 'link');
      expect(links.length).toBeGreaterThanOrEqual(1);
      expect(links.every((i) => i.mark === 'added')).toBe(true);
      expect(links.map((i) => i.text).join(' ')).toMatch(/\(veth\)/);
      const added = [...ch.marks].filter(([, m]) => m === 'added').map(([k]) => k);
      expect(added.length).toBe(links.length);
      for (const k of added) expect(k).toMatch(/^node-1\/[^/]+\/\d+$/);
      // The step before it did not touch these links.
      const before = stepChanges(states[ev.seq - 2], states[ev.seq - 1]!);
      for (const k of added) expect(before.marks.has(k)).toBe(false);
    });

    it('marks an address added and the link that holds it changed', () => {
      const addr = c.events.find(
        (e) => e.kind === 'kernel' && /addr add .* dev eth0/.test(e.summary),
      )!;
      const ch = stepChanges(states[addr.seq - 1], states[addr.seq]!);
      expect(ch.items).toEqual([
        expect.objectContaining({
          mark: 'added',
          kind: 'address',
          node: 'node-1',
          text: expect.stringMatching(/^10\.244\.1\.\d+\/24 on eth0 in web-0 /),
        }),
      ]);
      expect([...ch.marks.values()]).toEqual(['changed']);
    });

    it('lists the routes a step added', () => {
      const rt = c.events.find((e) => e.kind === 'kernel' && /route add default/.test(e.summary))!;
      expect(rt).toBeDefined();
      const ch = stepChanges(states[rt.seq - 1], states[rt.seq]!);
      expect(ch.items.filter((i) => i.kind === 'route').map((i) => `${i.mark} ${i.text}`)).toEqual([
        expect.stringMatching(/^added default via 10\.244\.1\.1 dev eth0 in web-\d/),
      ]);
    });

    it('marks a deleted link removed, and keeps it in the merged structure for that step', () => {
      const d = run(1);
      d.deletePod('web-0');
      d.runFor(5_000_000);
      const del = d.events.find((e) => e.kind === 'kernel' && /link del/.test(e.summary))!;
      const prev = d.sim.states[del.seq - 1]!;
      const cur = d.sim.states[del.seq]!;
      const ch = stepChanges(prev, cur);
      const removed = ch.items.filter((i) => i.kind === 'link' && i.mark === 'removed');
      expect(removed.map((i) => i.text).join(' ')).toMatch(/eth0 \(veth\)/);
      const keys = [...ch.marks].filter(([, m]) => m === 'removed').map(([k]) => k);
      // Both ends of the pair go: the pod's eth0 and the host's veth.
      expect(keys).toHaveLength(2);
      // The layout of that step still has room for the host end: it is drawn ghosted there.
      const before = structureOf(prev);
      const after = structureOf(cur);
      const merged = mergeStructures(before, after);
      expect(after.nodes[0]!.pods[0]?.hostPeers ?? []).toHaveLength(0);
      expect(merged.nodes[0]!.pods[0]!.hostPeers).toEqual(before.nodes[0]!.pods[0]!.hostPeers);
      // Nothing removed: the structure itself, so layouts stay cached.
      expect(mergeStructures(after, after)).toBe(after);
      // The step after it no longer shows the removed links.
      const next = stepChanges(cur, d.sim.states[del.seq + 1]!);
      for (const k of keys) expect(next.marks.get(k)).not.toBe('removed');
    });

    it('tells a host-local reservation written, and libcni caching the result', () => {
      const w = c.events.find(
        (e) => e.kind === 'fs' && /networks\/[^/]+\/10\.244\.1\.\d+/.test(e.summary),
      )!;
      expect(w).toBeDefined();
      const ch = stepChanges(states[w.seq - 1], states[w.seq]!);
      const res = ch.items.filter((i) => i.kind === 'reservation');
      expect(res).toEqual([
        expect.objectContaining({
          mark: 'added',
          node: 'node-1',
          text: expect.stringMatching(/^10\.244\.1\.\d+ for [0-9a-f]{12} eth0 \(network \S+\)$/),
        }),
      ]);
      expect(ch.marks.size).toBe(0);
      // The lock and last_reserved_ip are not reservations.
      for (let i = 1; i < states.length; i++) {
        for (const it of stepChanges(states[i - 1], states[i]!).items)
          if (it.kind === 'reservation') expect(it.text).not.toMatch(/^(lock|last_reserved_ip)/);
      }
      const cache = states.findIndex(
        (s, i) => i > 0 && stepChanges(states[i - 1], s).items.some((x) => x.kind === 'cache file'),
      );
      expect(cache).toBeGreaterThan(0);
      const cached = stepChanges(states[cache - 1], states[cache]!).items.find(
        (x) => x.kind === 'cache file',
      )!;
      expect(cached.mark).toBe('added');
      expect(cached.text).toMatch(/^\/var\/lib\/cni\/results\/\S+-[0-9a-f]{64}-(eth0|lo)$/);
    });

    it('marks nothing on a step that touches no kernel and no file of these', () => {
      const api = c.events.find((e) => e.kind === 'api' && e.seq > 0)!;
      const ch = stepChanges(states[api.seq - 1], states[api.seq]!);
      expect(ch.items).toEqual([]);
      expect(ch.marks.size).toBe(0);
    });
  });
});
