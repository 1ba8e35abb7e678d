/**
 * A node runs a named containerd release, and the behaviours that change between releases. Each
 * test names the containerd source (at the tag) that shows the behaviour it asserts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../cluster/cluster';
import {
  cacheFiles,
  journal,
  netnsMounts,
  podEvents,
  podStatus,
  reservations,
  sandboxes,
  taggedRules,
} from '../faults/observe';
import { NODE, inject, oneNode, recover } from '../faults/testing';
import { parseScenario } from '../scenario/schema';
import { clusterSpec, runScenario } from '../scenario/run';
import { cniCommand, isKind } from '../trace/trace';
import type { PodSandboxConfig } from './containerd';
import { BEHAVIOUR_RANGES, parseRelease } from './releases';

function on(version: string): Cluster {
  return oneNode({ containerd: { version } });
}

function dels(c: Cluster, from = 0) {
  return c.events
    .slice(from)
    .filter(isKind('exec'))
    .filter((e) => cniCommand(e) === 'DEL');
}

function containerdLog(c: Cluster, part: string): string[] {
  return journal(c, NODE, ['containerd']).filter((l) => l.includes(part));
}

const scenario = (node: Record<string, unknown>, top: Record<string, unknown> = {}) =>
  parseScenario({
    version: 1,
    nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24', ...node }],
    ...top,
  });

describe('release numbers', () => {
  it('map every real release to its behaviour range', () => {
    const range = (v: string) => {
      const r = parseRelease(v);
      if (!r.ok) throw new Error(r.error);
      return r.release.range;
    };
    expect(range('1.6.0')).toBe('1.6.0–1.6.8');
    expect(range('1.6.8')).toBe('1.6.0–1.6.8');
    expect(range('1.6.9')).toBe('1.6.9–1.6.36');
    expect(range('1.6.36')).toBe('1.6.9–1.6.36');
    expect(range('1.6.37')).toBe('1.6.37+');
    expect(range('1.7.0')).toBe('1.7.0–1.7.22');
    expect(range('1.7.22')).toBe('1.7.0–1.7.22');
    expect(range('1.7.23')).toBe('1.7.23+');
    expect(range('1.7.24')).toBe('1.7.23+');
    // The tags with commit f854c18 stay in the reference's ranges (releases.ts BEHAVIOUR_RANGES).
    expect(range('1.7.31')).toBe('1.7.23+');
    expect(range('1.7.34')).toBe('1.7.23+');
    expect(range('2.0.0')).toBe('2.0.0');
    expect(range('2.0.1')).toBe('2.0.1+');
    expect(range('2.0.8')).toBe('2.0.1+');
    expect(range('2.1.0')).toBe('2.0.1+');
    expect(range('v2.2.2')).toBe('2.0.1+');
    expect(range('2.3.4')).toBe('2.0.1+');
    expect(BEHAVIOUR_RANGES).toEqual([
      '1.6.0–1.6.8',
      '1.6.9–1.6.36',
      '1.6.37+',
      '1.7.0–1.7.22',
      '1.7.23+',
      '2.0.0',
      '2.0.1+',
    ]);
  });

  it('decide the libcni each vendors (go.mod at the tags)', () => {
    const lib = (v: string) =>
      (parseRelease(v) as { ok: true; release: { libcni: string } }).release.libcni;
    expect(['1.6.0', '1.6.39', '1.7.0', '1.7.34'].map(lib)).toEqual(['1.1', '1.1', '1.1', '1.1']);
    expect(['2.0.0', '2.1.0', '2.3.4'].map(lib)).toEqual(['1.2', '1.2', '1.2']);
    const vendors = (v: string) =>
      (parseRelease(v) as { ok: true; release: { vendors: string } }).release.vendors;
    expect(vendors('1.6.0')).toBe('go-cni v1.1.3, libcni v1.0.1');
    expect(vendors('1.6.8')).toBe('go-cni v1.1.6, libcni v1.1.1');
    expect(vendors('1.7.22')).toBe('go-cni v1.1.9, libcni v1.1.2');
    expect(vendors('2.0.1')).toBe('go-cni v1.1.11, libcni v1.2.3');
    expect(vendors('2.2.7')).toBe('go-cni v1.1.13, libcni v1.3.0');
  });

  it('refuse unknown and malformed numbers with the list of ranges', () => {
    for (const v of ['1.5.0', '1.7.35', '2.4.0', '1.7', 'latest', '1.7.022', '2.0.0-rc.1']) {
      const r = parseRelease(v);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error).toContain(`unknown containerd release "${v}"`);
        // The ranges as the reference names them are all listed, and no other.
        expect(r.error).toContain(
          'behaviour ranges 1.6.0–1.6.8, 1.6.9–1.6.36, 1.6.37+, 1.7.0–1.7.22, 1.7.23+, 2.0.0, 2.0.1+)',
        );
        expect(r.error.split('behaviour ranges')[1]).not.toMatch(/1\.7\.31|2\.0\.8|2\.[123]\./);
      }
    }
    const s = scenario({ containerd: { version: '1.8.0' } });
    expect(s.ok).toBe(false);
    if (!s.ok) {
      expect(s.errors).toHaveLength(1);
      expect(s.errors[0]).toMatch(
        /^nodes\[0\]\.containerd\.version: unknown containerd release "1\.8\.0"/,
      );
      expect(s.errors[0]).toContain('1.6.0–1.6.8, 1.6.9–1.6.36, 1.6.37+, 1.7.0–1.7.22');
    }
  });

  it('keep "libcni" as a shorthand (1.1: 1.7.22, 1.2: 2.0.0), refusing one a release contradicts', () => {
    expect(oneNode().rt(NODE).containerd.state.settings).toMatchObject({
      version: '1.7.22',
      libcni: '1.1',
    });
    expect(
      oneNode({ containerd: { libcni: '1.2' } }).rt(NODE).containerd.state.settings,
    ).toMatchObject({ version: '2.0.0', libcni: '1.2' });
    expect(on('1.6.20').rt(NODE).containerd.state.settings.libcni).toBe('1.1');
    expect(on('2.1.0').rt(NODE).containerd.state.settings.libcni).toBe('1.2');
    expect(scenario({ containerd: { version: '2.1.0', libcni: '1.2' } }).ok).toBe(true);
    const bad = scenario({ containerd: { version: '1.7.22', libcni: '1.2' } });
    expect(bad.ok ? [] : bad.errors).toEqual([
      'nodes[0].containerd.libcni: containerd 1.7.22 uses libcni 1.1, not 1.2 (leave libcni out: the release decides it)',
    ]);
  });

  it('a scenario-level release is every node’s default', () => {
    const s = scenario({}, { containerd: { version: '1.6.20' } });
    if (!s.ok) throw new Error(s.errors.join('; '));
    expect(clusterSpec(s.scenario).nodes[0]!.containerd).toEqual({ version: '1.6.20' });
    const own = scenario(
      { containerd: { version: '2.0.0' } },
      { containerd: { version: '1.6.20' } },
    );
    if (!own.ok) throw new Error(own.errors.join('; '));
    expect(clusterSpec(own.scenario).nodes[0]!.containerd).toEqual({ version: '2.0.0' });
    const dflt = parseScenario({ version: 1, containerd: { version: '1.7.24' } });
    if (!dflt.ok) throw new Error(dflt.errors.join('; '));
    expect(clusterSpec(dflt.scenario).nodes.map((n) => n.containerd?.version)).toEqual([
      '1.7.24',
      '1.7.24',
    ]);
  });

  // containerd cmd/containerd/command/main.go VersionPrinter; cri-tools crictl version.
  it('containerd --version and crictl version print the release', () => {
    const c = on('1.6.20');
    expect(c.shell(NODE, 'containerd --version').stdout).toBe(
      'containerd github.com/containerd/containerd v1.6.20 2806fc1057397dbaeefbea0e4e17bddfbd388f38\n',
    );
    expect(c.shell(NODE, 'crictl version').stdout).toBe(
      'Version:  0.1.0\nRuntimeName:  containerd\nRuntimeVersion:  v1.6.20\nRuntimeApiVersion:  v1\n',
    );
    expect(oneNode().shell(NODE, 'containerd --version').stdout).toBe(
      'containerd github.com/containerd/containerd v1.7.22 7f7fdf5fed64eb6a7caf99b3e12efcf9d60e311c\n',
    );
    expect(on('2.0.0').shell(NODE, 'containerd -v').stdout).toBe(
      'containerd github.com/containerd/containerd/v2 v2.0.0 207ad711eabd375a01713109a8a197d197ff6542\n',
    );
  });
});

/** The silent-ip-leak fault (portmap missing, so the clean-up DEL fails before bridge's). */
function failedCleanup(version: string, forUs = 40_000_000): Cluster {
  const c = on(version);
  inject(c, 'silent-ip-leak');
  c.createPod({ name: 'web-0' });
  c.runFor(forUs);
  return c;
}

