/**
 * `ip route add | del | replace | change | append | prepend` (iproute2 6.1's iproute_modify, with
 * the kernel's answers: fib_table_insert / fib_table_delete for IPv4, ip6_route_add / del for
 * IPv6, and their extack messages).
 *
 * Supported: [to] [unicast] DST[/LEN]|default [via [inet|inet6] GW] [dev DEV] [metric N]
 * [scope global|link|host] [src IP] [proto kernel|boot|static|N] [table main] (-4 / -6).
 */
import * as K from '../../kernel/kernel';
import type { Netns, Route } from '../../kernel/types';
import { type IP, ipString, netContains, networkOf, parseIP } from '../../net/ip';
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
      notSimulated('route onlink');
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

/**
 * The route the kernel's nexthop check finds for a gateway: the longest prefix among the directly
 * connected routes (no gateway; IPv4: scope link or host) of devices that are up.
 */
function onLinkRoute(ns: Netns, gw: IP): Route | undefined {
  let best: Route | undefined;
  for (const r of ns.routes) {
    if (r.family !== gw.v || r.gateway !== null) continue;
    if (r.family === 4 && r.scope !== 'link' && r.scope !== 'host') continue;
    if (!netContains({ ip: parseIP(r.dst)!, prefix: r.prefix }, gw)) continue;
    const l = K.linkByIndex(ns, r.dev);
    if (!l || !l.adminUp) continue;
    if (!best || r.prefix > best.prefix || (r.prefix === best.prefix && r.metric < best.metric))
      best = r;
  }
  return best;
}

function routeAdd(ip: IpRun, req: RouteReq, mode: Mode): number {
  const ns = nsOf(ip);
  const fam = req.family as 4 | 6;
  const dst: IP = req.dst ?? { v: fam, n: 0n };
  let devIdx: number | null = null;
  if (req.dev !== null) devIdx = (linkNamed(ip, req.dev) ?? nodev(req.dev)).ifindex;
  let dstNet = dst;
  if (fam === 4) {
    if (networkOf({ ip: dst, prefix: req.prefix }).n !== dst.n)
      extack('Invalid prefix for given prefix length.');
  } else dstNet = networkOf({ ip: dst, prefix: req.prefix });
  const metric = req.metric ?? (fam === 6 ? 1024 : 0);
  // The nexthop: a device, a gateway on it, or a gateway that tells the device.
  if (fam === 4) {
    if (req.gw) {
      if (req.scope !== null && req.scope >= 253) extack('Nexthop has invalid gateway.');
      const r = onLinkRoute(ns, req.gw);
      if (!r || (devIdx !== null && r.dev !== devIdx)) extack('Nexthop has invalid gateway.');
      devIdx = r.dev;
    } else {
      if (devIdx === null) rtnl('ENODEV');
      if (!K.linkByIndex(ns, devIdx)!.adminUp) extack('Device for nexthop is not up.');
    }
    if (req.src) {
      const s = ipString(req.src);
      if (!K.linksOf(ns).some((l) => l.addrs.some((a) => a.family === 4 && a.local === s)))
        extack('Invalid prefsrc address.');
    }
  } else {
    if (req.gw) {
      const linkLocal = req.gw.n >> 118n === 0x3fan;
      if (!linkLocal || devIdx === null) {
        const r = onLinkRoute(ns, req.gw);
        if (!r || (devIdx !== null && r.dev !== devIdx)) rtnl('EHOSTUNREACH');
        devIdx = r.dev;
      }
    }
    if (devIdx === null) rtnl('ENODEV');
    const l = K.linkByIndex(ns, devIdx)!;
    if (K.interfaceSysctl(ns, l, 'ipv6.conf.disable_ipv6') === '1')
      extack('IPv6 is disabled on nexthop device');
    if (!l.adminUp) extack('Nexthop device is not up.');
    if (req.src) {
      const s = ipString(req.src);
      if (!K.linksOf(ns).some((x) => x.addrs.some((a) => a.family === 6 && a.local === s)))
        extack('Invalid source address.');
    }
  }
  const dstStr = ipString(dstNet);
  const same = ns.routes.filter(
    (r) => r.family === fam && r.dst === dstStr && r.prefix === req.prefix && r.metric === metric,
  );
  if (mode === 'change' && same.length === 0) rtnl('ENOENT');
  const spec: K.RouteSpec = {
    family: fam,
    dst: dstNet,
    prefix: req.prefix,
    dev: devIdx,
    gateway: req.gw,
    metric,
    ...(req.scope !== null ? { scope: scopeName(req.scope) } : {}),
    ...(req.src ? { prefsrc: req.src } : {}),
    ...(req.proto ? { protocol: req.proto } : {}),
  };
  kernelCall(
    ip,
    () =>
      ip.ctx.changeKernel((k) => {
        if ((mode === 'replace' || mode === 'change') && same.length > 0) {
          const old = same[0]!;
          K.routeDel(k, ip.ns, {
            family: fam,
            dst: dstNet,
            prefix: req.prefix,
            dev: old.dev,
            gateway: old.gateway ? parseIP(old.gateway) : null,
            metric,
          });
        }
        K.routeAdd(k, ip.ns, spec, { append: mode === 'append' || mode === 'prepend' });
      }),
    {
      ENETDOWN: () =>
        extack(fam === 4 ? 'Device for nexthop is not up.' : 'Nexthop device is not up.'),
      ENETUNREACH: () =>
        fam === 4 ? extack('Nexthop has invalid gateway.') : rtnl('EHOSTUNREACH'),
    },
  );
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
  else if (
    matches(cmd, 'flush') ||
    matches(cmd, 'save') ||
    matches(cmd, 'restore') ||
    matches(cmd, 'showdump')
  )
    notSimulated(`route ${cmd}`);
  else if (matches(cmd, 'help')) throw new IpExit(IP_ROUTE_USAGE, 255);
  else throw new IpExit(`Command "${cmd}" is unknown, try "ip route help".\n`, 255);
  const req = parseRoute(ip, rest, mode!);
  return mode === 'del' ? routeDel(ip, req) : routeAdd(ip, req, mode!);
}
