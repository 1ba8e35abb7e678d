/**
 * Read-only views of the kernel the way iproute2 shows them: link flags, operational state,
 * routes in dump order with `ip -j route` fields.
 */
import { type IP, ipString, parseIP, bits } from '../net/ip';
import { carrierOf, linkByIndex } from './kernel';
import type { KernelState, Link, Netns, Route } from './types';

/** Flags as `ip link` prints them, in its order (NO-CARRIER first when up without carrier). */
export function linkFlags(k: KernelState, ns: Netns, l: Link): string[] {
  const out: string[] = [];
  const running = l.adminUp && (l.operstate === 'UP' || l.operstate === 'UNKNOWN');
  // IFF_RUNNING comes from the (processed) operstate, LOWER_UP from the raw carrier.
  const lowerUp = l.adminUp && carrierOf(k, ns, l);
  if (l.adminUp && !running) out.push('NO-CARRIER');
  if (l.kind === 'loopback') out.push('LOOPBACK');
  // dummy_setup and ifb_setup set IFF_NOARP and clear IFF_MULTICAST.
  else if (l.kind === 'ifb' || l.kind === 'dummy') out.push('BROADCAST', 'NOARP');
  else out.push('BROADCAST', 'MULTICAST');
  if (l.allmulti) out.push('ALLMULTI');
  if (l.sysctl['__promisc_user'] === '1') out.push('PROMISC');
  if (l.adminUp) out.push('UP');
  if (lowerUp) out.push('LOWER_UP');
  // iproute2 looks the link's peer (a macvlan's lower device) up by index in the same
  // namespace: M-DOWN when it is down.
  const iflink = l.peer ?? l.macvlan?.lower;
  if (iflink && iflink.ns === ns.id && !ns.links[iflink.ifindex]?.adminUp) out.push('M-DOWN');
  return out;
}

/**
 * A route's flags as ip shows them (print_rt_flags' order): "onlink" for RTNH_F_ONLINK,
 * "linkdown" when linkwatch saw the device without carrier. An IPv4 route of scope host never
 * gets it: fib_create_info gives its next hop scope "nowhere" without fib_check_nh, and
 * fib_sync_down_dev skips such next hops (Linux 6.1; recorded: ptp's host route to a pod whose
 * eth0 went down, conformance/local/ptp-drift).
 */
export function routeFlags(ns: Netns, r: Route): string[] {
  const out: string[] = r.onlink ? ['onlink'] : [];
  const l = linkByIndex(ns, r.dev);
  const hostScope4 = r.family === 4 && r.scope === 'host';
  if (l && l.adminUp && !l.lwCarrier && !hostScope4) out.push('linkdown');
  return out;
}

function ipOf(s: string): IP {
  return parseIP(s)!;
}

/**
 * Routes of one family in the order `ip route show table main` dumps them. IPv4: by destination
 * address, longer prefixes first for the same address (fib trie). IPv6: by destination, more
 * specific prefixes before the ones containing them, default last (fib6 tree walk); equal
 * destinations keep their order (by metric, then insertion).
 */
export function routesInDumpOrder(ns: Netns, family: 4 | 6): Route[] {
  const rs = ns.routes.filter((r) => r.family === family);
  const keyed = rs.map((r, i) => ({ r, i, n: ipOf(r.dst).n }));
  if (family === 4) {
    keyed.sort((a, b) =>
      a.n !== b.n
        ? a.n < b.n
          ? -1
          : 1
        : a.r.prefix !== b.r.prefix
          ? b.r.prefix - a.r.prefix
          : a.r.metric !== b.r.metric
            ? a.r.metric - b.r.metric
            : a.i - b.i,
    );
  } else {
    const width = BigInt(bits(6));
    keyed.sort((a, b) => {
      // Compare the common prefix bits; a prefix that contains the other sorts after it.
      const common = Math.min(a.r.prefix, b.r.prefix);
      const shift = width - BigInt(common);
      const an = common === 0 ? 0n : a.n >> shift;
      const bn = common === 0 ? 0n : b.n >> shift;
      if (an !== bn) return an < bn ? -1 : 1;
      if (a.r.prefix !== b.r.prefix) return b.r.prefix - a.r.prefix;
      if (a.r.metric !== b.r.metric) return a.r.metric - b.r.metric;
      return a.i - b.i;
    });
  }
  return keyed.map((x) => x.r);
}

/** One route as `ip -j route` prints it. */
export function routeJson(ns: Netns, r: Route): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  o['dst'] =
    r.prefix === 0 ? 'default' : r.prefix === bits(r.family) ? r.dst : `${r.dst}/${r.prefix}`;
  if (r.gateway) o['gateway'] = r.gateway;
  o['dev'] = linkByIndex(ns, r.dev)?.name ?? `if${r.dev}`;
  if (r.protocol !== 'boot') o['protocol'] = r.protocol;
  if (r.family === 4 && r.scope !== 'universe') o['scope'] = r.scope;
  if (r.prefsrc) o['prefsrc'] = r.prefsrc;
  if (r.family === 6 || r.metric !== 0) o['metric'] = r.metric;
  o['flags'] = routeFlags(ns, r);
  if (r.family === 6) o['pref'] = 'medium';
  return o;
}

export function ipStr(ip: IP): string {
  return ipString(ip);
}