describe('a failed ADD whose clean-up DEL fails too', () => {
  // containerd v1.7.22 pkg/cri/server/sandbox_run.go RunPodSandbox: cleanupErr is kept, the
  // netns is not removed, and the deferred function puts the sandbox in the store.
  for (const v of ['1.7.22', '1.6.9', '1.6.36']) {
    it(`${v}: kept as SANDBOX_UNKNOWN with its netns and IP; the kubelet stops it (SandboxChanged)`, () => {
      const c = failedCleanup(v, 5_000_000);
      const [sb] = sandboxes(c, NODE);
      expect(sb).toMatchObject({ state: 'SANDBOX_NOTREADY', unknown: true, hasCniResult: false });
      expect(containerdLog(c, 'marking sandbox state as SANDBOX_UNKNOWN')).toEqual([
        expect.stringContaining(
          `level=error msg="encountered an error cleaning up failed sandbox \\"${sb!.id}\\", marking sandbox state as SANDBOX_UNKNOWN" error="plugin type=\\"portmap\\" failed (delete): failed to find plugin \\"portmap\\" in path [/opt/cni/bin]"`,
        ),
      ]);
      expect(netnsMounts(c, NODE)).toEqual([sb!.netns]);
      expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.2', owner: sb!.id }]);
      expect(c.shell(NODE, 'crictl pods').stdout).toContain('NotReady');
      c.runFor(35_000_000);
      expect(podEvents(c, 'web-0').map((e) => [e.reason, e.count])).toEqual([
        ['Scheduled', 1],
        ['FailedCreatePodSandBox', 1],
        ['SandboxChanged', 3],
      ]);
      // The stop fails while portmap is missing: no new sandbox, so no new leak.
      expect(containerdLog(c, `msg="StopPodSandbox for \\"${sb!.id}\\" failed"`)).toHaveLength(3);
      expect(sandboxes(c, NODE)).toHaveLength(1);
      expect(
        journal(c, NODE, ['kubelet']).filter((l) => l.includes('"killPodWithSyncResult failed"')),
      ).toHaveLength(3);
      recover(c, 'silent-ip-leak');
      c.runFor(30_000_000);
      expect(podStatus(c, 'web-0')).toBe('Running');
      const live = sandboxes(c, NODE).filter((s) => s.state === 'SANDBOX_READY');
      expect(live.map((s) => s.pod.attempt)).toEqual([1]);
      expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.3', owner: live[0]!.id }]);
      expect(c.audit()[0]!.findings).toEqual([]);
    });
  }

  // containerd v2.0.0 internal/cri/server/sandbox_run.go RunPodSandbox and v1.6.37
  // pkg/cri/server/sandbox_run.go: `if sandbox.CNIResult == nil { cleanupErr = nil }`;
  // v1.6.8 pkg/cri/server/sandbox_run.go: the teardown error is only logged.
  for (const v of ['2.0.0', '1.6.37', '1.6.8', '2.2.7', '1.6.39', '2.3.4']) {
    it(`${v}: ignored and forgotten: one leaked reservation per retry`, () => {
      const c = failedCleanup(v);
      expect(sandboxes(c, NODE)).toEqual([]);
      expect(containerdLog(c, 'SANDBOX_UNKNOWN')).toEqual([]);
      expect(containerdLog(c, 'msg="Failed to destroy network for sandbox').length).toBeGreaterThan(
        2,
      );
      expect(reservations(c, NODE).length).toBeGreaterThan(2);
      expect(netnsMounts(c, NODE)).toEqual([]);
      expect(podEvents(c, 'web-0').map((e) => e.reason)).not.toContain('SandboxChanged');
    });
  }
});

