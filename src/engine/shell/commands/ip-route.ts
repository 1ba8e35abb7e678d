/**
 * `ip route add | del | replace | change | append | prepend` (iproute2 6.1's iproute_modify). The
 * kernel model answers adds like fib_table_insert / ip6_route_add, with their extack messages.
 *
 * Supported: [to] [unicast] DST[/LEN]|default [via [inet|inet6] GW] [dev DEV] [metric N]
 * [scope global|link|host] [src IP] [proto kernel|boot|static|N] [table main] (-4 / -6).
 */
import * as K from '../../kernel/kernel';
import type { Route } from '../../kernel/types';
import { type IP, ipString, netContains, networkOf, parseIP } from '../../net/ip';
import { routesInDumpOrder } from '../../kernel/view';
import { parseScope } from './ip-addr';
import {
  type Family,
  type IpRun,
  IpExit,
  duparg2,
  extack,
  getAddr,
  getPrefix,
  getUnsigned,
  invarg,
  kernelCall,
  linkNamed,
  matches,
  nodev,
  notSimulated,
  nsOf,
  rtnl,
} from './ip-common';
import { IP_ROUTE_USAGE } from './usage';

type Mode = 'add' | 'del' | 'replace' | 'change' | 'append' | 'prepend';

interface RouteReq {
  family: Family;
  dst: IP | null;
  prefix: number;
  gw: IP | null;
  dev: string | null;
  metric: number | null;
  scope: number | null;
  src: IP | null;
  proto: Route['protocol'] | null;
  onlink: boolean;
}

const PROTOS: Record<string, Route['protocol'] | 'other'> = {
  kernel: 'kernel',
  boot: 'boot',
  static: 'static',
  redirect: 'other',
  dhcp: 'other',
  ra: 'other',
  zebra: 'other',
  bird: 'other',
  bgp: 'other',
  ospf: 'other',
  babel: 'other',
  keepalived: 'other',
};
const PROTO_NUMBERS: Record<number, Route['protocol']> = { 2: 'kernel', 3: 'boot', 4: 'static' };

const ROUTE_TYPES = [
  'unicast',
  'local',
  'broadcast',
  'multicast',
  'throw',
  'unreachable',
  'prohibit',
  'blackhole',
  'nat',
  'anycast',
];

const METRIC_KEYWORDS = [
  'mtu',
  'hoplimit',
  'advmss',
  'reordering',
  'rtt',
  'rttvar',
  'window',
  'cwnd',
  'initcwnd',
  'initrwnd',
  'ssthresh',
  'realms',
  'rto_min',
  'features',
  'quickack',
  'congctl',
  'fastopen_no_cookie',
  'expires',
  'as',
  'from',
  'tos',
  'dsfield',
  'nexthop',
  'nhid',
  'encap',
  'pref',
  'vrf',
  'ttl-propagate',
];

function parseRoute(ip: IpRun, argv: readonly string[], mode: Mode): RouteReq {
  const req: RouteReq = {
    family: ip.family,
    dst: null,
    prefix: 0,
    gw: null,
    dev: null,
    metric: null,
    scope: null,
    src: null,
    proto: null,
    onlink: false,
  };
  let dstOk = false;
  let gwOk = false;
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i]!;
    const next = (): string => {
      i++;
      if (i >= argv.length)
        throw new IpExit('Command line is not complete. Try option "help"\n', 255);
      return argv[i]!;
    };
    if (arg === 'src') {
      const a = getAddr(next(), req.family);
      if (req.family === 0) req.family = a.v;
      req.src = a;
    } else if (arg === 'via') {
      if (gwOk) invarg('use nexthop syntax to specify multiple via\n', arg);
      gwOk = true;
      let v = next();
      let fam = req.family;
      if (v === 'inet' || v === 'inet6') {
        fam = v === 'inet' ? 4 : 6;
        v = next();
      }
      const a = getAddr(v, fam);
      if (req.family === 0) req.family = a.v;
      if (a.v !== req.family) notSimulated('route via another family');
      req.gw = a;
    } else if (matches(arg, 'metric') || matches(arg, 'priority') || arg === 'preference') {
      const v = next();
      const n = getUnsigned(v);
      if (n === null) invarg('"metric" value is invalid\n', v);
      req.metric = n;
    } else if (arg === 'scope') {
      const v = next();
      const n = parseScope(v);
      if (n === null) invarg('invalid "scope" value\n', v);
      req.scope = n;
    } else if (matches(arg, 'protocol')) {
      const v = next();
      const p =
        PROTOS[v] ??
        (getUnsigned(v, 255) !== null
          ? (PROTO_NUMBERS[getUnsigned(v, 255)!] ?? 'other')
          : undefined);
      if (p === undefined) invarg('"protocol" value is invalid\n', v);
      if (p === 'other') notSimulated(`route protocol ${v}`);
      req.proto = p;
    } else if (matches(arg, 'table')) {
      const v = next();
      if (v !== 'main' && v !== '254') notSimulated(`route table ${v}`);
    } else if (arg === 'dev' || arg === 'oif') {
      req.dev = next();
    } else if (arg === 'onlink') {
      req.onlink = true;
    } else if (METRIC_KEYWORDS.includes(arg)) {
      notSimulated(`route ${arg}`);
    } else {
      if (arg === 'to') arg = next();
      if ((arg[0]! < '0' || arg[0]! > '9') && ROUTE_TYPES.includes(arg)) {
        if (arg !== 'unicast') notSimulated(`route type ${arg}`);
        arg = next();
      }
      if (matches(arg, 'help')) throw new IpExit(IP_ROUTE_USAGE, 255);
      if (dstOk) duparg2('to', arg);
      const p = getPrefix(arg, req.family);
      if (req.family === 0) req.family = p.family;
      req.dst = p.ip;
      req.prefix = p.prefix;
      dstOk = true;
    }
  }
  if (!dstOk) throw new IpExit(IP_ROUTE_USAGE, 255);
  if (req.family === 0) req.family = 4;
  if (req.dst && req.dst.v !== req.family) notSimulated('route with mixed families');
  void mode;
  return req;
}

