/**
 * The pod IP containerd takes from the merged CNI results (kubelet-containerd.md §2.6): go-cni
 * `result.go` createResult (`default network not found for: eth0: not found`) and containerd
 * `sandbox_run.go` selectPodIPs / setupPodNetwork (`failed to find network info for sandbox`).
 * Both fail RunPodSandbox after a successful ADD, so the deferred clean-up DELs the network.
 */
import { describe, expect, it } from 'vitest';
import { cacheFiles, pod, podEvents, podStatus, reservations } from '../faults/observe';
import { NODE, oneNode } from '../faults/testing';
import { cniCommand, isKind } from '../trace/trace';

const list = (plugins: unknown[]) =>
  JSON.stringify({ cniVersion: '1.0.0', name: 'containerd-net', plugins });

function run(plugins: unknown[], version?: string, top: Record<string, unknown> = {}) {
  const c = oneNode({
    cniConfigs: {
      '10-containerd-net.conflist': JSON.stringify({ ...JSON.parse(list(plugins)), ...top }),
    },
    ...(version ? { containerd: { version } } : {}),
  });
  c.createPod({ name: 'web-0' });
  c.runFor(5_000_000);
  return c;
}

describe('a pod network whose result has no usable eth0', () => {
  it('no eth0 in the result (a loopback-only list): "default network not found for: eth0: not found"', () => {
    const c = run([{ type: 'loopback' }]);
    const ev = podEvents(c, 'web-0').find((e) => e.reason === 'FailedCreatePodSandBox')!;
    expect(ev.message).toMatch(
      /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]{64}": default network not found for: eth0: not found$/,
    );
    expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
  });

  it('eth0 without an address (bridge with no IPAM): "failed to find network info for sandbox", then a DEL', () => {
    const c = run([{ type: 'bridge', bridge: 'cni0' }]);
    const ev = podEvents(c, 'web-0').find((e) => e.reason === 'FailedCreatePodSandBox')!;
    const id = /sandbox "([0-9a-f]{64})"/.exec(ev.message)![1]!;
    expect(ev.message).toBe(
      `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": failed to find network info for sandbox "${id}"`,
    );
    const del = c.events
      .filter(isKind('exec'))
      .filter((e) => cniCommand(e) === 'DEL' && e.payload.env['CNI_CONTAINERID'] === id);
    expect(del.map((e) => e.target)).toContain('bridge');
    expect(reservations(c, NODE)).toEqual([]);
  });
});

/**
 * go-cni `namespace.go` Attach converts every network's result with types100.NewResultFromResult
 * (go-cni v1.1.3 – v1.1.13, every containerd 1.6.0 – 2.3.4): a 0.1.0 / 0.2.0 result's ip4 becomes
 * an IP without an interface index, which createResult counts for eth0. A list without
 * cniVersion runs its plugins at "" (0.1.0): bridge answers with `ip4` (recording
 * version-negotiation.json), and the pod still gets that address.
 */
describe('a list without cniVersion (plugins answer 0.1.0)', () => {
  const bridge = {
    type: 'bridge',
    bridge: 'cni0',
    isGateway: true,
    ipam: { type: 'host-local', ranges: [[{ subnet: '10.244.1.0/24' }]] },
  };
  for (const version of ['1.6.8', '1.7.22', '2.0.1', '2.3.4']) {
    it(`${version}: the ip4 of the 0.1.0 result is the pod IP; DEL sends no prevResult`, () => {
      const noVersion = { cniVersion: undefined };
      const c = run([bridge], version, noVersion);
      expect(podStatus(c, 'web-0')).toBe('Running');
      expect(pod(c, 'web-0')!.podIP).toBe('10.244.1.2');
      const add = c.events
        .filter(isKind('exec'))
        .find((e) => cniCommand(e) === 'ADD' && e.target === 'bridge')!;
      expect(JSON.parse(add.payload.stdin)['cniVersion']).toBe('');
      const cache = cacheFiles(c, NODE).find((f) => f.endsWith('-eth0'))!;
      expect(cache).toMatch(/^containerd-net-[0-9a-f]{64}-eth0$/);
      c.deletePod('web-0');
      c.runFor(5_000_000);
      const del = c.events
        .filter(isKind('exec'))
        .find((e) => cniCommand(e) === 'DEL' && e.target === 'bridge')!;
      expect(JSON.parse(del.payload.stdin)).not.toHaveProperty('prevResult');
      expect(reservations(c, NODE)).toEqual([]);
      expect(cacheFiles(c, NODE)).toEqual([]);
    });
  }
});

/**
 * containerd's `ip_pref` (`sandbox_run.go` selectPodIPs) on a dual-stack eth0 (10.244.1.2, then
 * fd00:1::2): "ipv4" (the default) takes the first IPv4; "cni" the result's order; "ipv6" the
 * first IPv6 from 1.7.25 and in 2.x, but up to 1.7.24 (every 1.6) its test is `To16() != nil`,
 * true for IPv4 too, so the first IP wins (containerd commit 88a8496).
 */
describe('ip_pref on a dual-stack pod', () => {
  const dual = [
    {
      type: 'bridge',
      bridge: 'cni0',
      isGateway: true,
      ipam: {
        type: 'host-local',
        ranges: [[{ subnet: '10.244.1.0/24' }], [{ subnet: 'fd00:1::/64' }]],
      },
    },
  ];
  function podIPs(version: string, ipPref: 'ipv4' | 'ipv6' | 'cni'): string[] {
    const c = oneNode({
      containerd: { version, ipPref },
      cniConfigs: { '10-containerd-net.conflist': list(dual) },
    });
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    const p = pod(c, 'web-0')!;
    expect(p.podIP).toBe(p.podIPs[0]);
    return p.podIPs;
  }
  for (const [version, v6first] of [
    ['1.6.39', false],
    ['1.7.24', false],
    ['1.7.25', true],
    ['2.0.0', true],
  ] as const) {
    it(`${version}: ipv6 takes ${v6first ? 'the first IPv6' : 'the first IP, an IPv4'}; ipv4 and cni as ever`, () => {
      expect(podIPs(version, 'ipv6')).toEqual(
        v6first ? ['fd00:1::2', '10.244.1.2'] : ['10.244.1.2', 'fd00:1::2'],
      );
      expect(podIPs(version, 'ipv4')).toEqual(['10.244.1.2', 'fd00:1::2']);
      expect(podIPs(version, 'cni')).toEqual(['10.244.1.2', 'fd00:1::2']);
    });
  }
});