describe('StopPodSandbox of a sandbox without a CNI result', () => {
  // containerd v1.7.23 pkg/cri/server/sandbox_stop.go stopPodSandbox:
  // `if sandbox.CNIResult != nil { teardownPodNetwork }`. runtime-versions.md: the same for every
  // later 1.7 release, also the ones with commit f854c18 (1.7.31+).
  for (const v of ['1.7.23', '1.7.31', '1.7.34']) {
    it(`${v}: runs no DEL at all, removes the netns: the reservation and the nat chain stay`, () => {
      const c = failedCleanup(v, 5_000_000);
      const [sb] = sandboxes(c, NODE);
      const from = c.events.length;
      c.runFor(10_000_000);
      expect(
        containerdLog(c, `msg="StopPodSandbox for \\"${sb!.id}\\" returns successfully"`),
      ).toHaveLength(1);
      const stopAt = c.events.findIndex(
        (e, i) => i >= from && e.summary.startsWith('StopPodSandbox'),
      );
      const runAt = c.events.findIndex(
        (e, i) => i > stopAt && e.summary.startsWith('RunPodSandbox'),
      );
      expect(
        dels(c).filter((e) => c.events.indexOf(e) > stopAt && c.events.indexOf(e) < runAt),
      ).toEqual([]);
      expect(reservations(c, NODE)).toContainEqual({ ip: '10.244.1.2', owner: sb!.id });
      expect(taggedRules(c, NODE, sb!.id).length).toBeGreaterThan(0);
      expect(netnsMounts(c, NODE)).not.toContain(sb!.netns);
    });
  }

  // containerd v1.7.22 pkg/cri/server/sandbox_stop.go stopPodSandbox: teardownPodNetwork whenever
  // sandbox.NetNS != nil, and any error fails the call.
  it('1.7.22: runs DEL and fails on its error', () => {
    const c = failedCleanup('1.7.22', 15_000_000);
    const [sb] = sandboxes(c, NODE);
    expect(containerdLog(c, `msg="StopPodSandbox for \\"${sb!.id}\\" failed"`)[0]).toContain(
      `error="failed to destroy network for sandbox \\"${sb!.id}\\": plugin type=\\"portmap\\" failed (delete): failed to find plugin \\"portmap\\" in path [/opt/cni/bin]"`,
    );
  });

  // runtime-versions.md "StopPodSandbox and teardown": from 1.7.23 / 1.6.37 and in all 2.x, no
  // DEL without a stored result. The upstream tags with commit f854c18 (1.7.31, 2.0.8, 2.1.7,
  // 2.2.2, 2.3.0) run DEL again and only warn about its error; cnisim follows the reference facts
  // for them (releases.ts BEHAVIOUR_RANGES), so nothing warns.
  it('1.7.31 and 1.7.34 (tags with f854c18): no warning about an ignored DEL error', () => {
    for (const v of ['1.7.31', '1.7.34']) {
      const c = failedCleanup(v, 15_000_000);
      expect(containerdLog(c, 'and ignoring because the sandbox network setup result')).toEqual([]);
      expect(containerdLog(c, 'msg="StopPodSandbox for').join('\n')).not.toContain('failed');
    }
  });
});