function scopeName(n: number): Route['scope'] {
  if (n === 0) return 'universe';
  if (n === 253) return 'link';
  if (n === 254) return 'host';
  return notSimulated(`route scope ${n}`);
}

/** The RTM_NEWROUTE flags iproute2 sends for each command. */
const MODE_FLAGS: Record<Exclude<Mode, 'del'>, K.RouteFlags> = {
  add: { create: true, excl: true },
  change: { replace: true },
  replace: { create: true, replace: true },
  prepend: { create: true },
  append: { create: true, append: true },
};

/** RTM_NEWROUTE: the kernel checks the next hop and the source and picks what to replace. */
function routeAdd(ip: IpRun, req: RouteReq, mode: Exclude<Mode, 'del'>): number {
  const fam = req.family as 4 | 6;
  const dev = req.dev !== null ? (linkNamed(ip, req.dev) ?? nodev(req.dev)).ifindex : null;
  const spec: K.RouteSpec = {
    family: fam,
    dst: req.dst ?? { v: fam, n: 0n },
    prefix: req.prefix,
    dev,
    gateway: req.gw,
    ...(req.metric !== null ? { metric: req.metric } : {}),
    ...(req.scope !== null ? { scope: scopeName(req.scope) } : {}),
    ...(req.src ? { prefsrc: req.src } : {}),
    ...(req.proto ? { protocol: req.proto } : {}),
    ...(req.onlink ? { onlink: true } : {}),
  };
  kernelCall(ip, () => ip.ctx.changeKernel((k) => K.routeNew(k, ip.ns, spec, MODE_FLAGS[mode])));
  return 0;
}

function routeDel(ip: IpRun, req: RouteReq): number {
  const ns = nsOf(ip);
  const fam = req.family as 4 | 6;
  const dst: IP = req.dst ?? { v: fam, n: 0n };
  let devIdx: number | null = null;
  if (req.dev !== null) devIdx = (linkNamed(ip, req.dev) ?? nodev(req.dev)).ifindex;
  const dstNet = networkOf({ ip: dst, prefix: req.prefix });
  if (fam === 4 && dstNet.n !== dst.n) extack('Invalid prefix for given prefix length.');
  const dstStr = ipString(dstNet);
  const gwStr = req.gw ? ipString(req.gw) : null;
  const cands = ns.routes
    .filter(
      (r) =>
        r.family === fam &&
        r.dst === dstStr &&
        r.prefix === req.prefix &&
        (devIdx === null || r.dev === devIdx) &&
        (gwStr === null || r.gateway === gwStr) &&
        (req.metric === null || r.metric === req.metric) &&
        (req.scope === null || req.scope === 255 || scopeName(req.scope) === r.scope) &&
        (req.proto === null || r.protocol === req.proto) &&
        (req.src === null || r.prefsrc === ipString(req.src)),
    )
    .sort((a, b) => a.metric - b.metric);
  const victim = cands[0];
  if (!victim) {
    if (fam === 6 && req.prefix === 0 && !ns.routes.some((r) => r.family === 6 && r.prefix === 0))
      rtnl('ENOENT');
    rtnl('ESRCH');
  }
  kernelCall(ip, () =>
    ip.ctx.changeKernel((k) =>
      K.routeDel(k, ip.ns, {
        family: fam,
        dst: dstNet,
        prefix: req.prefix,
        dev: victim.dev,
        gateway: victim.gateway ? parseIP(victim.gateway) : null,
        metric: victim.metric,
      }),
    ),
  );
  return 0;
}

