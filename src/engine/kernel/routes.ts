/**
 * Routes (RTM_NEWROUTE / RTM_DELROUTE, the FIB): validation of next hops as fib_check_nh and
 * fib6_nh_init do, insertion under the request's flags, the kernel's own connected and prefix
 * routes. Registers on the netdev chain: a device that goes down or away takes its routes along.
 */
import { ipString, lastOf, netContains, networkOf, parseIP, type Family, type IP } from '../net/ip';
import { isTentative, linksOf, nsById, scopeOfV6 } from './device';
import { carrierOf } from './linkwatch';
import { KernelError, KernelErrorAfterChange } from './errors';
import { netdevChain } from './notifier';
import { ipv6Disabled } from './sysctl';
import type { Addr, KernelState, Link, Netns, Route } from './types';

export function removeRoutesOfDev(ns: Netns, ifindex: number, family?: Family): void {
  if (!ns.routes.some((r) => r.dev === ifindex && (family === undefined || r.family === family)))
    return;
  ns.routes = ns.routes.filter(
    (r) => r.dev !== ifindex || (family !== undefined && r.family !== family),
  );
}

export function addConnectedRoute(ns: Netns, l: Link, a: Addr): void {
  // A loopback device's prefix route goes to the local table, not main.
  if (a.family !== 4 || a.prefix >= 32 || l.kind === 'loopback') return;
  const ip = parseIP(a.local)!;
  const net = ipString(networkOf({ ip, prefix: a.prefix }));
  if (
    ns.routes.some(
      (r) =>
        r.family === 4 &&
        r.origin === 'connected' &&
        r.dev === l.ifindex &&
        r.dst === net &&
        r.prefix === a.prefix,
    )
  ) {
    return;
  }
  ns.routes.push({
    family: 4,
    dst: net,
    prefix: a.prefix,
    dev: l.ifindex,
    gateway: null,
    protocol: 'kernel',
    scope: 'link',
    prefsrc: a.local,
    metric: 0,
    origin: 'connected',
  });
}

export function addPrefixRoute6(ns: Netns, l: Link, a: Addr): void {
  const net = ipString(networkOf({ ip: parseIP(a.local)!, prefix: a.prefix }));
  addKernelRoute6(ns, l, net, a.prefix, 'addrconf');
}

export function addKernelRoute6(
  ns: Netns,
  l: Link,
  dst: string,
  prefix: number,
  origin: Route['origin'],
): void {
  if (
    ns.routes.some(
      (r) =>
        r.family === 6 &&
        r.dev === l.ifindex &&
        r.dst === dst &&
        r.prefix === prefix &&
        r.metric === 256,
    )
  ) {
    return;
  }
  ns.routes.push({
    family: 6,
    dst,
    prefix,
    dev: l.ifindex,
    gateway: null,
    protocol: 'kernel',
    scope: 'universe',
    prefsrc: null,
    metric: 256,
    origin,
  });
}

// Addresses

export interface RouteSpec {
  family: Family;
  dst: IP;
  prefix: number;
  /** The output device (RTA_OIF); may be left out with a gateway: the kernel finds it. */
  dev?: number | null;
  gateway?: IP | null;
  /** rtm_scope; by default what iproute2 sends: link for an IPv4 route without a gateway. */
  scope?: Route['scope'];
  prefsrc?: IP | null;
  metric?: number;
  protocol?: Route['protocol'];
  /** RTNH_F_ONLINK (`ip route add ... onlink`). */
  onlink?: boolean;
}

/**
 * The RTM_NEWROUTE flags that decide what happens to the routes of the same destination and
 * metric: `ip route add` sends create+excl, `append` create+append, `prepend` create alone,
 * `replace` create+replace and `change` replace alone.
 */
export interface RouteFlags {
  create?: boolean;
  excl?: boolean;
  replace?: boolean;
  append?: boolean;
}