// internal/cri/instrument/instrumented_service.go RunPodSandbox logs `RunPodSandbox for %+v` of
// the sandbox metadata: the String() of the vendored k8s.io/cri-api (go.mod at the tags: v0.31.2
// in 2.0, v0.32.3 in 2.1, both gogo-protobuf; v0.34.1 in 2.2, google.golang.org/protobuf).
describe('the sandbox metadata in containerd’s RunPodSandbox lines', () => {
  for (const [v, proto] of [
    ['1.7.22', false],
    ['2.1.9', false],
    ['2.2.0', true],
    ['2.3.4', true],
  ] as const) {
    it(`${v}: ${proto ? 'protobuf text, attempt left out while 0' : 'the gogo struct literal'}`, () => {
      const c = on(v);
      c.createPod({ name: 'web-0' });
      inject(c, 'containerd-restart-during-add', { pod: 'web-0' });
      c.runFor(40_000_000);
      const [old, now] = sandboxes(c, NODE);
      const uid = old!.pod.uid;
      const meta = (attempt: number) =>
        proto
          ? `name:\\"web-0\\" uid:\\"${uid}\\" namespace:\\"default\\"${attempt ? ` attempt:${attempt}` : ''}`
          : `&PodSandboxMetadata{Name:web-0,Uid:${uid},Namespace:default,Attempt:${attempt},}`;
      expect(containerdLog(c, 'msg="RunPodSandbox for ')).toEqual([
        expect.stringContaining(`level=info msg="RunPodSandbox for ${meta(0)}"`),
        expect.stringContaining(`level=info msg="RunPodSandbox for ${meta(1)}"`),
        expect.stringContaining(
          `level=info msg="RunPodSandbox for ${meta(1)} returns sandbox id \\"${now!.id}\\""`,
        ),
      ]);
    });
  }
});

