import { describe, expect, it } from 'vitest';
import { newSandbox } from '../session';
import { complete } from './complete';
import { tkeys } from '../state/table';

const ONE_NODE = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

function node() {
  const s = newSandbox({ cluster: ONE_NODE, seed: 2 });
  expect(s.runUntil({ kind: 'pod-running', pod: 'web-0' })).not.toBeNull();
  return s.stateAt(s.cursor).nodes['node-1']!;
}

describe('tab completion', () => {
  const n = node();
  const ns = tkeys(n.kernel.mounts)
    .map((p) => p.split('/').pop()!)
    .filter((x) => x.startsWith('cni-'));
  const c = (line: string, cwd = '/root') => complete(n, cwd, line, line.length);

  it('completes command names in command position, after a pipe and after VAR=x', () => {
    expect(c('journ').candidates).toEqual(['journalctl']);
    expect(c('ls | gr').common).toBe('grep');
    expect(c('CNI_PATH=/opt/cni/bin cnit')).toMatchObject({ from: 22, common: 'cnitool' });
    expect(c('ip').candidates).toEqual([
      'ip',
      'ip6tables',
      'ip6tables-save',
      'iptables',
      'iptables-save',
    ]);
  });

  it('completes paths, marking directories, relative to the working directory', () => {
    expect(c('ls /var/lib/cni/')).toMatchObject({
      from: 3,
      candidates: ['/var/lib/cni/networks/', '/var/lib/cni/results/'],
      common: '/var/lib/cni/',
    });
    expect(c('cat results/containerd', '/var/lib/cni').candidates).toEqual([
      expect.stringMatching(/^results\/containerd-net-[0-9a-f]{64}-eth0$/),
    ]);
    expect(c('cat /opt/cni/bin/host-').common).toBe('/opt/cni/bin/host-');
    expect(c('/opt/cni/bin/bri').candidates).toEqual(['/opt/cni/bin/bridge']);
    expect(c('cat /nowhere/x').candidates).toEqual([]);
  });

  it('completes namespace and interface names for ip, of the namespace -n names', () => {
    expect(ns).toHaveLength(1);
    expect(c('ip -n c').candidates).toEqual(ns);
    expect(c('ip netns exec c').candidates).toEqual(ns);
    expect(c(`ip -n ${ns[0]} link show dev e`).candidates).toEqual(['eth0']);
    expect(c('ip link show dev c').candidates).toEqual(['cni0']);
    expect(c('ip addr show v').candidates).toEqual([expect.stringMatching(/^veth[0-9a-f]{8}$/)]);
    expect(c(`ip netns exec ${ns[0]} ip -br l`).candidates).toEqual(['lo']);
    expect(c(`ip netns exec ${ns[0]} sys`).candidates).toEqual(['sysctl', 'systemctl']);
  });

  it('completes units for journalctl -u and systemctl', () => {
    expect(c('journalctl -u k').candidates).toEqual(['kubelet']);
    expect(c('systemctl res').candidates).toEqual(['restart']);
    expect(c('systemctl status c').candidates).toEqual(['containerd']);
  });
});
