/**
 * Faults of the plugin binaries and of IPAM: versions, missing binaries, hangs, failed DELs and
 * the leaks they cause. Each test injects the fault into a one-node cluster and asserts what a
 * real node shows; the recovery tests carry out the documented recovery.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../cluster/cluster';
import * as K from '../kernel/kernel';
import {
  cacheFiles,
  hostLinks,
  journal,
  netnsMounts,
  pod,
  podEvents,
  podStatus,
  reservations,
  taggedRules,
} from './observe';
import { injectFault } from './inject';
import { NODE, inject, oneNode, recover, runningPod } from './testing';
import { tget } from '../state/table';
import { isKind } from '../trace/trace';

const RPC = 'rpc error: code = Unknown desc = ';

/**
 * A release that drops a failed clean-up's error when no CNI result was stored and forgets the
 * sandbox (containerd v2.0.0 internal/cri/server/sandbox_run.go RunPodSandbox; also ≤ 1.6.8 and
 * 1.6.37+). 1.6.9 – 1.6.36 and 1.7 keep it as SANDBOX_UNKNOWN: runtime/releases.test.ts.
 */
const FORGETS = { containerd: { version: '2.0.0' } };

/** The FailedCreatePodSandBox events' messages with the sandbox ids taken out. */
function createFailures(c: Cluster, name = 'web-0'): { ids: string[]; texts: string[] } {
  const evs = podEvents(c, name).filter((e) => e.reason === 'FailedCreatePodSandBox');
  const ids: string[] = [];
  const texts = evs.map((e) => {
    expect(e.type).toBe('Warning');
    const m = /sandbox "([0-9a-f]{64})"/.exec(e.message);
    if (m) ids.push(m[1]!);
    return e.message.replace(/[0-9a-f]{64}/, '<id>');
  });
  return { ids, texts };
}

function failedCreate(cause: string): string {
  return `Failed to create pod sandbox: ${RPC}failed to setup network for sandbox "<id>": ${cause}`;
}

function destroyLines(c: Cluster): string[] {
  return journal(c, NODE, ['containerd'])
    .filter((l) => l.includes('msg="Failed to destroy network for sandbox'))
    .map((l) => l.replace(/^.*level=error /, '').replace(/[0-9a-f]{64}/, '<id>'));
}

function bridgeMac(c: Cluster): string {
  const k = c.sim.node(NODE).kernel;
  return K.linkByName(tget(k.netns, k.root)!, 'cni0')!.mac;
}

