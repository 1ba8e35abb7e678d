/**
 * Kernel operations against what Linux 6.18 does (checked with iproute2 6.1 in throw-away network
 * namespaces; the command lines are quoted next to each case): errno and extended-ack texts of
 * failed calls, renaming devices, IPv4 primary and secondary addresses, and how routes are
 * validated, added, replaced and kept.
 */
import { describe, expect, it } from 'vitest';
import { parseIP } from '../net/ip';
import * as K from './kernel';
import { linkFlags, routeJson, routesInDumpOrder } from './view';
import type { KernelState, Link } from './types';
import { tget } from '../state/table';
import { produce } from 'immer';

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
  return K.linkByName(tget(k.netns, ns)!, name)!;
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

  it('dummy and ifb: BROADCAST,NOARP without MULTICAST; a dummy has no queue (noqueue)', () => {
    // drivers/net/dummy.c dummy_setup and ifb.c ifb_setup: flags |= IFF_NOARP, &= ~IFF_MULTICAST;
    // dummy also sets IFF_NO_QUEUE. ip link add d0 type dummy; ip link set d0 up; ip link show d0:
    //   d0: <BROADCAST,NOARP,UP,LOWER_UP> mtu 1500 qdisc noqueue state UNKNOWN ... qlen 1000
    const { k, ns } = setup();
    K.linkAdd(k, ns, { kind: 'dummy', name: 'd0' }, rnd);
    K.linkAdd(k, ns, { kind: 'ifb', name: 'i0' }, rnd);
    K.linkAdd(k, ns, { kind: 'bridge', name: 'br0' }, rnd);
    const netns = tget(k.netns, ns)!;
    const flags = (n: string) => linkFlags(k, netns, link(k, ns, n));
    expect(flags('d0')).toEqual(['BROADCAST', 'NOARP']);
    expect(flags('i0')).toEqual(['BROADCAST', 'NOARP']);
    expect(flags('br0')).toEqual(['BROADCAST', 'MULTICAST']);
    for (const n of ['d0', 'i0']) K.linkSetUp(k, ns, link(k, ns, n).ifindex);
    expect(flags('d0')).toEqual(['BROADCAST', 'NOARP', 'UP', 'LOWER_UP']);
    expect(link(k, ns, 'd0').tc?.root?.kind).toBe('noqueue');
    expect(link(k, ns, 'i0').tc?.root?.kind).toBe('pfifo_fast');
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

  it('refuses a name longer than 15 bytes with ERANGE (IFLA_IFNAME policy), before EINVAL', () => {
    const { k, ns } = setup();
    const long = 'averyverylongbr0'; // 16 bytes: recorded as "numerical result out of range"
    expect(failure(() => K.linkAdd(k, ns, { kind: 'bridge', name: long }, rnd)).errno).toBe(
      'ERANGE',
    );
    expect(
      failure(() => K.linkAdd(k, ns, { kind: 'bridge', name: 'a/verylongname/x' }, rnd)).errno,
    ).toBe('ERANGE');
    expect(
      failure(() => K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: long }, rnd)).errno,
    ).toBe('ERANGE');
    const v0 = K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
    expect(failure(() => K.linkSetName(k, ns, v0, long)).errno).toBe('ERANGE');
    expect(failure(() => K.linkSetName(k, ns, v0, 'ééééééééé')).errno).toBe('ERANGE'); // 18 bytes
    expect(K.linkAdd(k, ns, { kind: 'bridge', name: 'averyverylongbr' }, rnd)).toBeGreaterThan(0);
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
  const n = tget(k.netns, ns)!;
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

/** `ip [-6] route show` lines (main table) in dump order. */
function show(k: KernelState, ns: string, fam: 4 | 6 = 4): string[] {
  const n = tget(k.netns, ns)!;
  return routesInDumpOrder(n, fam).map((r) => {
    const o = routeJson(n, r);
    return [
      o['dst'],
      o['gateway'] !== undefined ? `via ${String(o['gateway'])}` : null,
      `dev ${String(o['dev'])}`,
      o['protocol'] !== undefined ? `proto ${String(o['protocol'])}` : null,
      o['scope'] !== undefined ? `scope ${String(o['scope'])}` : null,
      o['prefsrc'] !== undefined ? `src ${String(o['prefsrc'])}` : null,
      o['metric'] !== undefined ? `metric ${String(o['metric'])}` : null,
    ]
      .filter((x) => x !== null)
      .join(' ');
  });
}

/** A route as `ip route add` sends it: DST[/LEN] [via GW] [dev DEV] [key value]... */
function spec(k: KernelState, ns: string, text: string): K.RouteSpec {
  const w = text.split(' ');
  const [d, p] = w[0]!.split('/') as [string, string | undefined];
  const dst = d === 'default' ? null : ip(d);
  const out: K.RouteSpec = {
    family: dst ? dst.v : ip(w[w.indexOf('via') + 1]!).v,
    dst: dst ?? { v: 4, n: 0n },
    prefix: d === 'default' ? 0 : p !== undefined ? Number(p) : dst!.v === 4 ? 32 : 128,
  };
  for (let i = 1; i < w.length; i += 2) {
    const v = w[i + 1]!;
    if (w[i] === 'via') out.gateway = ip(v);
    else if (w[i] === 'dev') out.dev = link(k, ns, v)?.ifindex ?? 999;
    else if (w[i] === 'src') out.prefsrc = ip(v);
    else if (w[i] === 'metric') out.metric = Number(v);
    else if (w[i] === 'scope') out.scope = v as 'link' | 'host';
    else if (w[i] === 'proto') out.protocol = v as 'static';
  }
  if (d === 'default' && out.family === 6) out.dst = { v: 6, n: 0n };
  return out;
}

type Mode = 'add' | 'replace' | 'change' | 'append' | 'prepend';
const FLAGS: Record<Mode, K.RouteFlags> = {
  add: { create: true, excl: true },
  change: { replace: true },
  replace: { create: true, replace: true },
  prepend: { create: true },
  append: { create: true, append: true },
};

/** `ip route MODE TEXT`: undefined when it succeeded, else the errno and extack. */
function route(k: KernelState, ns: string, text: string, mode: Mode = 'add') {
  try {
    K.routeNew(k, ns, spec(k, ns, text), FLAGS[mode]);
    return undefined;
  } catch (e) {
    if (!(e instanceof K.KernelError)) throw e;
    return e.extack ? `${e.errno}: ${e.extack}` : e.errno;
  }
}

/**
 * br0 (up, 10.1.0.1/24, fd00:1::1/64) and v0 (down, 10.9.0.1/24, fd00:9::1/64) with peer v1; the
 * IPv6 addresses are added with `nodad`, as in the recordings (else they are tentative a while).
 */
function routed(): { k: KernelState; ns: string } {
  const { k, ns } = setup();
  const br = bridgeUp(k, ns);
  add4(k, ns, br, '10.1.0.1/24');
  K.addrAdd(k, ns, br, { ip: ip('fd00:1::1'), prefix: 64, nodad: true });
  const v0 = K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
  add4(k, ns, v0, '10.9.0.1/24');
  K.addrAdd(k, ns, v0, { ip: ip('fd00:9::1'), prefix: 64, nodad: true });
  return { k, ns };
}

describe('routes on a device that is down', () => {
  it('IPv6: ENETDOWN "Nexthop device is not up", unless the gateway is unreachable first', () => {
    // ip -6 route add 2001:db8::/64 dev v0            Error: Nexthop device is not up.
    // ip -6 route add 2001:db8:3::/64 via fe80::1 dev v0   Error: Nexthop device is not up.
    // ip -6 route add 2001:db8:1::/64 via fd00:9::2 dev v0  RTNETLINK answers: No route to host
    // ip -6 route add 2001:db8:2::/64 via fd00:9::2         RTNETLINK answers: No route to host
    // ip -6 route add 2001:db8:4::/64 dev lo (lo down)  Error: Nexthop device is not up.
    const { k, ns } = routed();
    expect(route(k, ns, '2001:db8::/64 dev v0')).toBe('ENETDOWN: Nexthop device is not up');
    expect(route(k, ns, '2001:db8:3::/64 via fe80::1 dev v0')).toBe(
      'ENETDOWN: Nexthop device is not up',
    );
    expect(route(k, ns, '2001:db8:1::/64 via fd00:9::2 dev v0')).toBe('EHOSTUNREACH');
    expect(route(k, ns, '2001:db8:2::/64 via fd00:9::2')).toBe('EHOSTUNREACH');
    expect(route(k, ns, '2001:db8:4::/64 dev lo')).toBe('ENETDOWN: Nexthop device is not up');
    expect(show(k, ns, 6).filter((r) => !r.startsWith('fe80:'))).toEqual([
      'fd00:1::/64 dev br0 proto kernel metric 256',
    ]);
  });

  it('IPv4: ENETDOWN "Device for nexthop is not up"; a gateway on it is not reachable', () => {
    // ip route add 10.50.0.0/16 dev v0                  Error: Device for nexthop is not up.
    // ip route add 10.51.0.0/16 via 10.9.0.2 dev v0     Error: Nexthop has invalid gateway.
    // ip route add 10.51.0.0/16 via 10.9.0.2            Error: Nexthop has invalid gateway.
    const { k, ns } = routed();
    expect(route(k, ns, '10.50.0.0/16 dev v0')).toBe('ENETDOWN: Device for nexthop is not up');
    expect(route(k, ns, '10.51.0.0/16 via 10.9.0.2 dev v0')).toBe(
      'ENETUNREACH: Nexthop has invalid gateway',
    );
    expect(route(k, ns, '10.51.0.0/16 via 10.9.0.2')).toBe(
      'ENETUNREACH: Nexthop has invalid gateway',
    );
  });

  it('IPv4: a host-scope route needs no next hop check, and stays when its device goes down', () => {
    // ip route add 10.52.0.0/16 dev v0 scope host (v0 down): ok.
    // ip route add 10.62.0.0/16 dev v0 scope host via 10.8.0.2
    //   Error: Route with host scope can not have a gateway.
    // ip link set v1 up; ip link set v0 up; ip route add 10.90.0.0/16 dev v0 scope host;
    // ip link set v0 down: `ip route` still lists it.
    const { k, ns } = routed();
    expect(route(k, ns, '10.52.0.0/16 dev v0 scope host')).toBeUndefined();
    expect(route(k, ns, '10.62.0.0/16 via 10.1.0.2 dev br0 scope host')).toBe(
      'EINVAL: Route with host scope can not have a gateway',
    );
    K.linkSetUp(k, ns, link(k, ns, 'v1').ifindex);
    K.linkSetUp(k, ns, link(k, ns, 'v0').ifindex);
    expect(route(k, ns, '10.90.0.0/16 dev v0 scope host')).toBeUndefined();
    expect(route(k, ns, '10.91.0.0/16 dev v0')).toBeUndefined();
    K.linkSetDown(k, ns, link(k, ns, 'v0').ifindex);
    expect(show(k, ns)).toEqual([
      '10.1.0.0/24 dev br0 proto kernel scope link src 10.1.0.1',
      '10.52.0.0/16 dev v0 scope host',
      '10.90.0.0/16 dev v0 scope host',
    ]);
    // The last IPv4 address going disables IPv4 on the device: they go then.
    del4(k, ns, link(k, ns, 'v0').ifindex, '10.9.0.1/24');
    expect(show(k, ns)).toEqual(['10.1.0.0/24 dev br0 proto kernel scope link src 10.1.0.1']);
  });
});

describe('preferred source (src)', () => {
  it('IPv4: must be a local address (any device, up or down): EINVAL "Invalid prefsrc address"', () => {
    // ip route add 10.61.0.0/16 dev br0 src 10.9.0.1     ok (10.9.0.1 is on v0, down)
    // ip route add 10.62.0.0/16 dev br0 src 10.1.0.0     Error: Invalid prefsrc address.
    // ip route add 10.63.0.0/16 dev br0 src 10.1.0.255   Error: Invalid prefsrc address.
    // ip route add 10.64.0.0/16 dev br0 src 127.0.0.1    Error: Invalid prefsrc address. (lo never up)
    // ip link set lo up; ... src 127.0.0.1 and src 127.0.0.2: ok (127.0.0.0/8 is local)
    // ip route add 10.67.0.0/16 dev v0 src 10.200.0.1    Error: Device for nexthop is not up.
    const { k, ns } = routed();
    expect(route(k, ns, '10.61.0.0/16 dev br0 src 10.9.0.1')).toBeUndefined();
    for (const src of ['10.1.0.0', '10.1.0.255', '127.0.0.1', '10.200.0.1'])
      expect(route(k, ns, `10.62.0.0/16 dev br0 src ${src}`)).toBe(
        'EINVAL: Invalid prefsrc address',
      );
    expect(route(k, ns, '10.67.0.0/16 dev v0 src 10.200.0.1')).toBe(
      'ENETDOWN: Device for nexthop is not up',
    );
    K.linkSetUp(k, ns, 1);
    expect(route(k, ns, '10.65.0.0/16 dev br0 src 127.0.0.1')).toBeUndefined();
    expect(route(k, ns, '10.66.0.0/16 dev br0 src 127.0.0.2')).toBeUndefined();
    // ip link set lo down: 127.0.0.0/8 stays in the local table.
    K.linkSetDown(k, ns, 1);
    expect(route(k, ns, '10.68.0.0/16 dev br0 src 127.0.0.3')).toBeUndefined();
    expect(show(k, ns)).toEqual([
      '10.1.0.0/24 dev br0 proto kernel scope link src 10.1.0.1',
      '10.61.0.0/16 dev br0 scope link src 10.9.0.1',
      '10.65.0.0/16 dev br0 scope link src 127.0.0.1',
      '10.66.0.0/16 dev br0 scope link src 127.0.0.2',
      '10.68.0.0/16 dev br0 scope link src 127.0.0.3',
    ]);
  });

  it('IPv6: an address of the namespace, a host or link-local one only on the device', () => {
    // ip -6 route add 2001:db8::/64 dev br0 src fd00:9::1    ok (on v0)
    // ip -6 route add 2001:db8:2::/64 dev br0 src fd00:99::1 Error: Invalid source address.
    // ip -6 route add 2001:db8:3::/64 dev br0 src ::1        Error: Invalid source address.
    const { k, ns } = routed();
    K.linkSetUp(k, ns, 1);
    expect(route(k, ns, '2001:db8::/64 dev br0 src fd00:9::1')).toBeUndefined();
    expect(route(k, ns, '2001:db8:2::/64 dev br0 src fd00:99::1')).toBe(
      'EINVAL: Invalid source address',
    );
    expect(route(k, ns, '2001:db8:3::/64 dev br0 src ::1')).toBe('EINVAL: Invalid source address');
  });

  it('IPv6: not a tentative address, until duplicate address detection has ended', () => {
    // (addresses added without nodad; lo up)
    // ip -6 route add 2001:db8::/64 dev br0 src fd00:9::1     Error: Invalid source address.
    //   (v0 down: fd00:9::1 stays tentative)
    // ip -6 route add 2001:db8:5::/64 dev br0 src fd00:1::1   Error: Invalid source address.
    //   (br0 up, no port yet: state UNKNOWN, DAD running)
    // ip link set v0 up; ip link set v1 up
    // ip -6 route add 2001:db8:6::/64 dev br0 src fd00:9::1   Error: Invalid source address.
    //   (DAD running); a few seconds later both are ok
    const { k, ns } = setup();
    k.now = 5_000_000;
    const br = bridgeUp(k, ns);
    K.addrAdd(k, ns, br, { ip: ip('fd00:1::1'), prefix: 64 });
    const v0 = K.linkAdd(k, ns, { kind: 'veth', name: 'v0', peerName: 'v1' }, rnd);
    K.addrAdd(k, ns, v0, { ip: ip('fd00:9::1'), prefix: 64 });
    K.linkSetUp(k, ns, 1);
    const invalid = 'EINVAL: Invalid source address';
    expect(route(k, ns, '2001:db8::/64 dev br0 src fd00:9::1')).toBe(invalid);
    expect(route(k, ns, '2001:db8:5::/64 dev br0 src fd00:1::1')).toBe(invalid);
    K.linkSetUp(k, ns, v0);
    K.linkSetUp(k, ns, link(k, ns, 'v1').ifindex);
    const v0addr = link(k, ns, 'v0').addrs.find((a) => a.local === 'fd00:9::1')!;
    expect(K.isTentative(v0addr, k.now)).toBe(true);
    expect(route(k, ns, '2001:db8:6::/64 dev br0 src fd00:9::1')).toBe(invalid);
    // One neighbour solicitation (dad_transmits 1), retrans_time 1 s later: DAD has ended.
    k.now += 1_000_000;
    expect(K.isTentative(v0addr, k.now)).toBe(false);
    expect(route(k, ns, '2001:db8:6::/64 dev br0 src fd00:9::1')).toBeUndefined();
    expect(route(k, ns, '2001:db8:5::/64 dev br0 src fd00:1::1')).toBeUndefined();
  });
});

describe('gateways', () => {
  it('IPv4: found like a packet: local addresses first, then routes of scope link or host', () => {
    // ip route add 10.70.0.0/16 via 10.1.0.1 scope link   ok (10.1.0.1 is local: scope host)
    // ip route add 10.71.0.0/16 via 10.1.0.1              ok
    // ip route add 10.72.0.0/16 via 10.1.0.255            Error: Nexthop has invalid gateway.
    // ip route add 10.73.0.0/16 via 10.1.0.0              ok
    // ip route add 10.74.0.0/16 via 10.9.0.1              RTNETLINK answers: Network is down
    // ip route add 10.75.0.0/16 via 127.0.0.5 (lo up)     ok: dev lo
    // ip route add 10.52.0.0/16 dev br0 scope host; ... via 10.52.0.9 [scope link]   ok
    // ip route add 10.54.0.0/16 via 10.1.0.2; ip route add 10.79.0.0/16 via 10.54.0.9
    //   Error: Nexthop has invalid gateway.
    // ip route add 10.76.0.0/16 via 10.1.0.99 dev br0 scope link   Error: Nexthop has invalid gateway.
    const { k, ns } = routed();
    K.linkSetUp(k, ns, 1);
    const ok = [
      '10.70.0.0/16 via 10.1.0.1 scope link',
      '10.71.0.0/16 via 10.1.0.1',
      '10.73.0.0/16 via 10.1.0.0',
      '10.75.0.0/16 via 127.0.0.5',
      '10.52.0.0/16 dev br0 scope host',
      '10.76.0.0/16 via 10.52.0.9 scope link',
      '10.77.0.0/16 via 10.52.0.9',
      '10.54.0.0/16 via 10.1.0.2',
    ];
    for (const r of ok) expect(route(k, ns, r)).toBeUndefined();
    expect(route(k, ns, '10.72.0.0/16 via 10.1.0.255')).toBe('EINVAL: Nexthop has invalid gateway');
    expect(route(k, ns, '10.74.0.0/16 via 10.9.0.1')).toBe('ENETDOWN');
    expect(route(k, ns, '10.79.0.0/16 via 10.54.0.9')).toBe(
      'ENETUNREACH: Nexthop has invalid gateway',
    );
    expect(route(k, ns, '10.78.0.0/16 via 10.1.0.99 dev br0 scope link')).toBe(
      'ENETUNREACH: Nexthop has invalid gateway',
    );
    expect(show(k, ns)).toEqual([
      '10.1.0.0/24 dev br0 proto kernel scope link src 10.1.0.1',
      '10.52.0.0/16 dev br0 scope host',
      '10.54.0.0/16 via 10.1.0.2 dev br0',
      '10.70.0.0/16 via 10.1.0.1 dev br0 scope link',
      '10.71.0.0/16 via 10.1.0.1 dev br0',
      '10.73.0.0/16 via 10.1.0.0 dev br0',
      '10.75.0.0/16 via 127.0.0.5 dev lo',
      '10.76.0.0/16 via 10.52.0.9 dev br0 scope link',
      '10.77.0.0/16 via 10.52.0.9 dev br0',
    ]);
  });

  it('IPv4: with a device, only routes through that device count', () => {
    // v0 up with 10.9.0.1/24 and 10.1.0.50/26:
    // ip route add 10.80.0.0/16 via 10.9.0.1 dev br0   Error: Nexthop has invalid gateway.
    // ip route add 10.81.0.0/16 via 10.1.0.5 dev v0    ok
    // ip route add 10.82.0.0/16 via 10.1.0.5           ok (dev v0: the longer prefix)
    // ip route add 10.83.0.0/16 via 10.1.0.1 dev v0    ok
    const { k, ns } = routed();
    K.linkSetUp(k, ns, link(k, ns, 'v1').ifindex);
    K.linkSetUp(k, ns, link(k, ns, 'v0').ifindex);
    add4(k, ns, link(k, ns, 'v0').ifindex, '10.1.0.50/26');
    expect(route(k, ns, '10.80.0.0/16 via 10.9.0.1 dev br0')).toBe(
      'ENETUNREACH: Nexthop has invalid gateway',
    );
    for (const r of [
      '10.81.0.0/16 via 10.1.0.5 dev v0',
      '10.82.0.0/16 via 10.1.0.5',
      '10.83.0.0/16 via 10.1.0.1 dev v0',
    ])
      expect(route(k, ns, r)).toBeUndefined();
    expect(show(k, ns).filter((r) => r.startsWith('10.8'))).toEqual([
      '10.81.0.0/16 via 10.1.0.5 dev v0',
      '10.82.0.0/16 via 10.1.0.5 dev v0',
      '10.83.0.0/16 via 10.1.0.1 dev v0',
    ]);
  });

  it('IPv6: ip6_validate_gw errors', () => {
    // ip -6 route add 2001:db8::/64 via fe80::1           Error: Egress device not specified.
    // ip -6 route add 2001:db8:1::/64 via fe80::1 dev lo  Error: Egress device can not be loopback device for this route.
    // ip -6 route add 2001:db8:2::/64 via ff02::1 dev br0 Error: Invalid gateway address.
    // ip -6 route add 2001:db8:3::/64 via fd00:1::5 dev v0 (v0 up)  RTNETLINK answers: No route to host
    // ip -6 route add 2001:db8:5::/64 via fd00:1::1 [dev br0]      Error: Gateway can not be a local address.
    // ip -6 route add default via fd00:1::5; ip -6 route add 2001:db8:4::/64 via fd00:2::5
    //   RTNETLINK answers: No route to host (the best route has a gateway)
    const { k, ns } = routed();
    K.linkSetUp(k, ns, 1);
    K.linkSetUp(k, ns, link(k, ns, 'v1').ifindex);
    K.linkSetUp(k, ns, link(k, ns, 'v0').ifindex);
    expect(route(k, ns, '2001:db8::/64 via fe80::1')).toBe('EINVAL: Egress device not specified');
    expect(route(k, ns, '2001:db8:1::/64 via fe80::1 dev lo')).toBe(
      'EINVAL: Egress device can not be loopback device for this route',
    );
    expect(route(k, ns, '2001:db8:2::/64 via ff02::1 dev br0')).toBe(
      'EINVAL: Invalid gateway address',
    );
    expect(route(k, ns, '2001:db8:3::/64 via fd00:1::5 dev v0')).toBe('EHOSTUNREACH');
    expect(route(k, ns, '2001:db8:5::/64 via fd00:1::1')).toBe(
      'EINVAL: Gateway can not be a local address',
    );
    expect(route(k, ns, '2001:db8:5::/64 via fd00:1::1 dev br0')).toBe(
      'EINVAL: Gateway can not be a local address',
    );
    expect(route(k, ns, 'default via fd00:1::5')).toBeUndefined();
    expect(route(k, ns, '2001:db8:4::/64 via fd00:2::5')).toBe('EHOSTUNREACH');
  });
});

describe('replace, change, append and prepend', () => {
  it("IPv4: prepend goes first, append last, replace takes the first one's place", () => {
    // ip route add 10.60.0.0/16 dev br0 metric 5; ip route prepend 10.60.0.0/16 dev v0 metric 5;
    // ip route append 10.60.0.0/16 via 10.1.0.9 metric 5;
    // ip route replace 10.60.0.0/16 via 10.9.0.9 metric 5 (twice: the second changes nothing);
    // ip route replace 10.60.0.0/16 dev br0 metric 5   RTNETLINK answers: File exists
    // ip route replace 10.60.0.0/16 dev br0 metric 5 proto static: ok
    // ip route change 10.61.0.0/16 dev br0              RTNETLINK answers: No such file or directory
    // ip route prepend 10.60.0.0/16 dev br0 metric 5    RTNETLINK answers: File exists
    // ip route replace 10.60.0.0/16 dev br0 metric 5 scope host: ok
    const { k, ns } = routed();
    K.linkSetUp(k, ns, link(k, ns, 'v1').ifindex);
    K.linkSetUp(k, ns, link(k, ns, 'v0').ifindex);
    const mine = () => show(k, ns).filter((r) => r.startsWith('10.60.'));
    expect(route(k, ns, '10.60.0.0/16 dev br0 metric 5')).toBeUndefined();
    expect(route(k, ns, '10.60.0.0/16 dev v0 metric 5', 'prepend')).toBeUndefined();
    expect(route(k, ns, '10.60.0.0/16 via 10.1.0.9 metric 5', 'append')).toBeUndefined();
    expect(mine()).toEqual([
      '10.60.0.0/16 dev v0 scope link metric 5',
      '10.60.0.0/16 dev br0 scope link metric 5',
      '10.60.0.0/16 via 10.1.0.9 dev br0 metric 5',
    ]);
    expect(route(k, ns, '10.60.0.0/16 dev br0 metric 5')).toBe('EEXIST');
    expect(route(k, ns, '10.60.0.0/16 via 10.9.0.9 metric 5', 'replace')).toBeUndefined();
    expect(route(k, ns, '10.60.0.0/16 via 10.9.0.9 metric 5', 'replace')).toBeUndefined();
    expect(mine()).toEqual([
      '10.60.0.0/16 via 10.9.0.9 dev v0 metric 5',
      '10.60.0.0/16 dev br0 scope link metric 5',
      '10.60.0.0/16 via 10.1.0.9 dev br0 metric 5',
    ]);
    expect(route(k, ns, '10.60.0.0/16 dev br0 metric 5', 'replace')).toBe('EEXIST');
    expect(route(k, ns, '10.60.0.0/16 dev br0 metric 5 proto static', 'replace')).toBeUndefined();
    expect(route(k, ns, '10.61.0.0/16 dev br0', 'change')).toBe('ENOENT');
    expect(route(k, ns, '10.60.0.0/16 dev br0 metric 5', 'prepend')).toBe('EEXIST');
    expect(route(k, ns, '10.60.0.0/16 dev br0 metric 5 proto static', 'append')).toBe('EEXIST');
    expect(route(k, ns, '10.60.0.0/16 dev br0 metric 5 scope host', 'replace')).toBeUndefined();
    expect(mine()).toEqual([
      '10.60.0.0/16 dev br0 scope host metric 5',
      '10.60.0.0/16 dev br0 scope link metric 5',
      '10.60.0.0/16 via 10.1.0.9 dev br0 metric 5',
    ]);
  });

  it('IPv6: replace takes the first route with a gateway exactly when the new one has one', () => {
    // ip -6 route add 2001:db8::/64 dev br0 metric 5; append dev v0 metric 5;
    // prepend via fd00:1::9 metric 5; append via fd00:9::9 metric 5 (the last two: one multipath
    // route); replace via fd00:1::7 metric 5: the multipath route goes, the dev routes stay;
    // replace dev v0 metric 5: takes dev br0's place (two "dev v0" routes);
    // change 2001:db8:1::/64 dev v0   Error: Can not replace route - no match found.
    const { k, ns } = routed();
    K.linkSetUp(k, ns, link(k, ns, 'v1').ifindex);
    K.linkSetUp(k, ns, link(k, ns, 'v0').ifindex);
    const mine = () => show(k, ns, 6).filter((r) => r.startsWith('2001:db8::/64'));
    expect(route(k, ns, '2001:db8::/64 dev br0 metric 5')).toBeUndefined();
    expect(route(k, ns, '2001:db8::/64 dev v0 metric 5', 'append')).toBeUndefined();
    expect(route(k, ns, '2001:db8::/64 via fd00:1::9 metric 5', 'prepend')).toBeUndefined();
    expect(route(k, ns, '2001:db8::/64 via fd00:9::9 metric 5', 'append')).toBeUndefined();
    expect(route(k, ns, '2001:db8::/64 dev br0 metric 5')).toBe('EEXIST');
    expect(route(k, ns, '2001:db8::/64 dev br0 metric 5', 'append')).toBe('EEXIST');
    expect(route(k, ns, '2001:db8::/64 via fd00:1::7 metric 5', 'replace')).toBeUndefined();
    expect(mine()).toEqual([
      '2001:db8::/64 dev br0 metric 5',
      '2001:db8::/64 dev v0 metric 5',
      '2001:db8::/64 via fd00:1::7 dev br0 metric 5',
    ]);
    expect(route(k, ns, '2001:db8::/64 dev v0 metric 5', 'replace')).toBeUndefined();
    expect(route(k, ns, '2001:db8::/64 dev v0 metric 5', 'replace')).toBeUndefined();
    expect(mine()).toEqual([
      '2001:db8::/64 dev v0 metric 5',
      '2001:db8::/64 dev v0 metric 5',
      '2001:db8::/64 via fd00:1::7 dev br0 metric 5',
    ]);
    expect(route(k, ns, '2001:db8:1::/64 dev v0', 'change')).toBe(
      'ENOENT: Can not replace route - no match found',
    );
  });

  it('IPv6: a replace with no route of its kind replaces the first one', () => {
    // ip -6 route add fd00:7::/64 via fd00:1::2 metric 5; ip -6 route replace fd00:7::/64 dev br0 metric 5
    const { k, ns } = routed();
    expect(route(k, ns, 'fd00:7::/64 via fd00:1::2 metric 5')).toBeUndefined();
    K.routeReplace(k, ns, spec(k, ns, 'fd00:7::/64 dev br0 metric 5'));
    expect(show(k, ns, 6).filter((r) => r.startsWith('fd00:7:'))).toEqual([
      'fd00:7::/64 dev br0 metric 5',
    ]);
  });

  it('IPv4 destinations must have no host bits; IPv6 ones are masked', () => {
    // ip route add 10.1.0.1/16 dev br0    Error: Invalid prefix for given prefix length.
    // ip route add fd00:8::1/64 dev br0   ok: fd00:8::/64
    const { k, ns } = routed();
    expect(route(k, ns, '10.1.0.1/16 dev br0')).toBe(
      'EINVAL: Invalid prefix for given prefix length',
    );
    expect(route(k, ns, 'fd00:8::1/64 dev br0')).toBeUndefined();
    expect(show(k, ns, 6)).toContain('fd00:8::/64 dev br0 metric 1024');
  });
});

describe("link names that are also Object.prototype's", () => {
  // ip link add __proto__ type dummy; ip link set __proto__ name constructor; ip link del constructor
  // Linux takes any name of up to 15 bytes without '/', ':' or whitespace.
  const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

  it('are added, found, renamed and deleted like any other name', () => {
    const { k, ns } = setup();
    for (const name of NAMES) {
      const i = K.linkAdd(k, ns, { kind: 'dummy', name }, rnd);
      expect(link(k, ns, name).ifindex).toBe(i);
    }
    const renamed = link(k, ns, '__proto__').ifindex;
    K.linkSetName(k, ns, renamed, 'eth9');
    expect(K.linkByName(tget(k.netns, ns)!, '__proto__')).toBeUndefined();
    expect(link(k, ns, 'eth9').ifindex).toBe(renamed);
    K.linkSetName(k, ns, renamed, '__proto__');
    for (const name of NAMES) K.linkDel(k, ns, link(k, ns, name).ifindex);
    for (const name of NAMES) expect(K.linkByName(tget(k.netns, ns)!, name)).toBeUndefined();
    expect(K.linkByName(tget(k.netns, ns)!, 'lo')?.ifindex).toBe(1);
  });

  it('are indexed the same when the change is made on an immer draft', () => {
    const { k, ns } = setup();
    const next = produce(k, (d) => {
      for (const name of NAMES) K.linkAdd(d, ns, { kind: 'dummy', name }, rnd);
    });
    for (const name of NAMES) expect(link(next, ns, name).name).toBe(name);
    const gone = produce(next, (d) => K.linkDel(d, ns, link(d, ns, '__proto__').ifindex));
    expect(K.linkByName(tget(gone.netns, ns)!, '__proto__')).toBeUndefined();
    expect(link(gone, ns, 'constructor').name).toBe('constructor');
  });
});
