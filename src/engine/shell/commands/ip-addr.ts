/**
 * `ip address add | del` (iproute2 6.1's ipaddr_modify, with the kernel's answers).
 *
 * Supported: add|del [local] ADDR[/LEN] dev DEV [brd|broadcast +|-|ADDR] [scope global|site|
 * link|host|N] [nodad] [label DEV] [valid_lft forever] [preferred_lft forever]. IPv4 without /LEN
 * is /32 (add) or the first address equal to it (del, with iproute2's wildcard warning).
 */
import * as K from '../../kernel/kernel';
import type { AddrScope } from '../../kernel/types';
import { type IP, ipString, lastOf, networkOf, parseIP } from '../../net/ip';
import {
  type Family,
  type IpRun,
  IpExit,
  duparg,
  duparg2,
  extack,
  getAddr,
  getPrefix,
  incomplete,
  invarg,
  kernelCall,
  matches,
  nodev,
  notSimulated,
  type Prefix,
  linkNamed,
} from './ip-common';
import { IP_ADDR_USAGE } from './usage';

/** rtnl_rtscope_a2n: a scope name or number. */
export function parseScope(s: string): number | null {
  const names: Record<string, number> = {
    global: 0,
    universe: 0,
    site: 200,
    link: 253,
    host: 254,
    nowhere: 255,
  };
  if (names[s] !== undefined) return names[s]!;
  if (/^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.test(s)) {
    const n = Number(
      s.startsWith('0x') || s.startsWith('0X')
        ? parseInt(s, 16)
        : s.length > 1 && s[0] === '0'
          ? parseInt(s, 8)
          : s,
    );
    return n <= 255 ? n : null;
  }
  return null;
}

function addrScope(n: number): AddrScope {
  switch (n) {
    case 0:
      return 'global';
    case 200:
      return 'site';
    case 253:
      return 'link';
    case 254:
      return 'host';
  }
  return notSimulated(`address scope ${n}`);
}

export function addrModify(ip: IpRun, argv: readonly string[], cmd: 'add' | 'del'): number {
  let family: Family = ip.family;
  let local: Prefix | null = null;
  let brd: '+' | '-' | IP | null = null;
  let brdSeen = false;
  let scope: number | null = null;
  let dev: string | null = null;
  let label: string | null = null;
  let nodad = false;
  let localArg = '';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = (): string => {
      i++;
      if (i >= argv.length) incomplete();
      return argv[i]!;
    };
    if (arg === 'peer' || arg === 'remote') {
      getPrefix(next(), family);
      notSimulated('address peer');
    } else if (matches(arg, 'broadcast') || arg === 'brd') {
      const v = next();
      if (brdSeen) duparg('broadcast', v);
      brdSeen = true;
      if (v === '+' || v === '-') brd = v;
      else {
        const a = getAddr(v, family);
        if (family === 0) family = a.v;
        brd = a;
      }
    } else if (arg === 'anycast') {
      next();
      notSimulated('address anycast');
    } else if (arg === 'scope') {
      const v = next();
      const n = parseScope(v);
      if (n === null) invarg('invalid scope value.', v);
      scope = n;
    } else if (arg === 'dev') {
      dev = next();
    } else if (arg === 'label') {
      label = next();
    } else if (matches(arg, 'metric') || matches(arg, 'priority') || matches(arg, 'preference')) {
      next();
      notSimulated('address metric');
    } else if (matches(arg, 'valid_lft') || matches(arg, 'preferred_lft')) {
      const v = next();
      if (v !== 'forever') notSimulated('address lifetimes');
    } else if (arg === 'nodad') {
      nodad = true;
    } else if (['home', 'optimistic', 'mngtmpaddr', 'noprefixroute', 'autojoin'].includes(arg)) {
      notSimulated(`address ${arg}`);
    } else {
      let v = arg;
      if (arg === 'local') v = next();
      if (matches(v, 'help')) throw new IpExit(IP_ADDR_USAGE, 255);
      if (local) duparg2('local', v);
      localArg = v;
      local = getPrefix(v, family);
      if (family === 0) family = local.family;
    }
  }
  if (dev === null) throw new IpExit('Not enough information: "dev" argument is required.\n', 1);
  if (label !== null && label !== dev) notSimulated('address labels');
  let wildcard = false;
  if (cmd === 'del' && local && local.ip && local.family === 4 && !local.specified) {
    wildcard = true;
    ip.ctx.err(
      'Warning: Executing wildcard deletion to stay compatible with old scripts.\n' +
        `         Explicitly specify the prefix length (${localArg}/32) to avoid this warning.\n` +
        '         This special behaviour is likely to disappear in further releases,\n' +
        '         fix your scripts!\n',
    );
  }
  const l = linkNamed(ip, dev) ?? nodev(dev);
  if (cmd === 'add' && nodad && family !== 6)
    ip.ctx.err('Warning: nodad option can be set only for IPv6 addresses\n');
  if (!local || !local.ip) {
    // No address: the kernel needs one.
    if (cmd === 'add')
      extack(family === 6 ? 'ipv6: Invalid address' : 'ipv4: Local address is not supplied');
    notSimulated('address delete without an address (flush)');
  }
  const addr = local.ip;
  if (cmd === 'add') {
    if (addr.v === 4) {
      let broadcast: string | null = null;
      if (brd === '+' || brd === '-') {
        if (local.prefix <= 30) {
          const net = { ip: addr, prefix: local.prefix };
          broadcast = ipString(brd === '+' ? lastOf(net) : networkOf(net));
        }
      } else if (brd) broadcast = ipString(brd);
      const sc: AddrScope =
        scope !== null ? addrScope(scope) : Number(addr.n >> 24n) === 127 ? 'host' : 'global';
      kernelCall(ip, () =>
        ip.ctx.changeKernel((k) =>
          K.addrAdd(k, ip.ns, l.ifindex, { ip: addr, prefix: local!.prefix, broadcast, scope: sc }),
        ),
      );
    } else {
      kernelCall(ip, () =>
        ip.ctx.changeKernel((k) =>
          K.addrAdd(k, ip.ns, l.ifindex, { ip: addr, prefix: local!.prefix, nodad }),
        ),
      );
    }
    return 0;
  }
  // del
  const s = ipString(addr);
  const found = l.addrs.find(
    (a) => a.family === addr.v && a.local === s && (wildcard || a.prefix === local!.prefix),
  );
  if (!found) extack(addr.v === 4 ? 'ipv4: Address not found.' : 'ipv6: address not found.');
  kernelCall(ip, () =>
    ip.ctx.changeKernel((k) => K.addrDel(k, ip.ns, l.ifindex, { ip: addr, prefix: found.prefix })),
  );
  return 0;
}

