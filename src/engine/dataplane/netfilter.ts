/**
 * Netfilter: running a hook's chains (raw, mangle, nat, filter) over a packet, with the rules the
 * plugins wrote (kernel/iptables' rule model). Evaluation is pure: it says which rules matched,
 * the verdict and what the packet became (DNAT, SNAT, MASQUERADE, MARK); the walk applies the
 * counters afterwards (`bumpCounters`), inside the change of the hop that ran the hook.
 */
import { bits, maskBits, parseIP, type IP } from '../net/ip';
import type {
  AddrSpec,
  ChainState,
  Counters,
  ExtData,
  Hook,
  IfaceSpec,
  IptablesState,
  MatchInst,
  Rule,
  TableName,
} from '../kernel/iptables/types';
import type { Packet } from './packet';
import { tget, withEntry } from '../state/table';

/** Hook priorities (nf_ip_hook_priorities): the tables in the order a hook runs them. */
export const HOOK_TABLES: Record<Hook, readonly TableName[]> = {
  PREROUTING: ['raw', 'mangle', 'nat'],
  INPUT: ['mangle', 'filter', 'security', 'nat'],
  FORWARD: ['mangle', 'filter', 'security'],
  OUTPUT: ['raw', 'mangle', 'nat', 'filter', 'security'],
  POSTROUTING: ['mangle', 'nat'],
};

/** conntrack match bits (xt_conntrack / xt_state). */
export const CT_INVALID = 1;
export const CT_ESTABLISHED = 2;
export const CT_RELATED = 4;
export const CT_NEW = 8;
export const CT_SNAT = 128;
export const CT_DNAT = 256;

/** What a rule match may ask of the world beyond the packet. */
export interface HookEnv {
  /** -i: the input device (PREROUTING, INPUT, FORWARD). */
  inDev?: string;
  /** -o: the output device (FORWARD, OUTPUT, POSTROUTING). */
  outDev?: string;
  /** br_netfilter: the bridge ports the frame came in on / goes out of. */
  physIn?: string;
  physOut?: string;
  bridged?: boolean;
  /** conntrack state bits of the packet (CT_*). */
  ct: number;
  /** Whether an address is local to the namespace (addrtype LOCAL). */
  isLocal(ip: string): boolean;
  /** The address MASQUERADE takes: the output device's primary address. */
  masqAddress(): string | null;
}

/** A rule that matched (or a policy that applied). */
export interface ChainHit {
  table: TableName;
  chain: string;
  /** Index of the rule in its chain; -1 for the chain's policy. */
  rule: number;
  /** The rule as `iptables -S` prints it after `-A <chain>`, or `-P <chain> <policy>`. */
  text: string;
  /** ACCEPT, DROP, a chain name, DNAT --to ..., MASQUERADE, MARK, RETURN. */
  target: string;
}

export interface NatChange {
  kind: 'dnat' | 'snat';
  addr: string;
  port: number | null;
}

export interface HookResult {
  verdict: 'ACCEPT' | 'DROP';
  /** The rule or policy that dropped the packet. */
  dropBy?: ChainHit;
  hits: ChainHit[];
  /** Tables whose chains ran, in order (for the walk's explanation). */
  tables: TableName[];
  mark: number;
  nat: NatChange | null;
  /** REJECT: the ICMP error the rule sends. */
  reject?: string;
}

const PROTO_NUM: Record<Packet['proto'], number> = { icmp: 1, tcp: 6, udp: 17, icmpv6: 58 };

function addrMatches(spec: AddrSpec | undefined, ip: string): boolean {
  if (!spec) return true;
  const a = parseIP(ip);
  const net = parseIP(spec.addr);
  if (!a || !net || a.v !== net.v) return spec.invert;
  let m: bigint;
  if (/^\d+$/.test(spec.mask)) m = maskBits(a.v, Number(spec.mask));
  else {
    const mm = parseIP(spec.mask);
    m = mm ? mm.n : maskBits(a.v, bits(a.v));
  }
  const hit = (a.n & m) === (net.n & m);
  return hit !== spec.invert;
}

