/**
 * The release boundaries of reference runtime-versions.md, each fact driven at the last release
 * without a behaviour and the first with it (and at the ends of each range), through a cluster as
 * a user runs one. releases.test.ts asserts the details at one release of each range; this file
 * only checks that every boundary lands on the right side.
 */
import { describe, expect, it } from 'vitest';
import { defaultConflist, type Cluster } from '../cluster/cluster';
import { journal, netnsMounts, podEvents, reservations, sandboxes } from '../faults/observe';
import { NODE, inject, oneNode } from '../faults/testing';
import { cniCommand, isKind } from '../trace/trace';

const on = (version: string): Cluster => oneNode({ containerd: { version } });
const dels = (c: Cluster) =>
  c.events.filter(isKind('exec')).filter((e) => cniCommand(e) === 'DEL' && e.target === 'bridge');
const statusRuns = (c: Cluster) =>
  c.events.filter(isKind('exec')).filter((e) => cniCommand(e) === 'STATUS');

describe('a failed ADD whose clean-up DEL fails too (sandbox_run.go RunPodSandbox cleanupErr)', () => {
  // Kept as SANDBOX_UNKNOWN: 1.6.9 – 1.6.36 and every 1.7 (1.7.0 … 1.7.34).
  // Dropped (leak): ≤ 1.6.8, 1.6.37+, every 2.x.
  const kept = ['1.6.9', '1.6.36', '1.7.0', '1.7.23', '1.7.34'];
  const dropped = ['1.6.0', '1.6.8', '1.6.37', '1.6.39', '2.0.0', '2.0.1', '2.1.0', '2.3.4'];
  for (const v of [...kept, ...dropped]) {
    const keeps = kept.includes(v);
    it(`${v}: ${keeps ? 'kept as SANDBOX_UNKNOWN' : 'dropped, forgotten: leak'}`, () => {
      const c = on(v);
      inject(c, 'silent-ip-leak');
      c.createPod({ name: 'web-0' });
      c.runFor(5_000_000);
      const unknown = journal(c, NODE, ['containerd']).filter((l) =>
        l.includes('marking sandbox state as SANDBOX_UNKNOWN'),
      );
      if (keeps) {
        expect(unknown).toHaveLength(1);
        expect(sandboxes(c, NODE)).toEqual([expect.objectContaining({ unknown: true })]);
        expect(netnsMounts(c, NODE)).toHaveLength(1);
      } else {
        expect(unknown).toEqual([]);
        expect(sandboxes(c, NODE)).toEqual([]);
        expect(netnsMounts(c, NODE)).toEqual([]);
        expect(reservations(c, NODE).length).toBeGreaterThan(0);
      }
    });
  }
});

describe('a restart during ADD (sandbox_run.go, restart.go loadSandbox, sandbox_stop.go)', () => {
  // ≤ 1.6.8: forgotten. 1.6.9 – 1.6.36, 1.7.0 – 1.7.22: recovered, DEL in the mounted netns.
  // 1.6.37+, 1.7.23+, 2.x: recovered, no DEL. That includes the tags with commit f854c18
  // (1.7.31+, 2.0.8+, 2.1.7+, 2.2.2+, 2.3.x), whose source runs DEL again: cnisim follows the
  // reference facts there (releases.ts BEHAVIOUR_RANGES).
  const cases: Array<[string, 'forgotten' | 'del' | 'no-del']> = [
    ['1.6.0', 'forgotten'],
    ['1.6.8', 'forgotten'],
    ['1.6.9', 'del'],
    ['1.6.36', 'del'],
    ['1.6.37', 'no-del'],
    ['1.7.0', 'del'],
    ['1.7.22', 'del'],
    ['1.7.23', 'no-del'],
    ['1.7.30', 'no-del'],
    ['1.7.31', 'no-del'],
    ['1.7.34', 'no-del'],
    ['1.6.39', 'no-del'],
    ['2.0.0', 'no-del'],
    ['2.0.1', 'no-del'],
    ['2.0.7', 'no-del'],
    ['2.0.8', 'no-del'],
    ['2.1.0', 'no-del'],
    ['2.1.7', 'no-del'],
    ['2.2.2', 'no-del'],
    ['2.3.0', 'no-del'],
    ['2.3.4', 'no-del'],
  ];
  for (const [v, want] of cases) {
    it(`${v}: ${want}`, () => {
      const c = on(v);
      c.createPod({ name: 'web-0' });
      inject(c, 'containerd-restart-during-add', { pod: 'web-0' });
      c.runFor(40_000_000);
      const attempts = sandboxes(c, NODE).map((s) => s.pod.attempt);
      const changed = podEvents(c, 'web-0').some((e) => e.reason === 'SandboxChanged');
      if (want === 'forgotten') {
        expect(attempts).toEqual([0]);
        expect(changed).toBe(false);
        expect(netnsMounts(c, NODE)).toHaveLength(2);
      } else {
        expect(attempts).toEqual([0, 1]);
        expect(changed).toBe(true);
        const old = sandboxes(c, NODE)[0]!;
        const del = dels(c).filter((e) => e.payload.env['CNI_NETNS'] === old.netns);
        expect(del).toHaveLength(want === 'del' ? 1 : 0);
        expect(reservations(c, NODE).some((r) => r.owner === old.id)).toBe(want === 'no-del');
        expect(netnsMounts(c, NODE)).not.toContain(old.netns);
      }
    });
  }
});

