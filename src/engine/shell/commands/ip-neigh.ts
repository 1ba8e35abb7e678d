/**
 * `ip neigh` (iproute2 6.1's ipneigh.c): the neighbour table the packet walk fills (ARP) and
 * that daemons write (flanneld's permanent entries for the remote VTEPs' flannel.1).
 *
 * Supported: add | replace | change | del ADDR [lladdr MAC] dev DEV [nud permanent|reachable|
 * stale]; [show] [dev DEV]. Not modelled: proxy entries, other nud states, flush.
 */
import { linkByIndex, linksOf, nsById } from '../../kernel/kernel';
import type { NeighEntry } from '../../kernel/types';
import { ipString, parseIP } from '../../net/ip';
import {
  type IpRun,
  IpExit,
  invarg,
  llAddr,
  macString,
  matches,
  nodev,
  notSimulated,
  nsOf,
  linkNamed,
  rtnl,
} from './ip-common';

const NUD: Record<string, NeighEntry['state']> = {
  permanent: 'PERMANENT',
  reachable: 'REACHABLE',
  stale: 'STALE',
};

export function doNeigh(ip: IpRun, argv: readonly string[]): number {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || matches(cmd, 'show') || matches(cmd, 'list') || matches(cmd, 'lst'))
    return neighShow(ip, rest);
  if (cmd === 'add' || matches(cmd, 'replace') || matches(cmd, 'change') || cmd === 'chg')
    return neighModify(
      ip,
      cmd === 'add' ? 'add' : matches(cmd, 'replace') ? 'replace' : 'change',
      rest,
    );
  if (matches(cmd, 'delete')) return neighModify(ip, 'del', rest);
  if (matches(cmd, 'flush')) return notSimulated('neigh flush');
  throw new IpExit(`Command "${cmd}" is unknown, try "ip neigh help".\n`, 255);
}

function neighModify(
  ip: IpRun,
  mode: 'add' | 'replace' | 'change' | 'del',
  argv: readonly string[],
): number {
  let dst: string | null = null;
  let lladdr: string | null = null;
  let dev: string | null = null;
  let state: NeighEntry['state'] = 'PERMANENT';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined)
        throw new IpExit('Command line is not complete. Try option "help"\n', 255);
      return v;
    };
    if (a === 'lladdr') lladdr = macString(llAddr(next()));
    else if (a === 'nud') {
      const v = next();
      const s = NUD[v];
      if (!s) {
        if (['noarp', 'none', 'delay', 'probe', 'failed', 'incomplete'].includes(v))
          notSimulated(`neigh nud ${v}`);
        invarg('nud state is bad', v);
      }
      state = s!;
    } else if (a === 'dev') dev = next();
    else if (a === 'proxy' || a === 'router' || a === 'extern_learn' || a === 'protocol')
      notSimulated(`neigh ${a}`);
    else {
      const d = a === 'to' ? next() : a;
      if (dst !== null)
        throw new IpExit(`Error: either "to" is duplicate, or "${d}" is a garbage.\n`, 1);
      const p = parseIP(d);
      if (!p) invarg('invalid address', d);
      dst = ipString(p!);
    }
  }
  if (dst === null || dev === null)
    throw new IpExit('Device and destination are required arguments.\n', 255);
  const l = linkNamed(ip, dev) ?? nodev(dev);
  const ifindex = l.ifindex;
  const ip4 = dst;
  ip.ctx.changeKernel((k) => {
    const ns = nsById(k, ip.ns);
    const list = ns.neigh ?? [];
    const i = list.findIndex((n) => n.ip === ip4 && n.dev === ifindex);
    if (mode === 'del') {
      if (i < 0) rtnl('ENOENT');
      ns.neigh = list.filter((_n, j) => j !== i);
      return;
    }
    if (mode === 'add' && i >= 0) rtnl('EEXIST');
    if (mode === 'change' && i < 0) rtnl('ENOENT');
    const entry: NeighEntry = {
      ip: ip4,
      dev: ifindex,
      mac: lladdr ?? (i >= 0 ? list[i]!.mac : null),
      state,
    };
    ns.neigh = i >= 0 ? list.map((n, j) => (j === i ? entry : n)) : [...list, entry];
  });
  return 0;
}

function neighShow(ip: IpRun, argv: readonly string[]): number {
  const ns = nsOf(ip)!;
  let dev: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === 'dev') {
      const name = argv[++i] ?? '';
      dev = (linkNamed(ip, name) ?? nodev(name)).ifindex;
    } else notSimulated(`neigh show ${a}`);
  }
  let out = '';
  for (const n of ns.neigh ?? []) {
    if (dev !== null && n.dev !== dev) continue;
    if (ip.family !== 0 && (n.ip.includes(':') ? 6 : 4) !== ip.family) continue;
    const l = linkByIndex(ns, n.dev);
    if (!l || !linksOf(ns).includes(l)) continue;
    out += `${n.ip} ${dev === null ? `dev ${l.name} ` : ''}${n.mac ? `lladdr ${n.mac} ` : ''}${n.state}\n`;
  }
  ip.ctx.out(out);
  return 0;
}