/**
 * RTM_NEWROUTE with NLM_F_CREATE|NLM_F_EXCL (netlink.RouteAdd), or without NLM_F_EXCL when
 * `append` (netlink.RouteAddEcmp: another next hop for the same destination and metric is added).
 */
export function routeAdd(
  k: KernelState,
  nsId: string,
  spec: RouteSpec,
  opts: { append?: boolean } = {},
): void {
  routeNew(k, nsId, spec, opts.append ? { create: true } : { create: true, excl: true });
}

/** RTM_NEWROUTE with NLM_F_CREATE|NLM_F_REPLACE (`ip route replace`, netlink.RouteReplace). */
export function routeReplace(k: KernelState, nsId: string, spec: RouteSpec): void {
  routeNew(k, nsId, spec, { create: true, replace: true });
}

const SCOPE_NUMBER: Record<Route['scope'], number> = { universe: 0, link: 253, host: 254 };

/**
 * RTM_NEWROUTE: validates the route as fib_create_info / fib_check_nh (IPv4) and
 * ip6_route_info_create / fib6_nh_init (IPv6) do, with their errnos and extack messages, then
 * inserts it as fib_table_insert / fib6_add_rt2info do under `flags`.
 */
export function routeNew(k: KernelState, nsId: string, spec: RouteSpec, flags: RouteFlags): void {
  const ns = nsById(k, nsId);
  // inet_rtm_newroute creates the table before fib_table_insert validates the route: the table
  // stays when the route is refused.
  if (spec.family !== 4 || ns.fib4) return routeInsert(k, ns, spec, flags);
  ns.fib4 = true;
  try {
    routeInsert(k, ns, spec, flags);
  } catch (e) {
    if (e instanceof KernelError && !(e instanceof KernelErrorAfterChange))
      throw new KernelErrorAfterChange(e.errno, e.extack);
    throw e;
  }
}

function routeInsert(k: KernelState, ns: Netns, spec: RouteSpec, flags: RouteFlags): void {
  let dev: Link | undefined;
  if (spec.dev !== undefined && spec.dev !== null) {
    dev = ns.links[spec.dev];
    if (!dev) throw new KernelError('ENODEV');
  }
  const gw = spec.gateway ?? null;
  if (gw && gw.v !== spec.family) throw new KernelError('EINVAL');
  let dst = spec.dst;
  if (spec.family === 4) {
    // fib_valid_key_len: no host bits.
    if (networkOf({ ip: dst, prefix: spec.prefix }).n !== dst.n)
      throw new KernelError('EINVAL', 'Invalid prefix for given prefix length');
  } else {
    // IPv6 masks the destination itself.
    dst = networkOf({ ip: dst, prefix: spec.prefix });
  }
  const metric = spec.metric ?? (spec.family === 6 ? 1024 : 0);
  const scope = spec.scope ?? (gw ? 'universe' : spec.family === 4 ? 'link' : 'universe');
  const out =
    spec.family === 4
      ? spec.onlink
        ? nexthopOnlink4(ns, dev, gw, scope)
        : nexthop4(ns, dev, gw, scope)
      : nexthop6(ns, dev, gw);
  if (spec.prefsrc) {
    if (spec.family === 4 && localTable4(ns, spec.prefsrc, null)?.type !== 'local')
      throw new KernelError('EINVAL', 'Invalid prefsrc address');
    if (spec.family === 6 && !localAddr6(ns, spec.prefsrc, out, false, k.now ?? 0))
      throw new KernelError('EINVAL', 'Invalid source address');
  }
  const route: Route = {
    family: spec.family,
    dst: ipString(dst),
    prefix: spec.prefix,
    dev: out.ifindex,
    gateway: gw ? ipString(gw) : null,
    protocol: spec.protocol ?? 'boot',
    scope,
    prefsrc: spec.prefsrc ? ipString(spec.prefsrc) : null,
    metric,
    origin: 'user',
    ...(spec.onlink ? { onlink: true } : {}),
  };
  if (spec.family === 4) insertRoute4(ns, route, flags);
  else insertRoute6(ns, route, flags);
}

