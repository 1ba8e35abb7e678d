/**
 * The catalogue's recovery steps name commands an operator types ("rm /var/lib/cni/results/…",
 * "ip link del cni0", "iptables -t nat -D/-F/-X", "ip netns del …"). recovery.property.test.ts
 * runs each fault's `actions`, the simulation's own version of a step; here the steps that are
 * commands are typed, as written, in the node's shell, and must recover the node: the stuck pod
 * goes or starts, and the audit finds nothing left. Installing a plugin package is not a shell
 * command here (Cluster.installPlugin stands for it).
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../cluster/cluster';
import { faultById } from './catalogue';
import {
  cacheFiles,
  hostLinks,
  netnsMounts,
  pod,
  podEvents,
  podStatus,
  reservations,
  sandboxes,
  taggedRules,
} from './observe';
import { inject, NODE, oneNode, runningPod } from './testing';

const NET_DIR = '/var/lib/cni/networks/containerd-net';

/** A line typed on NODE, which must succeed. */
function sh(c: Cluster, line: string): string {
  const r = c.shell(NODE, line);
  expect({ line, exit: r.exitCode, stderr: r.stderr }).toEqual({ line, exit: 0, stderr: '' });
  return r.stdout;
}

/** The audit's findings on NODE, by kind. */
function findings(c: Cluster): string[] {
  return c
    .audit()
    .find((a) => a.node === NODE)!
    .findings.map((f) => f.kind);
}

/** The recovery steps' text of a fault, joined: what the test types must be what they say. */
function steps(id: string): string {
  return faultById(id)!.recovery.steps.join(' ');
}

/**
 * "The leaked nat chains need iptables -t nat -D/-F/-X": for a sandbox id, the jump to bridge's
 * chain is deleted as `iptables -t nat -S` prints it (-A turned into -D), then the chain is
 * flushed and removed.
 */
function dropChains(c: Cluster, id: string): void {
  const jumps = sh(c, 'iptables -t nat -S POSTROUTING')
    .split('\n')
    .filter((l) => l.includes(`id: \\"${id}\\"`));
  expect(jumps.length).toBeGreaterThan(0);
  for (const j of jumps) {
    sh(c, `iptables -t nat -D ${j.slice('-A '.length)}`);
    const chain = / -j (CNI-[0-9a-f]+)$/.exec(j)![1]!;
    sh(c, `iptables -t nat -F ${chain}`);
    sh(c, `iptables -t nat -X ${chain}`);
  }
}

/** Lesson 36's loop: remove each reservation whose container id no sandbox has. */
const REMOVE_ORPHAN_RESERVATIONS = `live=$(crictl pods -q --no-trunc); for f in ${NET_DIR}/10.244.*; do echo "$live" | grep -q "$(head -c 64 $f)" || rm -v $f; done`;

