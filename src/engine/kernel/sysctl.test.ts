/**
 * Switching forwarding for "all" (net.ipv4.ip_forward) switches every device, but only when the
 * value changes (devinet_sysctl_forward: `if (write && *valp != val) ... inet_forward_change`).
 * Checked on a real 6.x kernel in a throwaway namespace: a veth with conf.<dev>.forwarding=0 keeps
 * 0 when ip_forward=1 is written again, and becomes 1 after ip_forward goes 0 then 1.
 */
import { describe, expect, it } from 'vitest';
import { createNetns, emptyKernel, linkAdd, sysctlGet, sysctlSet } from './kernel';

const rnd = { mac: () => '02:00:00:00:00:01' };

describe('sysctl forwarding', () => {
  it('writing ip_forward applies to the devices only when it changes the value', () => {
    const k = emptyKernel();
    const ns = createNetns(k);
    linkAdd(k, ns, { kind: 'veth', name: 'd0', peerName: 'd1' }, rnd);
    sysctlSet(k, ns, 'net.ipv4.ip_forward', '1');
    expect(sysctlGet(k, ns, 'net.ipv4.conf.d0.forwarding')).toBe('1');
    sysctlSet(k, ns, 'net.ipv4.conf.d0.forwarding', '0');
    sysctlSet(k, ns, 'net.ipv4.ip_forward', '1');
    expect(sysctlGet(k, ns, 'net.ipv4.conf.d0.forwarding')).toBe('0');
    expect(sysctlGet(k, ns, 'net.ipv4.conf.d1.forwarding')).toBe('1');
    sysctlSet(k, ns, 'net.ipv4.ip_forward', '0');
    sysctlSet(k, ns, 'net.ipv4.ip_forward', '1');
    expect(sysctlGet(k, ns, 'net.ipv4.conf.d0.forwarding')).toBe('1');
  });

  it('a device created after the change inherits it through conf.default', () => {
    const k = emptyKernel();
    sysctlSet(k, k.root, 'net.ipv4.ip_forward', '1');
    linkAdd(k, k.root, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
    expect(sysctlGet(k, k.root, 'net.ipv4.conf.v0.forwarding')).toBe('1');
    expect(sysctlGet(k, k.root, 'net.ipv4.conf.default.forwarding')).toBe('1');
  });
});