/**
 * fib_check_nh for one next hop. Without a gateway the device must be up; a gateway must be
 * reached by a route of scope link or narrower (host with `scope link`), searched like a packet
 * would be (local table first, then main, limited to the device when one is given); the device
 * of that route is the route's device and must be up.
 */
function nexthop4(ns: Netns, dev: Link | undefined, gw: IP | null, scope: Route['scope']): Link {
  if (scope === 'host') {
    // A host-scope route gets no next hop check at all: its device may be down.
    if (gw) throw new KernelError('EINVAL', 'Route with host scope can not have a gateway');
    if (!dev) throw new KernelError('ENODEV');
    return dev;
  }
  if (!gw) {
    if (!dev) throw new KernelError('ENODEV');
    if (!dev.adminUp) throw new KernelError('ENETDOWN', 'Device for nexthop is not up');
    return dev;
  }
  const minScope = Math.max(SCOPE_NUMBER[scope] + 1, SCOPE_NUMBER.link);
  const oif = dev ? dev.ifindex : null;
  const res = localTable4(ns, gw, oif, minScope) ?? mainTable4(ns, gw, oif, minScope);
  if (!res) throw new KernelError('ENETUNREACH', 'Nexthop has invalid gateway');
  if (res.type === 'broadcast') throw new KernelError('EINVAL', 'Nexthop has invalid gateway');
  const out = ns.links[res.dev]!;
  if (!out.adminUp) throw new KernelError('ENETDOWN');
  return out;
}

/**
 * fib_check_nh_v4_gw with RTNH_F_ONLINK: the gateway is on the given device, no route to it is
 * looked up; the device must exist and be up, and the gateway must be a unicast address there.
 */
function nexthopOnlink4(
  ns: Netns,
  dev: Link | undefined,
  gw: IP | null,
  scope: Route['scope'],
): Link {
  if (!gw) return nexthop4(ns, dev, gw, scope);
  if (SCOPE_NUMBER[scope] >= SCOPE_NUMBER.link)
    throw new KernelError('EINVAL', 'Nexthop has invalid scope');
  if (!dev) throw new KernelError('ENODEV', 'Nexthop device required for onlink');
  if (!dev.adminUp) throw new KernelError('ENETDOWN', 'Nexthop device is not up');
  const t = localTable4(ns, gw, null);
  if (t && t.type !== 'unicast') throw new KernelError('EINVAL', 'Nexthop has invalid gateway');
  return dev;
}

interface FibResult {
  type: 'local' | 'broadcast' | 'unicast';
  dev: number;
  prefix: number;
}

function longest(a: FibResult | undefined, b: FibResult): FibResult {
  return !a || b.prefix > a.prefix ? b : a;
}

/**
 * A lookup of `addr` in the local table, which the model derives from the addresses: each IPv4
 * address is a local /32 of its device whatever the device's state, a loopback device's prefix is
 * local, and on a device that is up each primary's subnet broadcast (prefixes up to /30) and an
 * explicit broadcast are broadcast routes (scope link).
 */
function localTable4(ns: Netns, addr: IP, oif: number | null, minScope = 0): FibResult | undefined {
  let best: FibResult | undefined;
  const s = ipString(addr);
  for (const l of linksOf(ns)) {
    if (oif !== null && l.ifindex !== oif) continue;
    for (const a of l.addrs) {
      if (a.family !== 4) continue;
      if (a.local === s) best = longest(best, { type: 'local', dev: l.ifindex, prefix: 32 });
      const net = { ip: parseIP(a.local)!, prefix: a.prefix };
      if (l.kind === 'loopback' && !a.secondary && netContains(net, addr))
        best = longest(best, { type: 'local', dev: l.ifindex, prefix: a.prefix });
      if (!l.adminUp || minScope > SCOPE_NUMBER.link) continue;
      const brd =
        (!a.secondary && a.prefix < 31 && ipString(lastOf(net)) === s) ||
        (a.broadcast !== null && a.broadcast !== '255.255.255.255' && a.broadcast === s);
      if (brd) best = longest(best, { type: 'broadcast', dev: l.ifindex, prefix: 32 });
    }
  }
  return best;
}