/** A destination selector of `ip route flush` (iproute2's inet_prefix; bits -1: no length). */
interface DstFilter {
  /** 0: "default", "all" or "any" without -4 / -6, which match either family. */
  family: Family;
  ip: IP | null;
  bits: number;
}

/** inet_addr_match: the first `bits` bits of `a` and `b` are the same. */
const samePrefix = (a: IP, b: IP | null, bits: number): boolean =>
  bits <= 0 || (b !== null && netContains({ ip: b, prefix: bits }, a));

/**
 * `ip [-4|-6] [-s] route flush SELECTOR...` (iproute2 6.1 iproute_list_flush_or_save, its
 * filter_nlmsg and iproute_flush): ip dumps the table and sends RTM_DELROUTE for every route the
 * selectors match, IPv4 unless -6 is given. Selectors: `table main|254`, `dev|oif DEV`,
 * `proto P|all`, `scope S|all`, `metric N`, `via GW`, `src IP`, and a destination: `root P`
 * (routes inside P), `match P` (routes that contain P), `[exact|to] P` (P itself); `default` is
 * the default route, `all` and `any` every route; the last destination given wins. Checked
 * against the real ip 6.1 in throw-away namespaces (golden/real-outputs.jsonl). In a namespace
 * that never had an IPv4 route or address the table does not exist yet, and the dump fails. Not
 * modelled: the local and other tables (`table local|all`).
 */