describe('CNI STATUS on CRI Status (go-cni v1.1.11: 2.0.1+)', () => {
  const v110 = defaultConflist('10.244.1.0/24').replace(
    '"cniVersion": "1.0.0"',
    '"cniVersion": "1.1.0"',
  );
  for (const [v, polls] of [
    ['1.7.34', false],
    ['2.0.0', false],
    ['2.0.1', true],
    ['2.3.4', true],
  ] as const) {
    it(`${v}: ${polls ? 'runs STATUS; v1.1.1 bridge answers "missing containerID": NotReady' : 'no STATUS: Ready'}`, () => {
      const c = oneNode({
        containerd: { version: v },
        pluginBuild: 'v1.1.1',
        cniConfigs: { '10-containerd-net.conflist': v110 },
      });
      c.runFor(12_000_000);
      const ready = c.sim.state.api!.nodes[NODE]!.ready;
      if (polls) {
        expect(statusRuns(c).length).toBeGreaterThan(0);
        expect(ready.status).toBe('False');
        expect(ready.message).toContain('Network plugin returns error: missing containerID');
      } else {
        expect(statusRuns(c)).toEqual([]);
        expect(ready.status).toBe('True');
      }
    });
  }
});

describe('CRI-O STATUS and GC by release (cnimgr.go pollFunc, doGC; ocicni v0.4.3: 1.32+)', () => {
  const v110 = defaultConflist('10.244.1.0/24').replace(
    '"cniVersion": "1.0.0"',
    '"cniVersion": "1.1.0"',
  );
  const execs = (c: Cluster, cmd: string) =>
    c.events.filter(isKind('exec')).filter((e) => cniCommand(e) === cmd);
  for (const [v, uses] of [
    ['1.28.0', false],
    ['1.30.0', false],
    ['1.31.13', false],
    ['1.32.0', true],
    ['1.35.6', true],
  ] as const) {
    it(`${v}: ${uses ? 'STATUS until first ready, then never again; GC once' : 'neither STATUS nor GC'}`, () => {
      const c = oneNode({
        runtime: { name: 'cri-o', version: v },
        pluginBuild: 'v1.6.2',
        cniConfigs: { '10-containerd-net.conflist': v110 },
      });
      c.runFor(10_000_000);
      const atStart = execs(c, 'STATUS').length;
      c.runFor(60_000_000);
      expect(execs(c, 'STATUS').length).toBe(atStart);
      expect(c.sim.state.api!.nodes[NODE]!.ready.status).toBe('True');
      if (uses) {
        expect(atStart).toBeGreaterThan(0);
        expect(execs(c, 'GC').length).toBeGreaterThan(0);
      } else {
        expect(atStart).toBe(0);
        expect(execs(c, 'GC')).toEqual([]);
      }
    });
  }
});