/** A lookup in the main table among the routes without a gateway of scope `minScope` or narrower. */
function mainTable4(
  ns: Netns,
  addr: IP,
  oif: number | null,
  minScope: number,
): FibResult | undefined {
  let best: Route | undefined;
  for (const r of ns.routes) {
    if (r.family !== 4 || r.gateway || SCOPE_NUMBER[r.scope] < minScope) continue;
    if (oif !== null && r.dev !== oif) continue;
    if (!netContains({ ip: parseIP(r.dst)!, prefix: r.prefix }, addr)) continue;
    if (!best || r.prefix > best.prefix || (r.prefix === best.prefix && r.metric < best.metric))
      best = r;
  }
  return best && { type: 'unicast', dev: best.dev, prefix: best.prefix };
}

/**
 * ipv6_chk_addr_and_flags: `addr` is an address of the namespace; unless `anyDev`, a link-local
 * or host-scope address counts only on `dev`. Given `now` (ipv6_chk_addr, as for a preferred
 * source), a tentative address (still doing DAD) does not count.
 */
function localAddr6(
  ns: Netns,
  addr: IP,
  dev: Link | undefined,
  anyDev: boolean,
  now?: number,
): boolean {
  const s = ipString(addr);
  return linksOf(ns).some((l) =>
    l.addrs.some(
      (a) =>
        a.family === 6 &&
        a.local === s &&
        (now === undefined || !isTentative(a, now)) &&
        (anyDev || !dev || l === dev || (a.scope !== 'link' && a.scope !== 'host')),
    ),
  );
}

/**
 * fib6_nh_init: a gateway (ip6_validate_gw) must not be a local address, must be unicast, and
 * unless link-local must be reached by a route without a gateway (on the device, when one is
 * given; EHOSTUNREACH otherwise), which then gives the device; the device must not be the loopback
 * device, must have IPv6 on (EACCES) and be up (ENETDOWN).
 */
function nexthop6(ns: Netns, dev: Link | undefined, gw: IP | null): Link {
  if (gw) {
    const linkLocal = scopeOfV6(gw) === 'link';
    const local = (d: Link | undefined) => localAddr6(ns, gw, d, !linkLocal);
    if (dev && local(dev)) throw new KernelError('EINVAL', 'Gateway can not be a local address');
    const needAddrCheck = !dev;
    if (!linkLocal) {
      if (gw.n === 0n || gw.n >> 120n === 0xffn)
        throw new KernelError('EINVAL', 'Invalid gateway address');
      let best: Route | undefined;
      for (const r of ns.routes) {
        if (r.family !== 6 || (dev && r.dev !== dev.ifindex)) continue;
        if (!netContains({ ip: parseIP(r.dst)!, prefix: r.prefix }, gw)) continue;
        if (!best || r.prefix > best.prefix || (r.prefix === best.prefix && r.metric < best.metric))
          best = r;
      }
      if (!best || best.gateway) throw new KernelError('EHOSTUNREACH');
      dev = ns.links[best.dev];
    }
    if (!dev) throw new KernelError('EINVAL', 'Egress device not specified');
    if (dev.kind === 'loopback')
      throw new KernelError('EINVAL', 'Egress device can not be loopback device for this route');
    if (needAddrCheck && local(dev))
      throw new KernelError('EINVAL', 'Gateway can not be a local address');
  }
  if (!dev) throw new KernelError('ENODEV');
  if (ipv6Disabled(ns, dev)) throw new KernelError('EACCES', 'IPv6 is disabled on nexthop device');
  if (!dev.adminUp) throw new KernelError('ENETDOWN', 'Nexthop device is not up');
  return dev;
}

