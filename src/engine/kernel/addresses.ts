/**
 * Addresses (RTM_NEWADDR / RTM_DELADDR, inet_insert_ifa, addrconf): IPv4 primaries and
 * secondaries, IPv6 link-local configuration when a device comes up, and the routes that
 * addresses bring. Registers on the netdev chain (up: 127.0.0.1 on lo and the prefix routes;
 * down: IPv6 goes; change: addrconf) and on the device sysctl chain (disable_ipv6).
 */
import { ipString, isLoopback, netContains, parseIP, type IP } from '../net/ip';
import { eui64LinkLocal } from '../net/mac';
import { getLink, scopeOfV6 } from './device';
import { KernelError } from './errors';
import { operUp, linkwatch } from './linkwatch';
import { devSysctlChain, netdevChain } from './notifier';
import {
  addConnectedRoute,
  addKernelRoute6,
  addPrefixRoute6,
  fibDelIfaddr,
  removeRoutesOfDev,
} from './routes';
import { interfaceSysctl, ipv6Disabled } from './sysctl';
import type { Addr, AddrScope, KernelState, Link, Netns } from './types';

/**
 * How long duplicate address detection takes on `l`, or null when it does not run: the device
 * (not the loopback) must have accept_dad on (or "all" must) and send at least one neighbour
 * solicitation (dad_transmits), each retrans_time (1 s) after the last. The kernel's random start
 * delay (up to rtr_solicit_delay) is left out.
 */
function dadTime(ns: Netns, l: Link): number | null {
  if (l.kind === 'loopback') return null;
  const on =
    Number(ns.sysctl['net.ipv6.conf.all.accept_dad'] ?? '0') >= 1 ||
    Number(interfaceSysctl(ns, l, 'ipv6.conf.accept_dad') ?? '1') >= 1;
  const transmits = Number(interfaceSysctl(ns, l, 'ipv6.conf.dad_transmits') ?? '1');
  return on && transmits >= 1 ? transmits * DAD_RETRANS_US : null;
}

/** retrans_time: the time between two neighbour solicitations of DAD. */
export const DAD_RETRANS_US = 1_000_000;

/** addrconf_dad_start: an address DAD checks is tentative until DAD ends, once the device is ready. */
function startDad(k: KernelState, ns: Netns, l: Link, a: Addr): void {
  const t = dadTime(ns, l);
  if (t === null || a.nodad) return;
  a.dadUntil = operUp(l) ? (k.now ?? 0) + t : -1;
}

function addrconf(k: KernelState, ns: Netns, l: Link): void {
  if (!operUp(l) || ipv6Disabled(ns, l)) return;
  // The device became ready: DAD starts for the addresses that waited for it.
  for (const a of l.addrs) if (a.dadUntil === -1) startDad(k, ns, l, a);
  if (l.ip6Configured) return;
  l.ip6Configured = true;
  if (l.kind === 'loopback') {
    insertAddr(l, { family: 6, local: '::1', prefix: 128, scope: 'host', broadcast: null });
    return;
  }
  const ll = eui64LinkLocal(l.mac);
  if (!l.addrs.some((a) => a.local === ll)) {
    const a: Addr = { family: 6, local: ll, prefix: 64, scope: 'link', broadcast: null };
    startDad(k, ns, l, a);
    insertAddr(l, a);
  }
  addKernelRoute6(ns, l, 'fe80::', 64, 'addrconf');
}

function scopeRank(s: AddrScope): number {
  return s === 'global' ? 14 : s === 'site' ? 5 : s === 'link' ? 2 : 1;
}

/** An IPv4 scope as the kernel numbers it (host 254 > link 253 > site 200 > universe 0). */
function v4Rank(x: AddrScope): number {
  return x === 'host' ? 254 : x === 'link' ? 253 : x === 'site' ? 200 : 0;
}

/** Two IPv4 addresses with the same prefix length and subnet (a primary and its secondaries). */
function sameSubnet4(x: Addr, y: Addr): boolean {
  return (
    x.family === 4 &&
    y.family === 4 &&
    x.prefix === y.prefix &&
    netContains({ ip: parseIP(x.local)!, prefix: x.prefix }, parseIP(y.local)!)
  );
}

/** IPv4 addresses in order of addition; IPv6 ordered by decreasing scope, newest first within one. */
function insertAddr(l: Link, a: Addr): void {
  if (a.family === 4) {
    // inet_insert_ifa: an address in the subnet of one the device has is a secondary and goes
    // after every IPv4 address; a primary goes after the last primary whose scope is at least as
    // narrow (host 254 > link 253 > global 0), so host-scope addresses come first.
    const secondary = l.addrs.some((x) => sameSubnet4(x, a));
    let at = 0;
    l.addrs.forEach((x, i) => {
      if (x.family !== 4) return;
      if (secondary || (!x.secondary && v4Rank(x.scope) >= v4Rank(a.scope))) at = i + 1;
    });
    if (secondary) a.secondary = true;
    l.addrs.splice(at, 0, a);
    return;
  }
  const rank = scopeRank(a.scope);
  let i = l.addrs.findIndex((x) => x.family === 6 && rank >= scopeRank(x.scope));
  if (i < 0) i = l.addrs.length;
  l.addrs.splice(i, 0, a);
}