describe('a containerd restart during ADD', () => {
  function restarted(version: string): Cluster {
    const c = on(version);
    c.createPod({ name: 'web-0' });
    inject(c, 'containerd-restart-during-add', { pod: 'web-0' });
    c.runFor(40_000_000);
    return c;
  }

  // containerd v1.7.22 pkg/cri/server/sandbox_run.go RunPodSandbox (metadata with the netns
  // saved before setupPodNetwork), restart.go loadSandbox (NOTREADY), sandbox_stop.go
  // stopPodSandbox (DEL whenever there is a netns).
  for (const v of ['1.7.22', '1.6.9', '1.6.36']) {
    it(`${v}: recovered NOTREADY, SandboxChanged, a DEL in the still-mounted netns, Attempt:1`, () => {
      const c = restarted(v);
      const [old, now] = sandboxes(c, NODE);
      expect(old!.pod.attempt).toBe(0);
      expect(old!.state).toBe('SANDBOX_NOTREADY');
      expect(now!.pod.attempt).toBe(1);
      expect(podStatus(c, 'web-0')).toBe('Running');
      expect(podEvents(c, 'web-0').map((e) => e.reason)).toContain('SandboxChanged');
      const del = dels(c).find((e) => e.target === 'bridge')!;
      expect((del.payload as { env: Record<string, string> }).env['CNI_NETNS']).toBe(old!.netns);
      expect(containerdLog(c, 'Attempt:1,} returns sandbox id')).toHaveLength(1);
      expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.3', owner: now!.id }]);
      expect(cacheFiles(c, NODE).filter((f) => f.includes(old!.id))).toEqual([]);
      expect(taggedRules(c, NODE, old!.id)).toEqual([]);
      expect(netnsMounts(c, NODE)).toEqual([now!.netns]);
    });
  }

  // containerd v1.7.23 / v1.6.37 pkg/cri/server/sandbox_stop.go, v2.0.0
  // internal/cri/server/sandbox_stop.go stopPodSandbox: no CNI result, no DEL. The same for the
  // tags with commit f854c18 (1.7.31+, 2.0.8+, 2.1.7+, 2.2.2+, 2.3.x): runtime-versions.md
  // "restart while a plugin runs" wins over that source (releases.ts BEHAVIOUR_RANGES).
  for (const v of ['1.7.23', '1.6.37', '2.0.0', '1.7.31', '1.7.34', '2.0.8', '2.2.7', '2.3.4']) {
    it(`${v}: recovered NOTREADY, but no DEL: the reservation, the chains and the loopback cache leak`, () => {
      const c = restarted(v);
      const [old, now] = sandboxes(c, NODE);
      expect(old!.state).toBe('SANDBOX_NOTREADY');
      expect(now!.pod.attempt).toBe(1);
      expect(podStatus(c, 'web-0')).toBe('Running');
      expect(podEvents(c, 'web-0').map((e) => e.reason)).toContain('SandboxChanged');
      expect(dels(c)).toEqual([]);
      expect(reservations(c, NODE)).toContainEqual({ ip: '10.244.1.2', owner: old!.id });
      expect(taggedRules(c, NODE, old!.id).length).toBeGreaterThan(0);
      expect(cacheFiles(c, NODE)).toContain(`cni-loopback-${old!.id}-lo`);
      // The netns goes, and the pod's end of the veth with it.
      expect(netnsMounts(c, NODE)).toEqual([now!.netns]);
    });
  }

  // containerd v1.6.8 pkg/cri/server/sandbox_run.go RunPodSandbox: the network is set up before
  // the sandbox container (and its metadata) exists.
  it('1.6.8: the sandbox is forgotten; its netns, veth, reservation and chains are orphans', () => {
    const c = restarted('1.6.8');
    expect(sandboxes(c, NODE).map((s) => s.pod.attempt)).toEqual([0]);
    expect(podEvents(c, 'web-0').map((e) => e.reason)).not.toContain('SandboxChanged');
    expect(netnsMounts(c, NODE)).toHaveLength(2);
  });
});

