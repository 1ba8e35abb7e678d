/**
 * Faults of the node's daemons and of its wiring: restarts (in the middle of an ADD or with pods
 * running), a reboot, a deleted netns, drift found by CHECK, and a broken or missing conflist.
 */
import { describe, expect, it } from 'vitest';
import { describeEvents } from '../apiserver/apiserver';
import type { Cluster } from '../cluster/cluster';
import {
  cacheFiles,
  hostLinks,
  journal,
  netnsMounts,
  pod,
  podEvents,
  podStatus,
  reservations,
  sandboxes,
  taggedRules,
} from './observe';
import { NODE, inject, oneNode, recover, runningPod } from './testing';
import { tvalues } from '../state/table';
import { cniCommand, isKind } from '../trace/trace';

function execs(c: Cluster, from: number, command?: string) {
  return c.events
    .slice(from)
    .filter(isKind('exec'))
    .filter((e) => command === undefined || cniCommand(e) === command);
}

function criCalls(c: Cluster, from: number): string[] {
  return c.events
    .slice(from)
    .filter(isKind('cri'))
    .filter((e) => e.source === 'kubelet')
    .map((e) => e.payload.method);
}

describe('kubelet-restart-during-add', () => {
  it('kills the plugin, cleans up, and the restarted kubelet makes a new sandbox', () => {
    const c = oneNode();
    c.createPod({ name: 'web-0' });
    const r = inject(c, 'kubelet-restart-during-add', { pod: 'web-0' });
    expect(r.did).toEqual([`${NODE}# systemctl restart kubelet`]);
    // Injected while bridge was at its first step of the pod's ADD.
    const at = c.events[r.at - 1]!;
    expect(at.source).toBe('bridge');
    c.runFor(10_000_000);
    const killed = c.events.filter(isKind('exit')).find((e) => e.source === 'bridge')!;
    expect(killed.payload.signal).toBe('killed');
    const runs = journal(c, NODE, ['containerd']).filter((l) =>
      l.includes('msg="RunPodSandbox for'),
    );
    expect(runs).toHaveLength(4);
    expect(runs[1]).toContain('failed, error" error="failed to setup network for sandbox \\"');
    expect(runs[1]).toContain(
      'plugin type=\\"bridge\\" failed (add): netplugin failed with no error message: signal: killed"',
    );
    expect(runs[3]).toMatch(/returns sandbox id \\"[0-9a-f]{64}\\""$/);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(podEvents(c, 'web-0').map((e) => e.reason)).toEqual([
      'Scheduled',
      'Pulled',
      'Created',
      'Started',
    ]);
    const [sb] = sandboxes(c, NODE);
    expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.2', owner: sb!.id }]);
    expect(c.audit()[0]!.findings).toEqual([]);
  });

  it('needs no recovery', () => {
    const c = oneNode();
    c.createPod({ name: 'web-0' });
    inject(c, 'kubelet-restart-during-add', { pod: 'web-0' });
    expect(recover(c, 'kubelet-restart-during-add', { pod: 'web-0' }).did).toEqual([]);
    c.runFor(10_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
  });
});

// ≤ 1.6.8 sets the network up before it saves the sandbox (containerd v1.6.8
// pkg/cri/server/sandbox_run.go RunPodSandbox). Later releases: runtime/releases.test.ts.
const V168 = { containerd: { version: '1.6.8' } };