export function addrAdd(
  k: KernelState,
  nsId: string,
  ifindex: number,
  a: { ip: IP; prefix: number; broadcast?: string | null; scope?: AddrScope; nodad?: boolean },
): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  const local = ipString(a.ip);
  if (a.prefix < 0 || a.prefix > (a.ip.v === 4 ? 32 : 128)) throw new KernelError('EINVAL');
  // addrconf_add_dev refuses a device with IPv6 disabled before anything else.
  if (a.ip.v === 6 && ipv6Disabled(ns, l))
    throw new KernelError('EACCES', 'ipv6: IPv6 is disabled on this device');
  if (
    l.addrs.some(
      (x) => x.family === a.ip.v && x.local === local && (a.ip.v === 6 || x.prefix === a.prefix),
    )
  ) {
    throw new KernelError(
      'EEXIST',
      a.ip.v === 4 ? 'ipv4: Address already assigned' : 'ipv6: address already assigned',
    );
  }
  const scope: AddrScope =
    a.ip.v === 6
      ? scopeOfV6(a.ip)
      : (a.scope ?? (isLoopback(a.ip) && l.kind === 'loopback' ? 'host' : 'global'));
  const addr: Addr = {
    family: a.ip.v,
    local,
    prefix: a.prefix,
    scope,
    broadcast: a.broadcast ?? null,
  };
  // A secondary must have its primary's scope (inet_insert_ifa).
  if (l.addrs.some((x) => sameSubnet4(x, addr) && x.scope !== scope))
    throw new KernelError('EINVAL', 'ipv4: Invalid scope value');
  if (a.ip.v === 6) {
    if (a.nodad) addr.nodad = true;
    startDad(k, ns, l, addr);
  }
  insertAddr(l, addr);
  if (a.ip.v === 4) {
    // fib_add_ifaddr adds the address's local route (creating the tables) even on a down device.
    ns.fib4 = true;
    if (l.adminUp) addConnectedRoute(ns, l, addr);
  } else if (scope !== 'link' && l.adminUp) {
    // addrconf adds the prefix route for every global IPv6 address, a /128 included, once the
    // device is up.
    addPrefixRoute6(ns, l, addr);
  }
}

export function addrDel(
  k: KernelState,
  nsId: string,
  ifindex: number,
  a: { ip: IP; prefix: number },
): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  const local = ipString(a.ip);
  const i = l.addrs.findIndex(
    (x) => x.family === a.ip.v && x.local === local && x.prefix === a.prefix,
  );
  if (i < 0) {
    throw new KernelError(
      'EADDRNOTAVAIL',
      a.ip.v === 4 ? 'ipv4: Address not found' : 'ipv6: address not found',
    );
  }
  const removed = l.addrs.splice(i, 1)[0]!;
  const gone: string[] = [local];
  let promoted: Addr | undefined;
  if (removed.family === 4 && !removed.secondary) {
    // __inet_del_ifa: the primary's secondaries go with it, unless promote_secondaries is on
    // (for the device or "all"): then the first of them becomes the primary, moved after the
    // last primary (following the deleted one) whose scope is at least as narrow.
    const isSecondary = (x: Addr) => !!x.secondary && sameSubnet4(removed, x);
    const promote =
      ns.sysctl['net.ipv4.conf.all.promote_secondaries'] === '1' ||
      interfaceSysctl(ns, l, 'ipv4.conf.promote_secondaries') === '1';
    if (promote) {
      const j = l.addrs.findIndex(isSecondary);
      if (j >= 0) {
        promoted = l.addrs.splice(j, 1)[0]!;
        delete promoted.secondary;
        let at = i;
        for (let m = i; m < l.addrs.length; m++) {
          const x = l.addrs[m]!;
          if (x.family === 4 && !x.secondary && v4Rank(x.scope) >= v4Rank(removed.scope))
            at = m + 1;
        }
        l.addrs.splice(at, 0, promoted);
      }
    } else {
      for (const x of l.addrs) if (isSecondary(x)) gone.push(x.local);
      l.addrs = l.addrs.filter((x) => !isSecondary(x));
    }
  }
  fibDelIfaddr(ns, l, { ip: a.ip, prefix: a.prefix, removed, gone, promoted });
  linkwatch(k, [[ns.id, l.ifindex]]);
}

// Routes

netdevChain.register('up', 0, 'inetdev', ({ ns, link: l }) => {
  // inetdev: the loopback device gets 127.0.0.1/8 the first time it comes up, and keeps it.
  // (Its local route creates the IPv4 tables, as addrAdd's addresses do.)
  if (l.kind === 'loopback' && !l.addrs.some((a) => a.local === '127.0.0.1')) {
    insertAddr(l, { family: 4, local: '127.0.0.1', prefix: 8, scope: 'host', broadcast: null });
    ns.fib4 = true;
  }
  // Addresses added while the device was down get their prefix routes now.
  for (const a of l.addrs) {
    if (a.family === 4) addConnectedRoute(ns, l, a);
    else if (a.scope !== 'link' && a.scope !== 'host') addPrefixRoute6(ns, l, a);
  }
});

// addrconf_ifdown: IPv6 addresses and routes go (keep_addr_on_down is off).
netdevChain.register('down', 0, 'addrconf', ({ link: l }) => {
  l.addrs = l.addrs.filter((a) => a.family === 4);
  l.ip6Configured = false;
});

netdevChain.register('change', 0, 'addrconf', ({ k, ns, link }) => addrconf(k, ns, link));

devSysctlChain.register('write', 0, 'addrconf', ({ ns, link: l, key, value }) => {
  if (key !== 'ipv6.conf.disable_ipv6' || value !== '1') return;
  l.addrs = l.addrs.filter((a) => a.family === 4);
  removeRoutesOfDev(ns, l.ifindex, 6);
  l.ip6Configured = false;
});