describe('deadlines and sandbox names (scenarios/cleanup-timeout.json)', () => {
  function run() {
    const r = runScenario(
      readFileSync(join(__dirname, '../../../scenarios/cleanup-timeout.json'), 'utf8'),
    );
    if (!r.ok) throw new Error(r.errors.join('; '));
    return r.cluster;
  }

  // kubernetes cri-client remote_runtime.go RunPodSandbox (`timeout := r.timeout * 2`) and
  // StopPodSandbox (r.timeout); containerd v1.7.22 pkg/cri/server/sandbox_run.go RunPodSandbox
  // (the clean-up under util.DeferContext: deferCleanupTimeout, 1 minute).
  it('RunPodSandbox fails at 4m, the clean-up DEL is killed 1m later, StopPodSandbox gets 2m', () => {
    const c = run();
    const crit = c.events.filter(isKind('cri')).filter((e) => e.source === 'containerd');
    const run1 = crit.find((e) => e.payload.method === 'RunPodSandbox')!;
    expect(run1.summary).toContain('DeadlineExceeded');
    const sent = (e: { parent?: number }) => c.events.find((x) => x.seq === e.parent)!.time;
    const within1ms = (us: number, want: number) => {
      expect(us).toBeGreaterThanOrEqual(want);
      expect(us).toBeLessThan(want + 1000);
    };
    within1ms(run1.time - sent(run1), 240_000_000);
    const killed = containerdLog(c, 'msg="Failed to destroy network for sandbox');
    expect(killed).toHaveLength(1);
    expect(killed[0]).toContain(
      'error="plugin type=\\"bridge\\" failed (delete): netplugin failed with no error message: signal: killed"',
    );
    const delExit = c.events
      .filter(isKind('exit'))
      .find((e) => e.source === 'bridge' && e.payload.signal === 'killed' && e.time > run1.time)!;
    expect(Math.abs(delExit.time - run1.time - 60_000_000)).toBeLessThan(1000);
    const stop = crit.find((e) => e.payload.method === 'StopPodSandbox')!;
    expect(stop.summary).toContain('DeadlineExceeded');
    within1ms(stop.time - sent(stop), 120_000_000);
  });

  // containerd v1.7.22 pkg/cri/server/sandbox_run.go RunPodSandbox (sandboxNameIndex.Reserve)
  // and internal/registrar registrar.go Reserve.
  it('a retry while the first request still cleans up finds the name reserved', () => {
    const c = run();
    const [first] = sandboxes(c, NODE);
    const uid = first!.pod.uid;
    const name = `web-0_default_${uid}_0`;
    const refused = podEvents(c, 'web-0').filter((e) => e.message.includes('failed to reserve'));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.message).toBe(
      `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to reserve sandbox name "${name}": name "${name}" is reserved for "${first!.id}"`,
    );
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(sandboxes(c, NODE).map((s) => s.pod.attempt)).toEqual([0, 1]);
  });
});

// internal/registrar/registrar.go Reserve (ReservedErr with Conflict() from 2.1.7, 2.2.2, 2.3.0:
// containerd commit c94b423), internal/cri/instrument/instrumented_service.go RunPodSandbox
// (errgrpc.ToGRPC: a Conflict is FailedPrecondition). 1.7.31+ has the same registrar, but its
// in-tree errdefs.ToGRPC (v1.7.34 errdefs/grpc.go) has no Conflict case: Unknown.
describe('the gRPC code of a sandbox name still reserved', () => {
  const scenario = JSON.parse(
    readFileSync(join(__dirname, '../../../scenarios/cleanup-timeout.json'), 'utf8'),
  ) as Record<string, unknown> & { actions: unknown[] };
  for (const [version, code] of [
    ['1.7.34', 'Unknown'],
    ['2.0.11', 'Unknown'],
    ['2.1.6', 'Unknown'],
    ['2.1.7', 'FailedPrecondition'],
    ['2.2.1', 'Unknown'],
    ['2.2.2', 'FailedPrecondition'],
    ['2.3.0', 'FailedPrecondition'],
  ] as const) {
    it(`${version}: ${code}`, () => {
      const r = runScenario({
        ...scenario,
        containerd: { version },
        actions: scenario.actions.slice(0, 3),
        end: { until: 'log:failed to reserve sandbox name', timeout: '1s' },
      });
      if (!r.ok) throw new Error(r.errors.join('; '));
      const c = r.cluster;
      const refused = podEvents(c, 'web-0').find((e) => e.message.includes('failed to reserve'))!;
      expect(refused.message).toMatch(
        new RegExp(
          `^Failed to create pod sandbox: rpc error: code = ${code} desc = failed to reserve sandbox name "web-0_default_[0-9a-f-]+_0": name "web-0_default_[0-9a-f-]+_0" is reserved for "[0-9a-f]{64}"$`,
        ),
      );
    });
  }
});