function routeFlush(ip: IpRun, argv: readonly string[]): number {
  if (argv.length === 0) throw new IpExit('"ip route flush" requires arguments.\n', 1);
  let dev: string | null = null;
  let proto: Route['protocol'] | 'other' | null = null;
  let scope: number | null = null;
  let metric: number | null = null;
  let via: IP | null = null;
  let src: IP | null = null;
  let rdst: DstFilter | null = null;
  let mdst: DstFilter | null = null;
  const prefixOf = (arg: string): DstFilter => {
    // "all" and "any" leave the length unset; "default" is a prefix of length 0.
    if (arg === 'all' || arg === 'any') return { family: ip.family, ip: null, bits: -1 };
    const p = getPrefix(arg, ip.family);
    return { family: p.family, ip: p.ip, bits: p.prefix };
  };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i]!;
    const next = (): string => {
      i++;
      if (i >= argv.length)
        throw new IpExit('Command line is not complete. Try option "help"\n', 255);
      return argv[i]!;
    };
    if (matches(arg, 'table')) {
      const v = next();
      if (v === 'main' || v === '254') continue;
      if (v === 'help') throw new IpExit(IP_ROUTE_USAGE, 255);
      if (v === 'all' || v === 'local' || v === 'default' || getUnsigned(v) !== null)
        notSimulated(`route flush table ${v}`);
      invarg('table id value is invalid\n', v);
    } else if (matches(arg, 'protocol')) {
      const v = next();
      const n = getUnsigned(v, 255);
      const p = PROTOS[v] ?? (n !== null ? (PROTO_NUMBERS[n] ?? 'other') : undefined);
      if (p === undefined && v !== 'all') invarg('invalid "protocol"\n', v);
      proto = p ?? null;
    } else if (matches(arg, 'scope')) {
      const v = next();
      const n = parseScope(v);
      if (n === null && v !== 'all') invarg('invalid "scope"\n', v);
      scope = n;
    } else if (arg === 'dev' || arg === 'oif') {
      dev = next();
    } else if (matches(arg, 'metric') || matches(arg, 'priority') || arg === 'preference') {
      const v = next();
      metric = getUnsigned(v);
      if (metric === null) invarg('"metric" value is invalid\n', v);
    } else if (arg === 'via') {
      let v = next();
      let fam = ip.family;
      if (v === 'inet' || v === 'inet6') {
        fam = v === 'inet' ? 4 : 6;
        v = next();
      }
      via = getPrefix(v, fam).ip;
    } else if (arg === 'src') {
      src = getPrefix(next(), ip.family).ip;
    } else if (
      ['vrf', 'cached', 'cloned', 'dsfield', 'type', 'realms'].some((k) => matches(arg, k)) ||
      ['tos', 'iif', 'mark'].includes(arg)
    ) {
      notSimulated(`route flush ${arg}`);
    } else {
      if (matches(arg, 'to')) arg = next();
      if (matches(arg, 'root')) rdst = prefixOf(next());
      else if (matches(arg, 'match')) mdst = prefixOf(next());
      else {
        if (matches(arg, 'exact')) arg = next();
        if (matches(arg, 'help')) throw new IpExit(IP_ROUTE_USAGE, 255);
        mdst = rdst = prefixOf(arg);
      }
    }
  }
  const family = ip.family === 6 ? 6 : 4;
  let ifindex: number | null = null;
  if (dev !== null) {
    const l = linkNamed(ip, dev);
    if (!l) nodev(dev);
    ifindex = l!.ifindex;
  }
  const ns = nsOf(ip);
  // The dump asks for the main table, which an IPv4 route or address has to have created.
  if (family === 4 && ns && !ns.fib4)
    throw new IpExit('Error: ipv4: FIB table does not exist.\nFlush terminated\n', 2);
  const victims = (ns ? routesInDumpOrder(ns, family) : []).filter((r) => {
    const dst = parseIP(r.dst)!;
    if (rdst) {
      if (rdst.family !== 0 && rdst.family !== r.family) return false;
      if (rdst.bits > r.prefix || !samePrefix(dst, rdst.ip, rdst.bits)) return false;
    }
    if (mdst) {
      if (mdst.family !== 0 && mdst.family !== r.family) return false;
      if (mdst.bits >= 0 && (mdst.bits < r.prefix || !samePrefix(dst, mdst.ip, r.prefix)))
        return false;
    }
    if (proto !== null && r.protocol !== proto) return false;
    if (scope !== null && SCOPE_NUMBERS[r.scope] !== scope) return false;
    if (metric !== null && r.metric !== metric) return false;
    if (via && (r.gateway === null || ipString(via) !== r.gateway)) return false;
    if (src && (r.prefsrc === null || ipString(src) !== r.prefsrc)) return false;
    return ifindex === null || r.dev === ifindex;
  });
  if (victims.length)
    ip.ctx.changeKernel((k) => {
      for (const r of victims)
        K.routeDel(k, ip.ns, {
          family: r.family,
          dst: r.prefix === 0 ? null : parseIP(r.dst),
          prefix: r.prefix,
          dev: r.dev,
          gateway: r.gateway === null ? null : parseIP(r.gateway),
          metric: r.metric,
        });
    });
  if (ip.show?.stats)
    ip.ctx.out(
      victims.length
        ? `\n*** Round 1, deleting ${victims.length} entries ***\n*** Flush is complete after 1 round ***\n`
        : 'Nothing to flush.\n',
    );
  return 0;
}

/** rtm_scope numbers of the scopes routes have here. */
const SCOPE_NUMBERS: Record<Route['scope'], number> = { universe: 0, link: 253, host: 254 };

export function doRoute(ip: IpRun, argv: readonly string[]): number {
  if (argv.length === 0) notSimulated('route show');
  const [cmd, ...rest] = argv as [string, ...string[]];
  let mode: Mode | null = null;
  if (matches(cmd, 'add')) mode = 'add';
  else if (matches(cmd, 'change') || cmd === 'chg') mode = 'change';
  else if (matches(cmd, 'replace')) mode = 'replace';
  else if (matches(cmd, 'prepend')) mode = 'prepend';
  else if (matches(cmd, 'append')) mode = 'append';
  else if (matches(cmd, 'test')) notSimulated('route test');
  else if (matches(cmd, 'delete')) mode = 'del';
  else if (matches(cmd, 'list') || matches(cmd, 'show') || matches(cmd, 'lst'))
    notSimulated('route show');
  else if (matches(cmd, 'get')) notSimulated('route get');
  else if (matches(cmd, 'flush')) return routeFlush(ip, rest);
  else if (matches(cmd, 'save') || matches(cmd, 'restore') || matches(cmd, 'showdump'))
    notSimulated(`route ${cmd}`);
  else if (matches(cmd, 'help')) throw new IpExit(IP_ROUTE_USAGE, 255);
  else throw new IpExit(`Command "${cmd}" is unknown, try "ip route help".\n`, 255);
  const req = parseRoute(ip, rest, mode!);
  return mode === 'del' ? routeDel(ip, req) : routeAdd(ip, req, mode!);
}