/** The routes of the same family, destination and metric as `r`, in the table's order. */
function sameKey(ns: Netns, r: Route): Route[] {
  return ns.routes.filter(
    (x) =>
      x.family === r.family && x.dst === r.dst && x.prefix === r.prefix && x.metric === r.metric,
  );
}

/**
 * fib_table_insert. Among routes of the same destination and metric: excl refuses any; an
 * identical one (same next hop, scope, source, protocol) is EEXIST, except that replacing the
 * first by itself changes nothing; replace takes the place of the first; append goes after them,
 * otherwise before them.
 */
function insertRoute4(ns: Netns, r: Route, flags: RouteFlags): void {
  const group = sameKey(ns, r);
  if (group.length === 0) {
    if (!flags.create) throw new KernelError('ENOENT');
    ns.routes.push(r);
    return;
  }
  if (flags.excl) throw new KernelError('EEXIST');
  const match = group.find(
    (x) =>
      x.dev === r.dev &&
      x.gateway === r.gateway &&
      x.scope === r.scope &&
      x.prefsrc === r.prefsrc &&
      x.protocol === r.protocol,
  );
  const first = ns.routes.indexOf(group[0]!);
  if (flags.replace) {
    if (match === group[0]) return;
    if (match) throw new KernelError('EEXIST');
    ns.routes[first] = r;
    return;
  }
  if (match) throw new KernelError('EEXIST');
  if (flags.append) ns.routes.splice(ns.routes.indexOf(group[group.length - 1]!) + 1, 0, r);
  else ns.routes.splice(first, 0, r);
}

/**
 * fib6_add_rt2info. Among routes of the same destination and metric: excl refuses any; replace
 * takes the place of the first route that is multipath-capable (has a gateway) exactly when the
 * new one is, else of the first one, and removes the replaced route's siblings (the other routes
 * with a gateway); otherwise a route with the same device and gateway is EEXIST, and the new one
 * goes after them (routes with gateways become siblings of one multipath route, which `ip` shows
 * as one route with several next hops; the model keeps them as separate routes).
 */
function insertRoute6(ns: Netns, r: Route, flags: RouteFlags): void {
  const group = sameKey(ns, r);
  if (group.length > 0 && flags.excl) throw new KernelError('EEXIST');
  if (flags.replace) {
    const ecmp = (x: Route) => x.gateway !== null && x.origin === 'user';
    const target = group.find((x) => ecmp(x) === ecmp(r)) ?? group[0];
    if (!target) {
      if (!flags.create) throw new KernelError('ENOENT', 'Can not replace route - no match found');
      ns.routes.push(r);
      return;
    }
    ns.routes[ns.routes.indexOf(target)] = r;
    if (ecmp(target)) {
      const siblings = group.filter((x) => x !== target && ecmp(x));
      ns.routes = ns.routes.filter((x) => !siblings.includes(x));
    }
    return;
  }
  if (group.some((x) => x.dev === r.dev && x.gateway === r.gateway))
    throw new KernelError('EEXIST');
  ns.routes.push(r);
}

export interface RouteMatch {
  family: Family;
  dst?: IP | null;
  prefix?: number;
  dev?: number;
  gateway?: IP | null;
  metric?: number;
}

export function routeDel(k: KernelState, nsId: string, m: RouteMatch): void {
  const ns = nsById(k, nsId);
  const i = ns.routes.findIndex((r) => routeMatches(r, m));
  if (i < 0) throw new KernelError('ESRCH');
  ns.routes.splice(i, 1);
}