describe('the kubelet’s garbage collection', () => {
  // kubernetes pkg/kubelet/kuberuntime/kuberuntime_gc.go evictSandboxes (every ContainerGCPeriod,
  // 1 minute); containerd v1.7.22 pkg/cri/server/sandbox_remove.go RemovePodSandbox ("Forcibly
  // stopping sandbox", stopPodSandbox again) and sandbox_stop.go (a closed netns: empty path).
  for (const v of ['1.7.22', '1.7.23', '2.0.0']) {
    it(`${v}: removes a deleted pod's sandbox within a minute, with a second DEL (empty CNI_NETNS, no prevResult)`, () => {
      const c = on(v);
      c.createPod({ name: 'web-0' });
      c.runFor(3_000_000);
      const [sb] = sandboxes(c, NODE);
      const from = c.events.length;
      c.deletePod('web-0');
      c.runFor(5_000_000);
      // The pod object goes at termination; its stopped sandbox stays until the GC.
      expect(podStatus(c, 'web-0')).toBe('<gone>');
      expect(sandboxes(c, NODE).map((s) => s.id)).toEqual([sb!.id]);
      const first = dels(c, from).filter((e) => e.target === 'bridge');
      expect(first).toHaveLength(1);
      expect(first[0]!.payload.env['CNI_NETNS']).toBe(sb!.netns);
      expect(JSON.parse(first[0]!.payload.stdin)).toHaveProperty('prevResult');
      c.runFor(60_000_000);
      expect(sandboxes(c, NODE)).toEqual([]);
      expect(containerdLog(c, `msg="Forcibly stopping sandbox \\"${sb!.id}\\""`)).toHaveLength(1);
      const both = dels(c, from).filter((e) => e.target === 'bridge');
      expect(both).toHaveLength(2);
      expect(both[1]!.payload.env['CNI_NETNS']).toBe('');
      expect(JSON.parse(both[1]!.payload.stdin)).not.toHaveProperty('prevResult');
      expect(both[1]!.time).toBeGreaterThanOrEqual(60_000_000);
      // DEL is idempotent: the second one succeeds and changes nothing.
      expect(
        c.events
          .filter(isKind('exit'))
          .filter((e) => e.time >= both[1]!.time && e.payload.exitCode !== 0),
      ).toEqual([]);
      expect(c.audit()[0]!.findings).toEqual([]);
    });
  }

  it('keeps the newest sandbox of a live pod and removes the older ones', () => {
    const c = failedCleanup('1.7.23', 75_000_000);
    const all = c.rt(NODE).containerd.listPodSandbox();
    // 1.7.23 stops each failed sandbox without a DEL; at 1m the GC removed all but the newest
    // (one more attempt came after), and the removed ones' addresses now belong to nobody.
    const runs = containerdLog(c, 'msg="RunPodSandbox for').filter((l) => !l.includes('failed'));
    expect(runs.length).toBeGreaterThan(4);
    expect(all.length).toBeLessThanOrEqual(2);
    // kuberuntime_manager.go computePodActions: the next attempt is the newest one's + 1, also
    // once the GC removed the older sandboxes.
    expect(all.at(-1)!.pod.attempt).toBe(runs.length - 1);
    expect(containerdLog(c, 'msg="Forcibly stopping sandbox').length).toBeGreaterThan(2);
    expect(c.audit()[0]!.findings.map((f) => f.kind)).toContain('orphan-reservation');
  });
});