function ifaceMatches(spec: IfaceSpec | undefined, dev: string | undefined): boolean {
  if (!spec) return true;
  if (dev === undefined) return spec.invert;
  const hit = spec.name.endsWith('+') ? dev.startsWith(spec.name.slice(0, -1)) : dev === spec.name;
  return hit !== spec.invert;
}

function numOf(d: ExtData, k: string, dflt = 0): number {
  const v = d[k];
  return typeof v === 'number' ? v : dflt;
}

function rangeOf(d: ExtData, k: string): [number, number] {
  const v = d[k];
  return Array.isArray(v) ? [Number(v[0]), Number(v[1])] : [0, 0xffff];
}

function inRange(p: number, [lo, hi]: [number, number]): boolean {
  return p >= lo && p <= hi;
}

/** RTN_* bit of an address as addrtype sees it (UNICAST 1, LOCAL 2, BROADCAST 3, MULTICAST 5). */
function addrType(ip: string, env: HookEnv): number {
  const a = parseIP(ip);
  if (a && a.v === 4 && a.n === 0xffffffffn) return 1 << 3;
  if (a && a.v === 4 && a.n >> 28n === 0xen) return 1 << 5;
  if (env.isLocal(ip)) return 1 << 2;
  return 1 << 1;
}

const ICMP_TYPE: Record<string, number> = {
  'echo-request': 8,
  'echo-reply': 0,
  'dest-unreach': 3,
  'time-exceeded': 11,
};

/** Whether one -m match holds; `undefined` for a match this model does not evaluate. */
function matchHolds(m: MatchInst, p: Packet, env: HookEnv): boolean | undefined {
  const d = m.data;
  switch (m.name) {
    case 'comment':
      return true;
    case 'tcp':
    case 'udp': {
      if (p.proto !== m.name) return false;
      const inv = numOf(d, 'inv');
      const s = inRange(p.sport, rangeOf(d, 'spts')) !== !!(inv & 1);
      const t = inRange(p.dport, rangeOf(d, 'dpts')) !== !!(inv & 2);
      return s && t;
    }
    case 'multiport': {
      const ports = (d['ports'] as unknown as number[][]) ?? [];
      const dir = d['dir'];
      const test = (port: number) =>
        ports.some((e) => (e.length === 2 ? port >= e[0]! && port <= e[1]! : port === e[0]));
      const hit =
        dir === 'sports'
          ? test(p.sport)
          : dir === 'dports'
            ? test(p.dport)
            : test(p.sport) || test(p.dport);
      return hit !== !!d['invert'];
    }
    case 'mark': {
      const hit = (p.mark & numOf(d, 'mask', 0xffffffff)) >>> 0 === numOf(d, 'mark');
      return hit !== !!d['invert'];
    }
    case 'conntrack': {
      if (d['state'] === null) return true;
      const hit = (numOf(d, 'state') & env.ct) !== 0;
      return hit !== !!d['stateInv'];
    }
    case 'state': {
      const hit = (numOf(d, 'state') & env.ct) !== 0;
      return hit !== !!d['invert'];
    }
    case 'addrtype': {
      let ok = true;
      if (numOf(d, 'src'))
        ok &&= ((numOf(d, 'src') & addrType(p.src, env)) !== 0) !== !!d['srcInv'];
      if (numOf(d, 'dst'))
        ok &&= ((numOf(d, 'dst') & addrType(p.dst, env)) !== 0) !== !!d['dstInv'];
      return ok;
    }
    case 'physdev': {
      const b = numOf(d, 'bits');
      const inv = numOf(d, 'inv');
      const test = (bit: number, v: boolean) => !(b & bit) || v !== !!(inv & bit);
      const devIs = (spec: unknown, dev: string | undefined) =>
        typeof spec === 'string' && dev !== undefined
          ? spec.endsWith('+')
            ? dev.startsWith(spec.slice(0, -1))
            : dev === spec
          : false;
      return (
        test(1, devIs(d['in'], env.physIn)) &&
        test(2, devIs(d['out'], env.physOut)) &&
        test(4, !!env.bridged) &&
        test(8, env.physIn !== undefined) &&
        test(16, env.physOut !== undefined)
      );
    }
    case 'icmp': {
      if (p.proto !== 'icmp') return false;
      const t = numOf(d, 'type');
      const hit = t === 0xff || ICMP_TYPE[p.icmp ?? ''] === t;
      return hit !== !!d['inv'];
    }
    default:
      return undefined;
  }
}