describe('cni-version-unsupported', () => {
  it('every plugin refuses the version: ContainerCreating, nothing allocated, node Ready', () => {
    const c = oneNode(FORGETS);
    inject(c, 'cni-version-unsupported');
    c.createPod({ name: 'web-0' });
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
    expect(c.sim.state.api!.nodes[NODE]!.ready.status).toBe('True');
    const { texts } = createFailures(c);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toBe(
      failedCreate(
        'plugin type="bridge" failed (add): incompatible CNI versions; config is "1.1.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0" "1.0.0"]',
      ),
    );
    expect(destroyLines(c)[0]).toBe(
      'msg="Failed to destroy network for sandbox \\"<id>\\"" error="plugin type=\\"portmap\\" failed (delete): incompatible CNI versions; config is \\"1.1.0\\", plugin supports [\\"0.1.0\\" \\"0.2.0\\" \\"0.3.0\\" \\"0.3.1\\" \\"0.4.0\\" \\"1.0.0\\"]"',
    );
    expect(reservations(c, NODE)).toEqual([]);
    expect(cacheFiles(c, NODE)).toEqual([]);
    expect(netnsMounts(c, NODE)).toEqual([]);
    expect(hostLinks(c, NODE)).toEqual(['lo']);
  });

  it('recovers when cniVersion is set back to 1.0.0', () => {
    const c = oneNode();
    inject(c, 'cni-version-unsupported');
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    recover(c, 'cni-version-unsupported');
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('old-plugin-in-chain', () => {
  it('bridge succeeds, portmap v0.8.7 refuses 1.0.0, the clean-up DEL stops at portmap: one leak per try', () => {
    const c = oneNode(FORGETS);
    inject(c, 'old-plugin-in-chain');
    c.createPod({ name: 'web-0' });
    c.runFor(20_000_000);
    expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
    const { ids, texts } = createFailures(c);
    expect(texts[0]).toBe(
      failedCreate(
        'plugin type="portmap" failed (add): incompatible CNI versions; config is "1.0.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0"]',
      ),
    );
    expect(destroyLines(c)).toHaveLength(ids.length);
    expect(destroyLines(c)[0]).toContain(
      'error="plugin type=\\"portmap\\" failed (delete): incompatible CNI versions; config is \\"1.0.0\\"',
    );
    expect(reservations(c, NODE)).toEqual(
      ids.map((id, i) => ({ ip: `10.244.1.${i + 2}`, owner: id })),
    );
    for (const id of ids) expect(taggedRules(c, NODE, id)).toHaveLength(3);
    expect(cacheFiles(c, NODE)).toEqual([]);
    expect(netnsMounts(c, NODE)).toEqual([]);
    expect(hostLinks(c, NODE)).toEqual(['lo', 'cni0']);
  });

  it('recovers with the matching build; the leaks are removed by hand', () => {
    const c = oneNode();
    inject(c, 'old-plugin-in-chain');
    c.createPod({ name: 'web-0' });
    c.runFor(20_000_000);
    recover(c, 'old-plugin-in-chain');
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(reservations(c, NODE)).toHaveLength(1);
    expect(taggedRules(c, NODE)).toHaveLength(3);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('plugin-missing', () => {
  it('fails before anything runs: no reservation, no veth, the node stays Ready', () => {
    const c = oneNode(FORGETS);
    inject(c, 'plugin-missing');
    c.createPod({ name: 'web-0' });
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
    expect(c.sim.state.api!.nodes[NODE]!.ready.status).toBe('True');
    expect(createFailures(c).texts[0]).toBe(
      failedCreate(
        'plugin type="bridge" failed (add): failed to find plugin "bridge" in path [/opt/cni/bin]',
      ),
    );
    expect(destroyLines(c)[0]).toBe(
      'msg="Failed to destroy network for sandbox \\"<id>\\"" error="plugin type=\\"bridge\\" failed (delete): failed to find plugin \\"bridge\\" in path [/opt/cni/bin]"',
    );
    const kubelet = journal(c, NODE, ['kubelet']);
    expect(
      kubelet.filter((l) => l.includes('"RunPodSandbox from runtime service failed"')),
    ).toHaveLength(2);
    expect(reservations(c, NODE)).toEqual([]);
    expect(cacheFiles(c, NODE)).toEqual([]);
    expect(hostLinks(c, NODE)).toEqual(['lo']);
  });

  it('recovers when the plugin is installed again', () => {
    const c = oneNode();
    inject(c, 'plugin-missing');
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(recover(c, 'plugin-missing').did).toEqual([
      `${NODE}: installed bridge v1.1.1 into /opt/cni/bin`,
    ]);
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('add-fails-midway', () => {
  it('the veth exists when IPAM fails; the clean-up DEL fails too; the netns takes the veth', () => {
    const c = oneNode(FORGETS);
    runningPod(c, 'web-0');
    inject(c, 'add-fails-midway');
    const from = c.events.length;
    c.createPod({ name: 'web-1' });
    c.runFor(5_000_000);
    expect(podStatus(c, 'web-1')).toBe('ContainerCreating');
    expect(createFailures(c, 'web-1').texts[0]).toBe(
      failedCreate(
        'plugin type="bridge" failed (add): failed to find plugin "host-local" in path [/opt/cni/bin]',
      ),
    );
    expect(destroyLines(c)[0]).toBe(
      'msg="Failed to destroy network for sandbox \\"<id>\\"" error="plugin type=\\"bridge\\" failed (delete): failed to find plugin \\"host-local\\" in path [/opt/cni/bin]"',
    );
    // In the trace: bridge made the veth pair before it looked for host-local.
    const trace = c.events.slice(from);
    const bridgeAdd = trace.find((e) => e.kind === 'exec' && e.target === 'bridge')!.seq;
    const vethAdd = trace.find(
      (e) => e.source === 'bridge' && e.kind === 'kernel' && /link add .*type veth/.test(e.summary),
    );
    const exit = trace.filter(isKind('exit')).find((e) => e.parent === bridgeAdd)!;
    expect(vethAdd!.seq).toBeGreaterThan(bridgeAdd);
    expect(vethAdd!.seq).toBeLessThan(exit.seq);
    expect(exit.payload.exitCode).toBe(1);
    // Only web-0's wiring is left.
    expect(reservations(c, NODE)).toHaveLength(1);
    expect(netnsMounts(c, NODE)).toHaveLength(1);
    expect(hostLinks(c, NODE)).toHaveLength(3);
  });

  it('recovers when host-local is back', () => {
    const c = oneNode();
    runningPod(c, 'web-0');
    inject(c, 'add-fails-midway');
    c.createPod({ name: 'web-1' });
    c.runFor(5_000_000);
    expect(recover(c, 'add-fails-midway').did).toEqual([
      `${NODE}: installed host-local v1.1.1 into /opt/cni/bin`,
    ]);
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-1')).toBe('Running');
    expect(c.audit()[0]!.findings).toEqual([]);
  });

  it('on a node without pods the bridge is left portless with a zero MAC; deleting it recovers', () => {
    const c = oneNode();
    inject(c, 'add-fails-midway');
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(hostLinks(c, NODE)).toEqual(['lo', 'cni0']);
    expect(bridgeMac(c)).toBe('00:00:00:00:00:00');
    // host-local alone is not enough: bridge v1.1.1 pins the MAC it read before the new port.
    c.installPlugin(NODE, 'host-local', 'v1.1.1');
    c.runFor(15_000_000);
    expect(createFailures(c).texts.at(-1)).toBe(
      failedCreate(
        'plugin type="bridge" failed (add): failed to set bridge addr: could not set bridge\'s mac: invalid argument',
      ),
    );
    expect(recover(c, 'add-fails-midway').did).toEqual([
      `${NODE}: installed host-local v1.1.1 into /opt/cni/bin`,
      `${NODE}# ip link del cni0`,
    ]);
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(bridgeMac(c)).not.toBe('00:00:00:00:00:00');
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('plugin-hangs', () => {
  // kubernetes cri-client remote_runtime.go RunPodSandbox: `timeout := r.timeout * 2`.
  it('ends when the kubelet’s 4 min deadline (2 × 2 min) cancels RunPodSandbox and the plugin is killed', () => {
    const c = oneNode();
    inject(c, 'plugin-hangs');
    c.createPod({ name: 'web-0' });
    c.runFor(239_000_000);
    expect(podEvents(c, 'web-0').map((e) => e.reason)).toEqual(['Scheduled']);
    c.runFor(5_000_000);
    expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
    const failed = podEvents(c, 'web-0').find((e) => e.reason === 'FailedCreatePodSandBox')!;
    expect(failed.message).toBe(
      'Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded',
    );
    expect(failed.firstTime).toBeGreaterThanOrEqual(240_000_000);
    const killed = c.events.filter(isKind('exit')).find((e) => e.source === 'bridge')!;
    expect(killed.payload.signal).toBe('killed');
    expect(
      journal(c, NODE, ['containerd']).some((l) =>
        l.includes(
          'plugin type=\\"bridge\\" failed (add): netplugin failed with no error message: signal: killed"',
        ),
      ),
    ).toBe(true);
    expect(
      journal(c, NODE, ['kubelet']).some((l) =>
        l.includes(
          '"RunPodSandbox from runtime service failed" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded"',
        ),
      ),
    ).toBe(true);
    expect(reservations(c, NODE)).toEqual([]);
    expect(netnsMounts(c, NODE)).toEqual([]);
  });

  it('recovers when the plugin answers again (after the attempt in flight times out)', () => {
    const c = oneNode();
    inject(c, 'plugin-hangs');
    c.createPod({ name: 'web-0' });
    c.runFor(250_000_000);
    recover(c, 'plugin-hangs');
    c.runFor(150_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('del-fails-with-result', () => {
  it('fails StopPodSandbox on every retry: Terminating, FailedKillPod, IP still held', () => {
    const c = oneNode();
    const id = runningPod(c);
    const uid = pod(c, 'web-0')!.spec.uid;
    inject(c, 'del-fails-with-result', { pod: 'web-0' });
    c.runFor(30_000_000);
    expect(podStatus(c, 'web-0')).toBe('Terminating');
    expect(pod(c, 'web-0')!.podIP).toBe('10.244.1.2');
    const evs = podEvents(c, 'web-0');
    expect(evs.find((e) => e.reason === 'Killing')!.message).toBe('Stopping container web-0');
    const failed = evs.find((e) => e.reason === 'FailedKillPod')!;
    expect(failed.message).toBe(
      `error killing pod: failed to "KillPodSandbox" for "${uid}" with KillPodSandboxError: "${RPC}failed to destroy network for sandbox \\"${id}\\": plugin type=\\"portmap\\" failed (delete): failed to find plugin \\"portmap\\" in path [/opt/cni/bin]"`,
    );
    expect(failed.count).toBeGreaterThanOrEqual(2);
    const kubelet = journal(c, NODE, ['kubelet']);
    expect(
      kubelet.filter((l) => l.includes('"StopPodSandbox from runtime service failed"')),
    ).toHaveLength(failed.count);
    expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.2', owner: id }]);
    expect(cacheFiles(c, NODE)).toContain(`containerd-net-${id}-eth0`);
    expect(netnsMounts(c, NODE)).toHaveLength(1);
  });

  it('recovers when the plugin is back: the pod goes and nothing is left', () => {
    const c = oneNode();
    runningPod(c);
    inject(c, 'del-fails-with-result', { pod: 'web-0' });
    c.runFor(15_000_000);
    recover(c, 'del-fails-with-result', { pod: 'web-0' });
    c.runFor(20_000_000);
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    expect(reservations(c, NODE)).toEqual([]);
    expect(cacheFiles(c, NODE)).toEqual([]);
    expect(netnsMounts(c, NODE)).toEqual([]);
    expect(taggedRules(c, NODE)).toEqual([]);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('silent-ip-leak', () => {
  it('leaks one reservation and one nat chain per attempt, with nothing on the pod to say so', () => {
    const c = oneNode(FORGETS);
    inject(c, 'silent-ip-leak');
    c.createPod({ name: 'web-0' });
    c.runFor(40_000_000);
    const { ids, texts } = createFailures(c);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(texts[0]).toBe(
      failedCreate(
        'plugin type="portmap" failed (add): failed to find plugin "portmap" in path [/opt/cni/bin]',
      ),
    );
    expect(destroyLines(c)).toEqual(
      ids.map(
        () =>
          'msg="Failed to destroy network for sandbox \\"<id>\\"" error="plugin type=\\"portmap\\" failed (delete): failed to find plugin \\"portmap\\" in path [/opt/cni/bin]"',
      ),
    );
    expect(reservations(c, NODE)).toEqual(
      ids.map((id, i) => ({ ip: `10.244.1.${i + 2}`, owner: id })),
    );
    for (const id of ids) expect(taggedRules(c, NODE, id)).toHaveLength(3);
    expect(cacheFiles(c, NODE)).toEqual([]);
    expect(netnsMounts(c, NODE)).toEqual([]);
    expect(hostLinks(c, NODE)).toEqual(['lo', 'cni0']);
    const kinds = c.audit()[0]!.findings.map((f) => f.kind);
    expect(kinds.filter((k) => k === 'orphan-reservation')).toHaveLength(ids.length);
    expect(kinds.filter((k) => k === 'orphan-iptables')).toHaveLength(ids.length);
  });

  it('recovers: plugin reinstalled, leaked reservations and nat chains removed', () => {
    const c = oneNode(FORGETS);
    inject(c, 'silent-ip-leak');
    c.createPod({ name: 'web-0' });
    c.runFor(20_000_000);
    const leaked = reservations(c, NODE).length;
    const r = recover(c, 'silent-ip-leak');
    expect(r.did[0]).toBe(`${NODE}: installed portmap v1.1.1 into /opt/cni/bin`);
    expect(r.did.at(-1)).toMatch(
      /^node-1# rm \/var\/lib\/cni\/networks\/containerd-net\/10\.244\.1\.2 /,
    );
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(pod(c, 'web-0')!.podIP).toBe(`10.244.1.${leaked + 2}`);
    expect(reservations(c, NODE)).toHaveLength(1);
    expect(taggedRules(c, NODE)).toHaveLength(3);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('ipam-exhausted', () => {
  it('fails bridge’s IPAM step for new pods; running pods are fine', () => {
    const c = oneNode();
    runningPod(c, 'web-0');
    const r = inject(c, 'ipam-exhausted');
    expect(r.did).toEqual([
      `${NODE}: 252 reservations in /var/lib/cni/networks/containerd-net held by unknown containers`,
    ]);
    c.createPod({ name: 'web-1' });
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(podStatus(c, 'web-1')).toBe('ContainerCreating');
    expect(createFailures(c, 'web-1').texts[0]).toBe(
      failedCreate(
        'plugin type="bridge" failed (add): failed to allocate for range 0: no IP addresses available in range set: 10.244.1.1-10.244.1.254',
      ),
    );
    expect(reservations(c, NODE)).toHaveLength(253);
    expect(c.audit()[0]!.findings.filter((f) => f.kind === 'orphan-reservation')).toHaveLength(252);
  });

  it('leaves `free` addresses when asked', () => {
    const c = oneNode();
    inject(c, 'ipam-exhausted', { free: 1 });
    runningPod(c, 'web-0');
    expect(pod(c, 'web-0')!.podIP).toBe('10.244.1.254');
  });

  it('recovers when the leaked reservations are removed', () => {
    const c = oneNode();
    runningPod(c, 'web-0');
    inject(c, 'ipam-exhausted');
    c.createPod({ name: 'web-1' });
    c.runFor(5_000_000);
    recover(c, 'ipam-exhausted');
    c.runFor(15_000_000);
    expect(podStatus(c, 'web-1')).toBe('Running');
    expect(reservations(c, NODE)).toHaveLength(2);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

/**
 * The fault `bad-output`: a plugin exits 0 with stdout that is not JSON. libcni's
 * invoke.ExecPluginWithResult (`pkg/invoke/exec.go` fixupResultVersion, libcni v1.1.1 and later:
 * containerd 1.6.5+, 1.7, 2.x) fails with "failed to unmarshal raw result: <json error>", which
 * AddNetworkList wraps as `plugin type="<plugin>" failed (add): …` (`libcni/api.go`); the
 * json error is encoding/json's for the first byte ("invalid character 'd' looking for beginning
 * of value"). DEL's stdout is ignored (ExecPluginWithoutResult), so the clean-up succeeds.
 */
const BAD_OUTPUT_ERR =
  "failed to unmarshal raw result: invalid character 'd' looking for beginning of value";

describe('bad-output', () => {
  for (const version of ['1.6.5', '1.6.39', '1.7.22', '1.7.24', '2.0.0', '2.0.1', '2.3.4'])
    it(`${version}: every ADD fails with libcni's unmarshal error, nothing leaks, recovery works`, () => {
      const c = oneNode({ containerd: { version } });
      c.runFor(1_000_000);
      inject(c, 'bad-output', { plugin: 'bridge' });
      c.createPod({ name: 'web-0' });
      c.runFor(30_000_000);
      expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
      const failed = podEvents(c, 'web-0').filter((e) => e.reason === 'FailedCreatePodSandBox');
      expect(failed.length).toBeGreaterThan(0);
      expect(failed[0]!.message).toMatch(
        new RegExp(
          `^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]{64}": plugin type="bridge" failed \\(add\\): ${BAD_OUTPUT_ERR}$`,
        ),
      );
      // The plugin did exit 0: it is its output libcni refused.
      const exits = c.events
        .filter(isKind('exit'))
        .filter((e) => e.source === 'bridge' && e.payload.stdout.startsWith('debug: '));
      expect(exits.length).toBeGreaterThan(0);
      expect(exits.every((e) => e.payload.exitCode === 0)).toBe(true);
      expect(journal(c, NODE, ['containerd']).join('\n')).toContain(
        `plugin type=\\"bridge\\" failed (add): ${BAD_OUTPUT_ERR}`,
      );
      expect(reservations(c, NODE)).toEqual([]);
      recover(c, 'bad-output', { plugin: 'bridge' });
      c.runFor(30_000_000);
      expect(podStatus(c, 'web-0')).toBe('Running');
      expect(reservations(c, NODE)).toHaveLength(1);
    });

  it('an IPAM plugin: bridge, which delegates to it, fails with the same error', () => {
    const c = oneNode();
    c.runFor(1_000_000);
    inject(c, 'bad-output', { plugin: 'host-local' });
    c.createPod({ name: 'web-0' });
    c.runFor(20_000_000);
    const failed = podEvents(c, 'web-0').filter((e) => e.reason === 'FailedCreatePodSandBox');
    expect(failed[0]!.message).toContain(`plugin type="bridge" failed (add): ${BAD_OUTPUT_ERR}`);
    expect(reservations(c, NODE)).toEqual([]);
  });

  it('is refused on 1.6.0 – 1.6.4, whose libcni words the error otherwise', () => {
    for (const version of ['1.6.0', '1.6.4']) {
      const c = oneNode({ containerd: { version } });
      c.runFor(1_000_000);
      const r = injectFault(c, 'bad-output', { plugin: 'bridge' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain('decoding version from network config');
    }
  });
});