describe('recovery steps typed in the node’s shell', () => {
  it('cache-corrupted: rm of the cache file named by the FailedKillPod event lets the pod go', () => {
    expect(steps('cache-corrupted')).toContain('rm /var/lib/cni/results/<net>-<id>-eth0');
    const c = oneNode();
    runningPod(c);
    inject(c, 'cache-corrupted', { pod: 'web-0' });
    c.runFor(30_000_000);
    expect(podStatus(c, 'web-0')).toBe('Terminating');
    const killed = podEvents(c, 'web-0').find((e) => e.reason === 'FailedKillPod')!;
    const id = /failed to destroy network for sandbox \\"([0-9a-f]{64})\\"/.exec(
      killed.message,
    )![1]!;
    sh(c, `rm /var/lib/cni/results/containerd-net-${id}-eth0`);
    c.runFor(30_000_000);
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    c.runFor(60_000_000);
    expect(findings(c)).toEqual([]);
  });

  it('cni-version-unsupported: setting cniVersion back to 1.0.0 in the file is enough (containerd reloads it)', () => {
    expect(steps('cni-version-unsupported')).toContain('Set cniVersion to a version');
    const c = oneNode();
    inject(c, 'cni-version-unsupported', { node: NODE });
    c.createPod({ name: 'web-0' });
    c.runFor(30_000_000);
    expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
    const file = '/etc/cni/net.d/10-containerd-net.conflist';
    expect(sh(c, `grep cniVersion ${file}`)).toContain('"1.1.0"');
    sh(c, `sed -i 's/"1.1.0"/"1.0.0"/' ${file}`);
    c.runFor(30_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    c.runFor(60_000_000);
    expect(findings(c)).toEqual([]);
  });

  it('ipam-exhausted: removing the reservations no sandbox holds, then the port-less cni0, lets a pod start', () => {
    expect(steps('ipam-exhausted')).toContain('crictl pods -q --no-trunc');
    expect(steps('ipam-exhausted')).toContain('ip link del cni0');
    const c = oneNode({ podCIDR: '10.244.1.0/28' });
    inject(c, 'ipam-exhausted', { node: NODE });
    c.createPod({ name: 'web-0' });
    c.runFor(30_000_000);
    expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
    expect(reservations(c, NODE)).toHaveLength(13);
    expect(sh(c, REMOVE_ORPHAN_RESERVATIONS)).toMatch(/^(removed '.*'\n){13}$/);
    // Every ADD on this node has failed since cni0 was created: no port, MAC zeroed.
    expect(sh(c, 'ip link show cni0')).toContain('link/ether 00:00:00:00:00:00');
    sh(c, 'ip link del cni0');
    c.runFor(30_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(findings(c)).toEqual([]);
  });

  it('ip-forward-off: the grep the steps name runs on a Debian node and finds only the commented default', () => {
    const grep = 'grep -r ip_forward /etc/sysctl.conf /etc/sysctl.d';
    expect(steps('ip-forward-off')).toContain(grep);
    const c = oneNode();
    inject(c, 'ip-forward-off', { node: NODE });
    expect(sh(c, 'sysctl net.ipv4.ip_forward')).toBe('net.ipv4.ip_forward = 0\n');
    // Set by hand here: no file says so, only procps' commented example.
    expect(sh(c, grep)).toBe('/etc/sysctl.conf:#net.ipv4.ip_forward=1\n');
    sh(c, 'sysctl -w net.ipv4.ip_forward=1');
    expect(sh(c, 'sysctl net.ipv4.ip_forward')).toBe('net.ipv4.ip_forward = 1\n');
  });

  it('br-netfilter-unloaded: modprobe, then the two files that make it last, written where the steps say', () => {
    const text = steps('br-netfilter-unloaded');
    expect(text).toContain('echo br_netfilter > /etc/modules-load.d/k8s.conf');
    expect(text).toContain('net.bridge.bridge-nf-call-iptables = 1 in /etc/sysctl.d/k8s.conf');
    const c = oneNode();
    inject(c, 'br-netfilter-unloaded', { node: NODE });
    sh(c, 'modprobe br_netfilter');
    sh(c, 'echo br_netfilter > /etc/modules-load.d/k8s.conf');
    sh(c, "echo 'net.bridge.bridge-nf-call-iptables = 1' > /etc/sysctl.d/k8s.conf");
    expect(sh(c, 'sysctl -p /etc/sysctl.d/k8s.conf')).toBe(
      'net.bridge.bridge-nf-call-iptables = 1\n',
    );
    expect(sh(c, 'ls /etc/sysctl.d')).toBe('99-sysctl.conf\nREADME.sysctl\nk8s.conf\n');
  });

  it('add-fails-midway: once host-local is back, ip link del of the zeroed cni0 lets the next retry succeed', () => {
    expect(steps('add-fails-midway')).toContain('delete it (ip link del cni0)');
    const c = oneNode();
    inject(c, 'add-fails-midway', { node: NODE });
    c.createPod({ name: 'web-0' });
    c.runFor(30_000_000);
    c.installPlugin(NODE, 'host-local', 'v1.1.1');
    expect(sh(c, 'bridge link')).toBe('');
    expect(sh(c, 'ip link show cni0')).toContain('link/ether 00:00:00:00:00:00');
    sh(c, 'ip link del cni0');
    c.runFor(30_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    c.runFor(60_000_000);
    expect(findings(c)).toEqual([]);
  });

  it('silent-ip-leak on containerd 2.0.0: the reservations and nat chains removed by hand leave nothing', () => {
    expect(steps('silent-ip-leak')).toContain('remove the reservations by hand');
    const c = oneNode({ containerd: { version: '2.0.0' } });
    inject(c, 'silent-ip-leak', { node: NODE });
    c.createPod({ name: 'web-0' });
    c.runFor(40_000_000);
    c.installPlugin(NODE, 'portmap', 'v1.1.1');
    c.runFor(30_000_000);
    expect(podStatus(c, 'web-0')).toBe('Running');
    const live = new Set(sandboxes(c, NODE).map((s) => s.id));
    const leaked = reservations(c, NODE).filter((r) => !live.has(r.owner));
    expect(leaked.length).toBeGreaterThan(1);
    expect(findings(c).sort()).toEqual(
      [...leaked.map(() => 'orphan-iptables'), ...leaked.map(() => 'orphan-reservation')].sort(),
    );
    expect(sh(c, REMOVE_ORPHAN_RESERVATIONS).trim().split('\n')).toHaveLength(leaked.length);
    for (const r of leaked) dropChains(c, r.owner);
    expect(findings(c)).toEqual([]);
    expect(podStatus(c, 'web-0')).toBe('Running');
  });

  it('netns-deleted: the masquerade chain left after the deletion goes with iptables', () => {
    expect(steps('netns-deleted')).toContain('removed with iptables');
    const c = oneNode();
    const id = runningPod(c);
    inject(c, 'netns-deleted', { pod: 'web-0' });
    c.deletePod('web-0');
    c.runFor(70_000_000);
    expect(findings(c)).toEqual(['orphan-iptables']);
    // "CNI-… with the sandbox id in its comment"
    expect(sh(c, `iptables -t nat -S | grep -c ${id}`)).toBe('3\n');
    dropChains(c, id);
    expect(taggedRules(c, NODE)).toEqual([]);
    expect(findings(c)).toEqual([]);
  });

  it('drift (address): kubectl delete pod, then the masquerade chain with iptables', () => {
    expect(steps('drift')).toContain('remove it with iptables');
    const c = oneNode();
    const id = runningPod(c);
    inject(c, 'drift', { pod: 'web-0', what: 'address' });
    expect(sh(c, 'kubectl delete pod web-0')).toBe('pod "web-0" deleted\n');
    c.runFor(70_000_000);
    expect(podStatus(c, 'web-0')).toBe('<gone>');
    expect(findings(c)).toEqual(['orphan-iptables']);
    dropChains(c, id);
    expect(findings(c)).toEqual([]);
  });

  it('stale-reservation: rm of the file whose id crictl does not list', () => {
    expect(steps('stale-reservation')).toContain('Remove the file by hand');
    const c = oneNode();
    runningPod(c);
    inject(c, 'stale-reservation', { node: NODE });
    expect(findings(c)).toEqual(['orphan-reservation']);
    expect(sh(c, REMOVE_ORPHAN_RESERVATIONS)).toMatch(
      /^removed '\/var\/lib\/cni\/networks\/containerd-net\/10\.244\.1\.\d+'\n$/,
    );
    expect(findings(c)).toEqual([]);
    expect(podStatus(c, 'web-0')).toBe('Running');
  });

  it('stale-attachment on containerd: the reservation and the cache file removed by hand', () => {
    expect(steps('stale-attachment')).toContain(
      'removes the reservation and the cache file by hand',
    );
    const c = oneNode();
    runningPod(c);
    inject(c, 'stale-attachment', { node: NODE });
    expect(findings(c).sort()).toEqual(['orphan-cache', 'orphan-reservation']);
    const stale = reservations(c, NODE).find(
      (r) => !sandboxes(c, NODE).some((s) => s.id === r.owner),
    )!;
    sh(c, REMOVE_ORPHAN_RESERVATIONS);
    sh(c, `rm /var/lib/cni/results/containerd-net-${stale.owner}-eth0`);
    expect(findings(c)).toEqual([]);
  });

  describe('containerd-restart-during-add', () => {
    it('≤ 1.6.8: ip netns del takes the veth with it; then the reservation, the cache file and the chain', () => {
      const text = steps('containerd-restart-during-add');
      expect(text).toContain(
        'on ≤ 1.6.8, ip netns del the orphan namespace (its veth goes with it)',
      );
      expect(text).toContain('the cni-loopback cache file');
      expect(text).toContain('iptables -t nat -D/-F/-X');
      const c = oneNode({ containerd: { version: '1.6.8' } });
      c.createPod({ name: 'web-0' });
      inject(c, 'containerd-restart-during-add', { pod: 'web-0' });
      c.runFor(90_000_000);
      expect(podStatus(c, 'web-0')).toBe('Running');
      expect(findings(c).sort()).toEqual([
        'orphan-cache',
        'orphan-iptables',
        'orphan-netns',
        'orphan-reservation',
        'orphan-veth',
      ]);
      const live = new Set(sandboxes(c, NODE).map((s) => s.id));
      const lost = reservations(c, NODE).find((r) => !live.has(r.owner))!.owner;
      const owned = new Set(sandboxes(c, NODE).map((s) => s.netns));
      const orphanNs = netnsMounts(c, NODE).find((m) => !owned.has(m))!;
      const links = hostLinks(c, NODE).length;
      sh(c, `ip netns del ${orphanNs.slice('/var/run/netns/'.length)}`);
      expect(hostLinks(c, NODE)).toHaveLength(links - 1);
      sh(c, REMOVE_ORPHAN_RESERVATIONS);
      sh(c, `rm /var/lib/cni/results/cni-loopback-${lost}-lo`);
      dropChains(c, lost);
      expect(findings(c)).toEqual([]);
    });

    it('2.x: once the kubelet removed the NOTREADY sandbox, the reservation, the loopback cache file and the chain', () => {
      const c = oneNode({ containerd: { version: '2.0.0' } });
      c.createPod({ name: 'web-0' });
      inject(c, 'containerd-restart-during-add', { pod: 'web-0' });
      // First the reservation is held by the NOTREADY sandbox, stopped without a DEL...
      c.runFor(20_000_000);
      const notReady = sandboxes(c, NODE).filter((s) => s.state !== 'SANDBOX_READY');
      expect(notReady).toHaveLength(1);
      expect(reservations(c, NODE).map((r) => r.owner)).toContain(notReady[0]!.id);
      expect(findings(c)).toEqual([]);
      // ...then by no sandbox, once the kubelet's garbage collection has removed it.
      c.runFor(70_000_000);
      expect(podStatus(c, 'web-0')).toBe('Running');
      expect(findings(c).sort()).toEqual(['orphan-cache', 'orphan-iptables', 'orphan-reservation']);
      const live = new Set(sandboxes(c, NODE).map((s) => s.id));
      const lost = reservations(c, NODE).find((r) => !live.has(r.owner))!.owner;
      expect(cacheFiles(c, NODE)).toContain(`cni-loopback-${lost}-lo`);
      sh(c, REMOVE_ORPHAN_RESERVATIONS);
      sh(c, `rm /var/lib/cni/results/cni-loopback-${lost}-lo`);
      dropChains(c, lost);
      expect(findings(c)).toEqual([]);
      expect(pod(c, 'web-0')!.podIP).toBeTruthy();
    });
  });
});
