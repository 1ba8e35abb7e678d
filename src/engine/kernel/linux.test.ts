/**
 * Kernel operations against what Linux 6.18 does (checked with iproute2 6.1 in throw-away network
 * namespaces; the command lines are quoted next to each case): errno and extended-ack texts of
 * failed calls, renaming devices, IPv4 primary and secondary addresses, and how routes are
 * validated, added, replaced and kept.
 */
import { describe, expect, it } from 'vitest';
import { parseIP } from '../net/ip';
import * as K from './kernel';
import type { KernelState, Link } from './types';

let macs = 0;
const rnd: K.RandomSource = {
  mac: () => `02:00:00:00:02:${(++macs % 256).toString(16).padStart(2, '0')}`,
};

function ip(s: string) {
  return parseIP(s)!;
}

function setup(): { k: KernelState; ns: string } {
  const k = K.emptyKernel();
  return { k, ns: k.root };
}

function link(k: KernelState, ns: string, name: string): Link {
  return K.linkByName(k.netns[ns]!, name)!;
}

/** The KernelError a call throws, as { errno, message, extack }. */
function failure(fn: () => void): { errno: string; message: string; extack?: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof K.KernelError) {
      return { errno: e.errno, message: e.message, ...(e.extack ? { extack: e.extack } : {}) };
    }
    throw e;
  }
  throw new Error('the call succeeded');
}

describe('errors', () => {
  it('adding an IPv6 address with IPv6 disabled is EACCES, "permission denied" in Go', () => {
    // sysctl -w net.ipv6.conf.br0.disable_ipv6=1; ip addr add fd00:77::1/64 dev br0
    //   Error: ipv6: IPv6 is disabled on this device.
    const { k, ns } = setup();
    const br = K.linkAdd(k, ns, { kind: 'bridge', name: 'br0' }, rnd);
    K.sysctlSet(k, ns, 'net.ipv6.conf.br0.disable_ipv6', '1');
    expect(failure(() => K.addrAdd(k, ns, br, { ip: ip('fd00:77::1'), prefix: 64 }))).toEqual({
      errno: 'EACCES',
      message: 'permission denied',
      extack: 'ipv6: IPv6 is disabled on this device',
    });
  });

  it('gives every errno a Go text', () => {
    for (const [errno, text] of Object.entries(K.KERRNO_TEXT)) {
      expect(new K.KernelError(errno as K.KErrno).message).toBe(text);
      expect(text).toMatch(/^[a-z][a-z ]+$/);
    }
  });
});

describe('new devices', () => {
  it('have txqueuelen 1000, a bridge included (ifb: 32)', () => {
    // ip link add br1 type bridge; ip -d link show br1: ... qlen 1000
    const { k, ns } = setup();
    K.linkAdd(k, ns, { kind: 'bridge', name: 'br1' }, rnd);
    K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
    K.linkAdd(k, ns, { kind: 'ifb', name: 'i0' }, rnd);
    expect(['lo', 'br1', 'v0', 'v1', 'i0'].map((n) => link(k, ns, n).txqlen)).toEqual([
      1000, 1000, 1000, 1000, 32,
    ]);
  });
});

describe('renaming a device', () => {
  it('renames devices that are up (Linux >= 6.2)', () => {
    // ip link add v0 type veth peer name v1; ip link add br0 type bridge; ip link add i0 type ifb;
    // ip link set DEV up (each); ip link set DEV name DEVx: all succeed, lo included.
    const { k, ns } = setup();
    K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
    K.linkAdd(k, ns, { kind: 'bridge', name: 'br0' }, rnd);
    K.linkAdd(k, ns, { kind: 'ifb', name: 'i0' }, rnd);
    for (const name of ['lo', 'v0', 'v1', 'br0', 'i0'])
      K.linkSetUp(k, ns, link(k, ns, name).ifindex);
    for (const name of ['v0', 'br0', 'i0', 'lo']) {
      const l = link(k, ns, name);
      K.linkSetName(k, ns, l.ifindex, `${name}x`);
      expect(link(k, ns, `${name}x`)).toMatchObject({ ifindex: l.ifindex, adminUp: true });
      expect(link(k, ns, name)).toBeUndefined();
    }
  });

  it('still refuses a name in use (EEXIST) or an invalid one (EINVAL)', () => {
    const { k, ns } = setup();
    const v0 = K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
    expect(failure(() => K.linkSetName(k, ns, v0, 'v1')).errno).toBe('EEXIST');
    expect(failure(() => K.linkSetName(k, ns, v0, 'a/b')).errno).toBe('EINVAL');
  });
});