// containerd pkg/cri/server/sandbox_stop.go StopPodSandbox: up to v1.6.34 and v1.7.20 a sandbox
// the store does not hold fails the call with the store's errdefs.ErrNotFound, which
// instrumented_service.go's errdefs.ToGRPC turns into gRPC NotFound; v1.6.35 and v1.7.21 ("Make
// `StopPodSandbox` RPC idempotent", 18ea8f288 / b3b6f1507) and internal/cri/server/sandbox_stop.go
// in every 2.x answer success.
describe('StopPodSandbox of a sandbox containerd does not hold', () => {
  const missing = 'f'.repeat(64);
  // The config is not looked at: the lookup fails first.
  const cfg = {} as PodSandboxConfig;
  for (const [v, notFound] of [
    ['1.6.34', true],
    ['1.6.35', false],
    ['1.7.0', true],
    ['1.7.20', true],
    ['1.7.21', false],
    ['1.7.22', false],
    ['2.0.0', false],
  ] as const) {
    it(`${v}: ${notFound ? 'gRPC NotFound' : 'success'}`, () => {
      expect(parseRelease(v).ok && parseRelease(v)).toMatchObject({
        release: { stopNotFoundFails: notFound },
      });
      const c = on(v);
      c.runFor(1_000_000);
      const t = c.sched.spawn(c.rt(NODE).containerd.stopPodSandbox(missing, cfg), {
        name: 'test StopPodSandbox',
        node: NODE,
      });
      c.runFor(1_000_000);
      expect(t.done).toBe(true);
      if (notFound) {
        expect(t.value).toEqual({
          ok: false,
          error: {
            code: 'NotFound',
            desc: `an error occurred when try to find sandbox "${missing}": not found`,
          },
        });
        // errdefs.ToGRPC made it a status before the deferred log line sees it.
        expect(containerdLog(c, `StopPodSandbox for \\"${missing}\\" failed`)).toEqual([
          expect.stringContaining(
            `error="rpc error: code = NotFound desc = an error occurred when try to find sandbox \\"${missing}\\": not found"`,
          ),
        ]);
      } else {
        expect(t.value).toEqual({ ok: true, value: null });
        expect(containerdLog(c, 'returns successfully')).toHaveLength(1);
      }
    });
  }
});

// containerd pkg/netns/netns_linux.go newNS (v1.6.0 – v2.3.4): the netns is named
// `cni-%x-%x-%x-%x-%x` over 16 bytes of crypto/rand: a UUID's shape, but no version nibble or
// variant bits (CRI-O's are version-4 UUIDs).
describe('the name of a sandbox’s netns', () => {
  it('cni- and 32 random hex digits in UUID groups, without the UUID version 4 bits', () => {
    const c = on('1.7.22');
    for (let i = 0; i < 8; i++) c.createPod({ name: `web-${i}` });
    c.runFor(5_000_000);
    const names = netnsMounts(c, NODE).map((m) => m.split('/').pop()!);
    expect(names).toHaveLength(8);
    for (const n of names) {
      expect(n).toMatch(/^cni-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    // Eight random names: some third group does not start with 4, or some fourth not with 8 – b.
    expect(names.some((n) => !/^cni-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab]/.test(n))).toBe(
      true,
    );
  });
});

// containerd cni_conf_syncer.go newCNINetConfSyncer: a failed load at start-up is logged with
// Error (pkg/cri/server in 1.6, 1.7; internal/cri/server up to v2.2.7) and with Warn from v2.3.0
// (commit b66f92f59 "cri: update log level to warn for CNI load failure during init").
describe('the start-up line of a conf dir that does not load', () => {
  for (const [v, level] of [
    ['1.7.22', 'error'],
    ['2.2.7', 'error'],
    ['2.3.0', 'warning'],
  ] as const) {
    it(`${v}: level=${level}`, () => {
      const c = oneNode({ containerd: { version: v }, cniConfigs: {} });
      c.runFor(1_000_000);
      const lines = containerdLog(c, 'failed to load cni during init');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(
        `level=${level} msg="failed to load cni during init, please check CRI plugin status before setting up network for pods" error="cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config"`,
      );
    });
  }
});