function ruleMatches(r: Rule, p: Packet, env: HookEnv): boolean {
  if (!addrMatches(r.src, p.src) || !addrMatches(r.dst, p.dst)) return false;
  if (!ifaceMatches(r.inIface, env.inDev) || !ifaceMatches(r.outIface, env.outDev)) return false;
  if (r.proto && r.proto.num !== 0) {
    const hit = PROTO_NUM[p.proto] === r.proto.num;
    if (hit === r.proto.invert) return false;
  }
  for (const m of r.matches) if (matchHolds(m, p, env) !== true) return false;
  return true;
}

function targetText(r: Rule): string {
  const t = r.target;
  if (!t) return '';
  if (t.kind === 'verdict') return t.verdict;
  if (t.kind === 'chain') return t.chain;
  return t.name;
}

function natRange(d: ExtData): { addr: string | null; port: number | null } {
  const range = d['range'] as ExtData | null;
  if (!range) return { addr: null, port: null };
  const ports = range['ports'] as ExtData | null | undefined;
  const min = range['minAddr'];
  return {
    addr: typeof min === 'string' ? min : null,
    port: ports && typeof ports['min'] === 'number' ? ports['min'] : null,
  };
}

/**
 * Runs one table's chain of a hook (and the chains it jumps to) over `p`. Returns the verdict of
 * the table: ACCEPT (incl. falling off the base chain with policy ACCEPT) or DROP.
 */
function runTable(
  ipt: IptablesState,
  family: 4 | 6,
  table: TableName,
  hook: Hook,
  p: Packet,
  env: HookEnv,
  out: HookResult,
): 'ACCEPT' | 'DROP' | 'NONE' {
  const t = (family === 4 ? ipt.ipv4 : ipt.ipv6)[table];
  if (!t) return 'NONE';
  const chains = { get: (name: string) => tget(t.chains, name) };
  const base = tget(t.chains, hook);
  if (!base || base.hook !== hook) return 'NONE';
  out.tables.push(table);
  // The walk over chains: a stack of (chain, next rule index).
  const stack: Array<{ chain: ChainState; i: number }> = [{ chain: base, i: 0 }];
  let depth = 0;
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.chain.rules.length) {
      stack.pop();
      if (stack.length === 0) {
        const policy = base.policy ?? 'ACCEPT';
        const hit: ChainHit = {
          table,
          chain: base.name,
          rule: -1,
          text: `-P ${base.name} ${policy}`,
          target: policy,
        };
        out.hits.push(hit);
        if (policy === 'DROP') out.dropBy = hit;
        return policy;
      }
      continue;
    }
    const idx = top.i++;
    const r = top.chain.rules[idx]!;
    if (!ruleMatches(r, p, env)) continue;
    const hit: ChainHit = {
      table,
      chain: top.chain.name,
      rule: idx,
      text: r.key,
      target: targetText(r),
    };
    out.hits.push(hit);
    const tg = r.target;
    if (!tg) continue;
    if (tg.kind === 'verdict') {
      if (tg.verdict === 'ACCEPT') return 'ACCEPT';
      if (tg.verdict === 'DROP' || tg.verdict === 'QUEUE') {
        out.dropBy = hit;
        return 'DROP';
      }
      // RETURN: back to the calling chain (from the base chain: its policy).
      stack.pop();
      if (stack.length === 0) {
        const policy = base.policy ?? 'ACCEPT';
        if (policy === 'DROP') out.dropBy = { ...hit, rule: -1, text: `-P ${base.name} DROP` };
        return policy;
      }
      continue;
    }
    if (tg.kind === 'chain') {
      const next = chains.get(tg.chain);
      if (!next || ++depth > 64) continue;
      if (tg.goto) stack.pop();
      stack.push({ chain: next, i: 0 });
      continue;
    }
    const d = tg.data;
    switch (tg.name) {
      case 'MARK': {
        const mask = numOf(d, 'mask');
        out.mark = (((p.mark & ~mask) >>> 0) ^ numOf(d, 'mark')) >>> 0;
        p.mark = out.mark;
        continue;
      }
      case 'LOG':
        continue;
      case 'DNAT': {
        const r2 = natRange(d);
        out.nat = { kind: 'dnat', addr: r2.addr ?? p.dst, port: r2.port };
        return 'ACCEPT';
      }
      case 'SNAT': {
        const r2 = natRange(d);
        out.nat = { kind: 'snat', addr: r2.addr ?? p.src, port: r2.port };
        return 'ACCEPT';
      }
      case 'MASQUERADE': {
        const a = env.masqAddress();
        if (!a) {
          out.dropBy = hit;
          return 'DROP';
        }
        out.nat = { kind: 'snat', addr: a, port: null };
        return 'ACCEPT';
      }
      case 'REJECT':
        out.dropBy = hit;
        out.reject = typeof d['with'] === 'string' ? d['with'] : 'icmp-port-unreachable';
        return 'DROP';
      default:
        // Targets this model does not run (CT, TPROXY, ...) change nothing.
        continue;
    }
  }
  return 'ACCEPT';
}