/** The IPv4 addresses of a device as `ip -4 addr` lists them ("secondary" marked). */
function v4(k: KernelState, ns: string, name: string): string[] {
  return link(k, ns, name)
    .addrs.filter((a) => a.family === 4)
    .map((a) => `${a.local}/${a.prefix} ${a.scope}${a.secondary ? ' secondary' : ''}`);
}

/** IPv4 routes as `ip route` prints them (main table, in the model's order within a prefix). */
function routes4(k: KernelState, ns: string): string[] {
  const n = k.netns[ns]!;
  return n.routes
    .filter((r) => r.family === 4)
    .map(
      (r) =>
        `${r.dst}/${r.prefix}${r.gateway ? ` via ${r.gateway}` : ''} dev ${n.links[r.dev]!.name}` +
        `${r.scope !== 'universe' ? ` scope ${r.scope}` : ''}${r.prefsrc ? ` src ${r.prefsrc}` : ''}`,
    )
    .sort();
}

function bridgeUp(k: KernelState, ns: string, name = 'br0'): number {
  const i = K.linkAdd(k, ns, { kind: 'bridge', name }, rnd);
  K.linkSetUp(k, ns, i);
  return i;
}

function add4(k: KernelState, ns: string, dev: number, cidr: string, scope?: 'link' | 'host') {
  const [a, p] = cidr.split('/') as [string, string];
  K.addrAdd(k, ns, dev, { ip: ip(a), prefix: Number(p), ...(scope ? { scope } : {}) });
}

function del4(k: KernelState, ns: string, dev: number, cidr: string) {
  const [a, p] = cidr.split('/') as [string, string];
  K.addrDel(k, ns, dev, { ip: ip(a), prefix: Number(p) });
}

