/**
 * modprobe / rmmod of br_netfilter (its /proc/sys/net/bridge keys come and go with it, host-wide)
 * and `bridge link set dev DEV hairpin on|off`.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import '../cluster/with-shell';
import { linkByName } from '../kernel/kernel';
import { hostNetns } from '../node/inspect';

function node() {
  const c = new Cluster({ nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] }, { seed: 2 });
  const sh = (line: string) => c.shell('node-1', line);
  return { c, sh };
}

describe('modprobe and rmmod br_netfilter', () => {
  it('rmmod removes /proc/sys/net/bridge in every namespace; modprobe brings it back at its defaults', () => {
    const { sh } = node();
    expect(
      sh('ip netns add x && ip netns exec x sysctl -w net.bridge.bridge-nf-call-iptables=0')
        .exitCode,
    ).toBe(0);
    expect(sh('rmmod br_netfilter')).toMatchObject({ exitCode: 0, output: '' });
    expect(sh('sysctl net.bridge.bridge-nf-call-iptables')).toMatchObject({
      exitCode: 1,
      stderr:
        'sysctl: cannot stat /proc/sys/net/bridge/bridge-nf-call-iptables: No such file or directory\n',
    });
    expect(sh('ip netns exec x sysctl net.bridge.bridge-nf-call-iptables').exitCode).toBe(1);
    expect(sh('ls /proc/sys/net').stdout).not.toMatch(/bridge/);
    expect(sh('sysctl -w net.bridge.bridge-nf-call-iptables=1').exitCode).toBe(1);
    expect(sh('rmmod br_netfilter')).toMatchObject({
      exitCode: 1,
      stderr: 'rmmod: ERROR: Module br_netfilter is not currently loaded\n',
    });
    expect(sh('modprobe br_netfilter')).toMatchObject({ exitCode: 0, output: '' });
    expect(sh('sysctl -n net.bridge.bridge-nf-call-iptables').stdout).toBe('1\n');
    expect(sh('ip netns exec x sysctl -n net.bridge.bridge-nf-call-iptables').stdout).toBe('1\n');
    expect(sh('modprobe br_netfilter').exitCode).toBe(0);
  });

  it('refuses other modules and lsmod as not simulated', () => {
    const { sh } = node();
    expect(sh('modprobe vxlan').stderr).toMatch(
      /^cnisim: modprobe: module vxlan .*: not simulated\n$/,
    );
    expect(sh('lsmod').stderr).toMatch(/^cnisim: lsmod: .*not simulated\n$/);
  });
});

describe('bridge link set', () => {
  it('sets and clears a port’s hairpin mode; refuses a device that is no port', () => {
    const { sh, c } = node();
    c.createPod({ name: 'web-0' });
    c.runFor(3_000_000);
    const veth = sh('ip -o link show master cni0').stdout.split(':')[1]!.trim().split('@')[0]!;
    const hairpin = () => linkByName(hostNetns(c.sim.node('node-1').kernel), veth)!.brport!.hairpin;
    expect(hairpin()).toBe(false);
    expect(sh(`bridge link set dev ${veth} hairpin on`).exitCode).toBe(0);
    expect(hairpin()).toBe(true);
    expect(sh(`bridge link set dev ${veth} hairpin off`).exitCode).toBe(0);
    expect(hairpin()).toBe(false);
    expect(sh('bridge link set dev cni0 hairpin on')).toMatchObject({
      exitCode: 255,
      stderr: 'RTNETLINK answers: Operation not supported\n',
    });
    expect(sh('bridge link set dev nope hairpin on').stderr).toBe('Cannot find device "nope"\n');
  });
});