const SCOPE_NUMBER: Record<AddrScope, number> = { global: 0, site: 200, link: 253, host: 254 };

/**
 * `ip address flush [dev] DEV [scope S]` (iproute2 6.1 ipaddr_list_flush_or_save with
 * IPADD_FLUSH): every address of the device that passes the filter (family from -4/-6, all scopes
 * unless one is named), IPv4 before IPv6 as the kernel dumps them, deleted one by one. A primary
 * IPv4 address takes its secondaries with it (the kernel's __inet_del_ifa); those are skipped.
 */
function addrFlush(ip: IpRun, argv: readonly string[]): number {
  if (argv.length === 0) throw new IpExit('Flush requires arguments.\n', 1);
  let dev: string | null = null;
  let scope: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = (): string => {
      i++;
      if (i >= argv.length) incomplete();
      return argv[i]!;
    };
    if (arg === 'scope') {
      const v = next();
      const n = v === 'all' ? null : parseScope(v);
      if (n === null && v !== 'all') invarg('invalid "scope"', v);
      scope = n;
    } else if (arg === 'dev') {
      const v = next();
      if (dev !== null) duparg2('dev', v);
      dev = v;
    } else if (
      ['to', 'up', 'label', 'type', 'master', 'vrf', 'nomaster', 'permanent', 'dynamic'].includes(
        arg,
      ) ||
      arg.startsWith('-')
    ) {
      notSimulated(`address flush ${arg}`);
    } else {
      if (dev !== null) duparg2('dev', arg);
      dev = arg;
    }
  }
  if (dev === null) notSimulated('address flush of every device');
  const l = linkNamed(ip, dev);
  if (!l) throw new IpExit(`Device "${dev}" does not exist.\n`, 1);
  const picked = [...l.addrs]
    .filter((a) => ip.family === 0 || a.family === ip.family)
    .filter((a) => scope === null || SCOPE_NUMBER[a.scope] === scope)
    .sort((a, b) => a.family - b.family);
  for (const a of picked) {
    const now = linkNamed(ip, dev)?.addrs ?? [];
    if (!now.some((x) => x.family === a.family && x.local === a.local && x.prefix === a.prefix))
      continue;
    kernelCall(ip, () =>
      ip.ctx.changeKernel((k) =>
        K.addrDel(k, ip.ns, l.ifindex, { ip: parseIP(a.local)!, prefix: a.prefix }),
      ),
    );
  }
  return 0;
}

export function doAddr(ip: IpRun, argv: readonly string[]): number {
  if (argv.length === 0) notSimulated('address show');
  const [cmd, ...rest] = argv as [string, ...string[]];
  if (matches(cmd, 'add')) return addrModify(ip, rest, 'add');
  if (matches(cmd, 'change') || cmd === 'chg' || matches(cmd, 'replace'))
    notSimulated(`address ${cmd}`);
  if (matches(cmd, 'delete')) return addrModify(ip, rest, 'del');
  if (matches(cmd, 'list') || matches(cmd, 'show') || matches(cmd, 'lst'))
    notSimulated('address show');
  if (matches(cmd, 'flush')) return addrFlush(ip, rest);
  if (matches(cmd, 'save') || matches(cmd, 'showdump') || matches(cmd, 'restore'))
    notSimulated(`address ${cmd}`);
  if (matches(cmd, 'help')) throw new IpExit(IP_ADDR_USAGE, 255);
  throw new IpExit(`Command "${cmd}" is unknown, try "ip address help".\n`, 255);
}