describe('IPv4 primary and secondary addresses', () => {
  it('makes an address in the subnet of another a secondary, listed after every primary', () => {
    // ip addr add 10.1.0.1/24, 10.1.0.7/24, 10.2.0.1/24, 10.1.0.8/24, 10.1.0.9/25 scope link
    const { k, ns } = setup();
    const br = bridgeUp(k, ns);
    for (const a of ['10.1.0.1/24', '10.1.0.7/24', '10.2.0.1/24', '10.1.0.8/24'])
      add4(k, ns, br, a);
    add4(k, ns, br, '10.1.0.9/25', 'link');
    expect(v4(k, ns, 'br0')).toEqual([
      '10.1.0.9/25 link',
      '10.1.0.1/24 global',
      '10.2.0.1/24 global',
      '10.1.0.7/24 global secondary',
      '10.1.0.8/24 global secondary',
    ]);
    expect(routes4(k, ns)).toEqual([
      '10.1.0.0/24 dev br0 scope link src 10.1.0.1',
      '10.1.0.0/25 dev br0 scope link src 10.1.0.9',
      '10.2.0.0/24 dev br0 scope link src 10.2.0.1',
    ]);
  });

  it('refuses a secondary whose scope differs from its primary: EINVAL "ipv4: Invalid scope value"', () => {
    // ip addr add 10.1.0.1/24 dev br0; ip addr add 10.1.0.9/24 dev br0 scope link
    //   Error: ipv4: Invalid scope value.
    const { k, ns } = setup();
    const br = bridgeUp(k, ns);
    add4(k, ns, br, '10.1.0.1/24');
    expect(failure(() => add4(k, ns, br, '10.1.0.9/24', 'link'))).toEqual({
      errno: 'EINVAL',
      message: 'invalid argument',
      extack: 'ipv4: Invalid scope value',
    });
    expect(failure(() => add4(k, ns, br, '10.1.0.1/24'))).toMatchObject({
      errno: 'EEXIST',
      extack: 'ipv4: Address already assigned',
    });
  });

  it('deletes the secondaries with their primary when promote_secondaries is 0 (the default)', () => {
    // ... then ip addr del 10.1.0.1/24 dev br0: 10.1.0.7 and 10.1.0.8 go too, and their routes.
    const { k, ns } = setup();
    expect(K.sysctlGet(k, ns, 'net.ipv4.conf.default.promote_secondaries')).toBe('0');
    const br = bridgeUp(k, ns);
    for (const a of ['10.1.0.1/24', '10.1.0.7/24', '10.2.0.1/24', '10.1.0.8/24'])
      add4(k, ns, br, a);
    add4(k, ns, br, '10.1.0.9/25', 'link');
    del4(k, ns, br, '10.1.0.1/24');
    expect(v4(k, ns, 'br0')).toEqual(['10.1.0.9/25 link', '10.2.0.1/24 global']);
    expect(routes4(k, ns)).toEqual([
      '10.1.0.0/25 dev br0 scope link src 10.1.0.9',
      '10.2.0.0/24 dev br0 scope link src 10.2.0.1',
    ]);
  });

  it('keeps the primary when a secondary is deleted', () => {
    const { k, ns } = setup();
    const br = bridgeUp(k, ns);
    add4(k, ns, br, '10.1.0.1/24');
    add4(k, ns, br, '10.1.0.7/24');
    del4(k, ns, br, '10.1.0.7/24');
    expect(v4(k, ns, 'br0')).toEqual(['10.1.0.1/24 global']);
    expect(routes4(k, ns)).toEqual(['10.1.0.0/24 dev br0 scope link src 10.1.0.1']);
  });

  it('promotes the first secondary when promote_secondaries is 1 (for the device or "all")', () => {
    // sysctl -w net.ipv4.conf.br0.promote_secondaries=1; ip addr add 10.1.0.1/24, 10.1.0.7/24,
    // 10.2.0.1/24, 10.1.0.8/24, 10.3.0.1/24; ip route add 10.50.0.0/16 dev br0 src 10.1.0.1;
    // ip route add 10.51.0.0/16 dev br0 src 10.1.0.7; ip route add 10.52.0.0/16 via 10.1.0.99;
    // ip addr del 10.1.0.1/24 dev br0
    for (const key of [
      'net.ipv4.conf.br0.promote_secondaries',
      'net.ipv4.conf.all.promote_secondaries',
    ]) {
      const { k, ns } = setup();
      const br = bridgeUp(k, ns);
      K.sysctlSet(k, ns, key, '1');
      for (const a of ['10.1.0.1/24', '10.1.0.7/24', '10.2.0.1/24', '10.1.0.8/24', '10.3.0.1/24'])
        add4(k, ns, br, a);
      const r = (dst: string, more: Partial<K.RouteSpec>) =>
        K.routeAdd(k, ns, { family: 4, dst: ip(dst), prefix: 16, dev: br, ...more });
      r('10.50.0.0', { prefsrc: ip('10.1.0.1') });
      r('10.51.0.0', { prefsrc: ip('10.1.0.7') });
      r('10.52.0.0', { gateway: ip('10.1.0.99') });
      del4(k, ns, br, '10.1.0.1/24');
      expect(v4(k, ns, 'br0')).toEqual([
        '10.2.0.1/24 global',
        '10.3.0.1/24 global',
        '10.1.0.7/24 global',
        '10.1.0.8/24 global secondary',
      ]);
      expect(routes4(k, ns)).toEqual([
        '10.1.0.0/24 dev br0 scope link src 10.1.0.7',
        '10.2.0.0/24 dev br0 scope link src 10.2.0.1',
        '10.3.0.0/24 dev br0 scope link src 10.3.0.1',
        '10.51.0.0/16 dev br0 scope link src 10.1.0.7',
        '10.52.0.0/16 via 10.1.0.99 dev br0',
      ]);
      // ip addr del 10.1.0.8/24 dev br0: a secondary goes alone.
      del4(k, ns, br, '10.1.0.8/24');
      expect(v4(k, ns, 'br0')).toEqual([
        '10.2.0.1/24 global',
        '10.3.0.1/24 global',
        '10.1.0.7/24 global',
      ]);
    }
  });

  it('puts a promoted address where its primary was unless a later primary is as narrow', () => {
    // promote_secondaries=1; ip addr add 10.2.0.1/24 scope link, 10.3.0.1/24, 10.4.0.1/24 scope
    // host, 10.2.0.2/24 scope link; ip addr del 10.2.0.1/24: 10.2.0.2 takes its place.
    const { k, ns } = setup();
    const br = bridgeUp(k, ns);
    K.sysctlSet(k, ns, 'net.ipv4.conf.br0.promote_secondaries', '1');
    add4(k, ns, br, '10.1.0.7/24');
    add4(k, ns, br, '10.1.0.8/24');
    add4(k, ns, br, '10.2.0.1/24', 'link');
    add4(k, ns, br, '10.3.0.1/24');
    add4(k, ns, br, '10.4.0.1/24', 'host');
    add4(k, ns, br, '10.2.0.2/24', 'link');
    expect(v4(k, ns, 'br0')).toEqual([
      '10.4.0.1/24 host',
      '10.2.0.1/24 link',
      '10.1.0.7/24 global',
      '10.3.0.1/24 global',
      '10.1.0.8/24 global secondary',
      '10.2.0.2/24 link secondary',
    ]);
    del4(k, ns, br, '10.2.0.1/24');
    expect(v4(k, ns, 'br0')).toEqual([
      '10.4.0.1/24 host',
      '10.2.0.2/24 link',
      '10.1.0.7/24 global',
      '10.3.0.1/24 global',
      '10.1.0.8/24 global secondary',
    ]);
  });
});