export function routeMatches(r: Route, m: RouteMatch): boolean {
  if (r.family !== m.family) return false;
  if (
    m.dst !== undefined &&
    m.dst !== null &&
    (r.dst !== ipString(m.dst) || r.prefix !== m.prefix)
  ) {
    return false;
  }
  if (m.dst === null && r.prefix !== 0) return false;
  if (m.dev !== undefined && r.dev !== m.dev) return false;
  if (m.gateway && r.gateway !== ipString(m.gateway)) return false;
  if (m.metric !== undefined && r.metric !== m.metric) return false;
  return true;
}

// sysctl

/**
 * fib_del_ifaddr and addrconf's prefix route clean-up, after an address went from `l` (with the
 * secondaries in `gone`, or a `promoted` one taking its place). IPv6 check_cleanup_prefix_route
 * treats the link-local address like any permanent one: when the last address of fe80::/64 goes,
 * so does the fe80::/64 route (recorded: conformance/local/drift-addr-flush).
 */
export function fibDelIfaddr(
  ns: Netns,
  l: Link,
  a: { ip: IP; prefix: number; removed: Addr; gone: string[]; promoted: Addr | undefined },
): void {
  const { removed, gone, promoted } = a;
  const net = { ip: a.ip, prefix: a.prefix };
  const netAddr = ipString(networkOf(net));
  const stillCovered = l.addrs.some(
    (x) => x.family === a.ip.v && x.prefix === a.prefix && netContains(net, parseIP(x.local)!),
  );
  if (!stillCovered) {
    ns.routes = ns.routes.filter(
      (r) =>
        !(
          r.dev === l.ifindex &&
          r.family === a.ip.v &&
          r.dst === netAddr &&
          r.prefix === a.prefix &&
          (r.origin === 'connected' || r.origin === 'addrconf')
        ),
    );
  }
  if (a.ip.v === 4) {
    // Routes whose preferred source was a deleted address go with it (the connected route of a
    // promoted secondary comes back with it as the source); when the device has no IPv4 address
    // left, IPv4 is disabled on it and every route through it goes (fib_disable_ip).
    ns.routes = ns.routes.filter((r) => !(r.family === 4 && r.prefsrc && gone.includes(r.prefsrc)));
    if (promoted && l.adminUp) addConnectedRoute(ns, l, promoted);
    if (!l.addrs.some((x) => x.family === 4))
      ns.routes = ns.routes.filter((r) => !(r.family === 4 && r.dev === l.ifindex));
  } else {
    // IPv6 keeps the routes: rt6_remove_prefsrc only clears the preferred source of the device's
    // routes that named the deleted address (Linux 6.1 net/ipv6/route.c fib6_remove_prefsrc).
    for (const r of ns.routes)
      if (r.family === 6 && r.dev === l.ifindex && r.prefsrc === removed.local) r.prefsrc = null;
  }
}

// fib_disable_ip: every IPv4 route through the device goes but those of scope host (their next
// hop has scope "nowhere", which fib_sync_down_dev spares unless IPv4 goes from the device);
// addrconf_ifdown: its IPv6 routes go too.
netdevChain.register('down', 10, 'fib', ({ ns, link: l }) => {
  ns.routes = ns.routes.filter(
    (r) => r.dev !== l.ifindex || (r.family === 4 && r.scope === 'host' && !r.gateway),
  );
});

netdevChain.register('unregister', 10, 'fib', ({ ns, link }) =>
  removeRoutesOfDev(ns, link.ifindex),
);

/**
 * fib lookup (`ip route get`): the longest matching route of the main table whose device is up
 * with carrier (lowest metric on ties).
 */
export function routeLookup(k: KernelState, ns: Netns, dst: IP): Route | undefined {
  let best: Route | undefined;
  for (const r of ns.routes) {
    if (r.family !== dst.v) continue;
    if (!netContains({ ip: parseIP(r.dst)!, prefix: r.prefix }, dst)) continue;
    const l = ns.links[r.dev];
    if (!l || !l.adminUp || !carrierOf(k, ns, l)) continue;
    if (!best || r.prefix > best.prefix || (r.prefix === best.prefix && r.metric < best.metric))
      best = r;
  }
  return best;
}