/**
 * Runs hook `hook` over `p` in a namespace's iptables. `nat` says whether the nat table takes
 * part (only for a connection's first packet, as conntrack decides).
 */
export function runHook(
  ipt: IptablesState,
  family: 4 | 6,
  hook: Hook,
  p: Packet,
  env: HookEnv,
  nat: boolean,
): HookResult {
  const out: HookResult = {
    verdict: 'ACCEPT',
    hits: [],
    tables: [],
    mark: p.mark,
    nat: null,
  };
  const pkt = { ...p };
  for (const table of HOOK_TABLES[hook]) {
    if (table === 'nat' && !nat) continue;
    const v = runTable(ipt, family, table, hook, pkt, env, out);
    if (v === 'DROP') {
      out.verdict = 'DROP';
      return out;
    }
  }
  return out;
}

function bump(c: Counters, bytes: number): Counters {
  return {
    packets: (BigInt(c.packets) + 1n).toString(),
    bytes: (BigInt(c.bytes) + BigInt(bytes)).toString(),
  };
}

/**
 * Adds one packet of `bytes` to the counters of every rule in `hits` (and to a base chain's
 * policy counters when the policy decided). Returns the new state (the old one is untouched).
 */
export function bumpCounters(
  ipt: IptablesState,
  family: 4 | 6,
  hits: readonly ChainHit[],
  bytes: number,
): IptablesState {
  if (hits.length === 0) return ipt;
  const fam = family === 4 ? 'ipv4' : 'ipv6';
  let tables = { ...ipt[fam] };
  for (const h of hits) {
    const t = tables[h.table];
    if (!t) continue;
    const c = tget(t.chains, h.chain);
    if (!c) continue;
    const bumped: ChainState =
      h.rule < 0
        ? { ...c, counters: bump(c.counters ?? { packets: '0', bytes: '0' }, bytes) }
        : {
            ...c,
            rules: c.rules.map((r, i) =>
              i === h.rule ? { ...r, counters: bump(r.counters, bytes) } : r,
            ),
          };
    tables = { ...tables, [h.table]: { chains: withEntry(t.chains, h.chain, bumped) } };
  }
  return { ...ipt, [fam]: tables };
}

/** Whether `ip` parses and has family `v`. */
export function sameFamily(ip: string, v: IP['v']): boolean {
  return parseIP(ip)?.v === v;
}