describe('containerd-restart-during-add', () => {
  it('≤ 1.6.8 loses the sandbox: EOF for the kubelet, the plugin finishes, its work is orphaned', () => {
    const c = oneNode(V168);
    c.createPod({ name: 'web-0' });
    inject(c, 'containerd-restart-during-add', { pod: 'web-0' });
    c.runFor(30_000_000);
    const failed = podEvents(c, 'web-0').find((e) => e.reason === 'FailedCreatePodSandBox')!;
    expect(failed.message).toBe(
      'Failed to create pod sandbox: rpc error: code = Unavailable desc = error reading from server: EOF',
    );
    // KillMode=process: bridge ran to its end although containerd was gone.
    const exit = c.events.filter(isKind('exit')).find((e) => e.source === 'bridge')!;
    expect(exit.payload.exitCode).toBe(0);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(pod(c, 'web-0')!.podIP).toBe('10.244.1.3');
    const [sb] = sandboxes(c, NODE);
    const orphanOwner = reservations(c, NODE).find((x) => x.ip === '10.244.1.2')!.owner;
    expect(orphanOwner).not.toBe(sb!.id);
    expect(netnsMounts(c, NODE)).toHaveLength(2);
    expect(cacheFiles(c, NODE)).toContain(`cni-loopback-${orphanOwner}-lo`);
    expect(cacheFiles(c, NODE)).not.toContain(`containerd-net-${orphanOwner}-eth0`);
    expect(taggedRules(c, NODE, orphanOwner)).toHaveLength(3);
    expect(
      c
        .audit()[0]!
        .findings.map((f) => f.kind)
        .sort(),
    ).toEqual([
      'orphan-cache',
      'orphan-iptables',
      'orphan-netns',
      'orphan-reservation',
      'orphan-veth',
    ]);
  });

  it('recovers when what no sandbox owns is removed', () => {
    const c = oneNode(V168);
    c.createPod({ name: 'web-0' });
    inject(c, 'containerd-restart-during-add', { pod: 'web-0' });
    c.runFor(30_000_000);
    const r = recover(c, 'containerd-restart-during-add', { pod: 'web-0' });
    expect(r.did[0]).toMatch(/^node-1# ip netns del cni-/);
    const [sb] = sandboxes(c, NODE);
    expect(netnsMounts(c, NODE)).toEqual([sb!.netns]);
    expect(hostLinks(c, NODE)).toHaveLength(3);
    expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.3', owner: sb!.id }]);
    expect(c.audit()[0]!.findings).toEqual([]);
    expect(podStatus(c, 'web-0')).toBe('Running');
  });
});

describe('containerd-restart', () => {
  it('keeps pods running: sandboxes recovered from metadata, no plugin runs', () => {
    const c = oneNode();
    runningPod(c);
    const ip = pod(c, 'web-0')!.podIP;
    const from = c.events.length;
    inject(c, 'containerd-restart');
    c.runFor(20_000_000);
    expect(execs(c, from)).toEqual([]);
    expect(criCalls(c, from)).toEqual([]);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(pod(c, 'web-0')!.podIP).toBe(ip);
    expect(podEvents(c, 'web-0')).toHaveLength(4);
    expect(c.events.slice(from).some((e) => e.summary.startsWith('containerd started'))).toBe(true);
    expect(recover(c, 'containerd-restart').did).toEqual([]);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('kubelet-restart', () => {
  it('reuses the ready sandboxes: no CRI call creates or stops anything', () => {
    const c = oneNode();
    runningPod(c);
    const from = c.events.length;
    inject(c, 'kubelet-restart');
    c.runFor(20_000_000);
    expect(execs(c, from)).toEqual([]);
    expect(criCalls(c, from)).toEqual([]);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(pod(c, 'web-0')!.restarts).toBe(0);
    expect(recover(c, 'kubelet-restart').did).toEqual([]);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('node-reboot', () => {
  it('SandboxChanged, DEL with an empty CNI_NETNS, a new sandbox with the next IP', () => {
    const c = oneNode();
    const old = runningPod(c);
    const from = c.events.length;
    inject(c, 'node-reboot');
    c.runFor(40_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(pod(c, 'web-0')!.restarts).toBe(1);
    expect(pod(c, 'web-0')!.podIP).toBe('10.244.1.3');
    const changed = podEvents(c, 'web-0').find((e) => e.reason === 'SandboxChanged')!;
    expect(changed).toMatchObject({
      type: 'Normal',
      message: 'Pod sandbox changed, it will be killed and re-created.',
    });
    const del = execs(c, from, 'DEL').find((e) => e.target === 'bridge')!;
    const env = del.payload.env;
    expect(env['CNI_CONTAINERID']).toBe(old);
    expect(env['CNI_NETNS']).toBe('');
    const lines = journal(c, NODE, ['containerd']).slice(-5);
    expect(lines[0]).toContain(`msg="StopPodSandbox for \\"${old}\\""`);
    expect(lines[1]).toContain(`msg="TearDown network for sandbox \\"${old}\\" successfully"`);
    expect(lines[3]).toContain('Attempt:1,}"');
    const [sb] = sandboxes(c, NODE).filter((s) => s.state === 'SANDBOX_READY');
    expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.3', owner: sb!.id }]);
    expect(taggedRules(c, NODE, old)).toEqual([]);
    expect(recover(c, 'node-reboot').did).toEqual([]);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('netns-deleted', () => {
  it('keeps the pod running (the pause process holds the namespace)', () => {
    const c = oneNode();
    const id = runningPod(c);
    const [sb] = sandboxes(c, NODE);
    const r = inject(c, 'netns-deleted', { pod: 'web-0' });
    expect(r.did).toEqual([`${NODE}# ip netns del ${sb!.netns.slice('/var/run/netns/'.length)}`]);
    c.runFor(5_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(netnsMounts(c, NODE)).toEqual([]);
    const k = c.sim.node(NODE).kernel;
    const held = tvalues(k.netns).find((ns) => ns.holders?.includes(`pause:${id}`));
    expect(held).toBeDefined();
    expect(hostLinks(c, NODE)).toHaveLength(3);
    const t = c.cniCheck('web-0');
    c.runFor(1_000_000);
    expect(t.value?.ok).toBe(false);
    expect(t.value?.error?.message).toMatch(
      /^failed to open netns "\/var\/run\/netns\/cni-[0-9a-f-]+": .*no such file or directory$/,
    );
    expect(c.audit()[0]!.findings).toEqual([]);
  });

  it('deletes cleanly with an empty CNI_NETNS, but bridge leaves its masquerade chain', () => {
    const c = oneNode();
    const id = runningPod(c);
    inject(c, 'netns-deleted', { pod: 'web-0' });
    const from = c.events.length;
    c.deletePod('web-0');
    c.runFor(5_000_000);
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    const del = execs(c, from, 'DEL').find((e) => e.target === 'bridge')!;
    expect(del.payload.env['CNI_NETNS']).toBe('');
    expect(reservations(c, NODE)).toEqual([]);
    expect(cacheFiles(c, NODE)).toEqual([]);
    expect(hostLinks(c, NODE)).toEqual(['lo', 'cni0']);
    expect(c.sim.node(NODE).kernel.netns.size).toBe(1);
    expect(taggedRules(c, NODE, id)).toHaveLength(3);
    // The stopped sandbox owns the chain until the kubelet's GC removes it (every minute).
    expect(c.audit()[0]!.findings).toEqual([]);
    c.runFor(60_000_000);
    expect(sandboxes(c, NODE)).toEqual([]);
    expect(c.audit()[0]!.findings.map((f) => f.kind)).toEqual(['orphan-iptables']);
    // Documented: nothing to recover for the pod; the leftover chain needs iptables.
    expect(recover(c, 'netns-deleted', { pod: 'web-0' }).ok).toBe(true);
  });

  it('the leftover chain goes with a reboot', () => {
    const c = oneNode();
    runningPod(c);
    inject(c, 'netns-deleted', { pod: 'web-0' });
    c.deletePod('web-0');
    c.runFor(5_000_000);
    c.reboot(NODE);
    c.runFor(40_000_000);
    expect(taggedRules(c, NODE)).toEqual([]);
    expect(c.audit()[0]!.findings).toEqual([]);
  });
});

describe('drift', () => {
  const checks: Record<string, string> = {
    address: 'Failed to match addr 10.244.1.2/24 on interface eth0',
    route: 'Expected Route {Dst:{IP:0.0.0.0 Mask:00000000} GW:<nil>} not found in routing table',
    'host-veth': 'Interface name eth0 not found',
    bridge: 'Interface name cni0 not found',
  };
  for (const [what, message] of Object.entries(checks)) {
    it(`${what}: the pod stays Running; CHECK says "${message}"`, () => {
      const c = oneNode();
      runningPod(c);
      inject(c, 'drift', { pod: 'web-0', what });
      c.runFor(10_000_000);
      expect(podStatus(c, 'web-0')).toBe('Running');
      expect(podEvents(c, 'web-0').filter((e) => e.type === 'Warning')).toEqual([]);
      const t = c.cniCheck('web-0');
      c.runFor(1_000_000);
      expect(t.value).toMatchObject({ ok: false, error: { code: 999, message } });
    });

    it(`${what}: recovers when the pod is recreated`, () => {
      const c = oneNode();
      runningPod(c);
      inject(c, 'drift', { pod: 'web-0', what });
      recover(c, 'drift', { pod: 'web-0', what });
      c.runFor(3_000_000);
      expect(podStatus(c, 'web-0')).toBe('Running');
      const t = c.cniCheck('web-0');
      c.runFor(1_000_000);
      expect(t.value?.ok).toBe(true);
      expect(c.audit()[0]!.findings).toEqual([]);
    });
  }

  it('address: deleting the pod leaves its masquerade chain (bridge finds no address to unmasquerade)', () => {
    const c = oneNode();
    const id = runningPod(c);
    inject(c, 'drift', { pod: 'web-0', what: 'address' });
    c.deletePod('web-0');
    c.runFor(5_000_000);
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    expect(reservations(c, NODE)).toEqual([]);
    expect(taggedRules(c, NODE, id)).toHaveLength(3);
  });
});

const NOT_READY =
  'NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

function brokenConflist(id: 'conflist-malformed' | 'conflist-missing', event: string) {
  it('makes the node NotReady; new pods wait; deleted pods stay Terminating', () => {
    const c = oneNode();
    const id0 = runningPod(c, 'web-0');
    const uid0 = pod(c, 'web-0')!.spec.uid;
    inject(c, id);
    c.runFor(6_000_000);
    c.createPod({ name: 'web-1' });
    c.deletePod('web-0');
    c.runFor(20_000_000);

    expect(c.sim.state.api!.nodes[NODE]!.ready).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'KubeletNotReady',
      message: `container runtime network not ready: ${NOT_READY}`,
    });
    const ctrd = journal(c, NODE, ['containerd']);
    expect(ctrd.find((l) => l.includes('failed to reload cni configuration'))).toContain(event);
    expect(journal(c, NODE, ['kubelet'])).toContain(
      journal(c, NODE, ['kubelet']).find((l) =>
        l.endsWith(`"Container runtime network not ready" networkReady="${NOT_READY}"`),
      ),
    );
    // New pods: no sandbox, NetworkNotReady every 1-1.5 s.
    expect(podStatus(c, 'web-1')).toBe('ContainerCreating');
    const notReady = podEvents(c, 'web-1').find((e) => e.reason === 'NetworkNotReady')!;
    expect(notReady.message).toBe(
      `network is not ready: container runtime network not ready: ${NOT_READY}`,
    );
    expect(notReady.count).toBeGreaterThan(10);
    expect(sandboxes(c, NODE).filter((s) => s.pod.name === 'web-1')).toEqual([]);
    // Deleted pods: go-cni cannot DEL without its config.
    expect(podStatus(c, 'web-0')).toBe('Terminating');
    expect(podEvents(c, 'web-0').find((e) => e.reason === 'FailedKillPod')!.message).toBe(
      `error killing pod: failed to "KillPodSandbox" for "${uid0}" with KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for sandbox \\"${id0}\\": cni plugin not initialized"`,
    );
    expect(reservations(c, NODE)).toEqual([{ ip: '10.244.1.2', owner: id0 }]);
  });

  it('recovers when the conflist is written back', () => {
    const c = oneNode();
    runningPod(c, 'web-0');
    inject(c, id);
    c.runFor(6_000_000);
    c.createPod({ name: 'web-1' });
    c.deletePod('web-0');
    c.runFor(10_000_000);
    const r = recover(c, id);
    expect(r.did).toEqual([`${NODE}: wrote /etc/cni/net.d/10-containerd-net.conflist back`]);
    c.runFor(20_000_000);
    expect(c.sim.state.api!.nodes[NODE]!.ready.status).toBe('True');
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    expect(podStatus(c, 'web-1')).toBe('Running');
    expect(describeEvents(c.sim.state.api!, 'pod/web-1', 'default', c.now).join('\n')).toMatch(
      /Warning\s+NetworkNotReady\s+\S+ \(x\d+ over \d+s\)\s+kubelet, node-1\s+network is not ready/,
    );
    expect(c.audit()[0]!.findings).toEqual([]);
  });
}

describe('conflist-malformed', () => {
  brokenConflist(
    'conflist-malformed',
    'msg="failed to reload cni configuration after receiving fs change event(WRITE         \\"/etc/cni/net.d/10-containerd-net.conflist\\")" error="cni config load failed: failed to load CNI config list file /etc/cni/net.d/10-containerd-net.conflist: error parsing configuration list: unexpected end of JSON input: invalid cni config: failed to load cni config"',
  );
});

describe('conflist-missing', () => {
  brokenConflist(
    'conflist-missing',
    'msg="failed to reload cni configuration after receiving fs change event(REMOVE        \\"/etc/cni/net.d/10-containerd-net.conflist\\")" error="cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config"',
  );
});
