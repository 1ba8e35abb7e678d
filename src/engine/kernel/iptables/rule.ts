/**
 * From a parsed command line to rules: the rest of do_parse() (address lists, option/command
 * compatibility, chain checks) and the canonical form nf_tables gives a rule once iptables-nft
 * reads it back (tcp/udp port matches become native payload expressions: default ranges vanish
 * and several tcp matches merge into the first one).
 */
import { ParamError } from './errors';
import { parseAddrList, type ParsedAddr } from './inet';
import {
  CMD_APPEND,
  CMD_CHECK,
  CMD_DELETE,
  CMD_INSERT,
  CMD_REPLACE,
  genericOptCheck,
  INV_DST,
  INV_FRAG,
  INV_IN,
  INV_OUT,
  INV_PROTO,
  INV_SRC,
  type ParsedCommand,
} from './parse';
import { ruleKey } from './render';
import type { ExtData, Family, MatchInst, Rule, TargetInst } from './types';
import { ZERO_COUNTERS } from './types';

export interface RuleTemplate {
  readonly srcs: readonly ParsedAddr[];
  readonly dsts: readonly ParsedAddr[];
}

const RULE_CMDS = CMD_REPLACE | CMD_INSERT | CMD_DELETE | CMD_APPEND | CMD_CHECK;

/** post_parse + the remaining checks of do_parse(). */
export function postParse(p: ParsedCommand, family: Family): RuleTemplate {
  const any = family === 'ipv4' ? '0.0.0.0/0' : '::/0';
  let srcText = p.srcText;
  let dstText = p.dstText;
  if (p.command & RULE_CMDS) {
    srcText ??= any;
    dstText ??= any;
  }
  const parse = (text: string | undefined): readonly ParsedAddr[] => {
    if (text === undefined) return [];
    const r = parseAddrList(text, family === 'ipv6');
    if (!r.ok) throw new ParamError(r.error);
    return r.addrs;
  };
  const srcs = parse(srcText);
  const dsts = parse(dstText);
  if ((srcs.length > 1 || dsts.length > 1) && p.invflags & (INV_SRC | INV_DST))
    throw new ParamError('! not allowed with multiple source or destination IP addresses');
  if (p.command === CMD_REPLACE && (srcs.length !== 1 || dsts.length !== 1))
    throw new ParamError('Replacement rule does not specify a unique address');
  genericOptCheck(p.command, p.options);
  if (p.chain !== undefined && p.chain.length >= 29)
    throw new ParamError(`chain name \`${p.chain}' too long (must be under 29 chars)`);
  if (p.command & RULE_CMDS && p.chain !== undefined) {
    if ((p.chain === 'PREROUTING' || p.chain === 'INPUT') && p.outIface !== undefined)
      throw new ParamError(`Can't use -o with ${p.chain}\n`);
    if ((p.chain === 'POSTROUTING' || p.chain === 'OUTPUT') && p.inIface !== undefined)
      throw new ParamError(`Can't use -i with ${p.chain}\n`);
  }
  for (const m of p.matches) {
    if (m.ext.name === 'tcp' && p.proto !== 6) throw new ParamError("TCP match requires '-p tcp'");
    if (m.ext.name === 'udp' && p.proto !== 17) throw new ParamError("UDP match requires '-p udp'");
  }
  return { srcs, dsts };
}

function pairOf(d: ExtData, k: string): [number, number] {
  const v = d[k];
  return Array.isArray(v) ? [Number(v[0]), Number(v[1])] : [0, 0xffff];
}

/** tcp/udp matches the way nf_tables stores them and iptables-nft reads them back. */
function canonicalMatches(list: readonly MatchInst[]): MatchInst[] {
  const out: MatchInst[] = [];
  for (const m of list) {
    if (m.name !== 'tcp' && m.name !== 'udp') {
      out.push(m);
      continue;
    }
    const d = m.data;
    const inv = Number(d['inv'] ?? 0);
    const [s0, s1] = pairOf(d, 'spts');
    const [d0, d1] = pairOf(d, 'dpts');
    const extra = m.name === 'tcp' && (inv & ~3 || Number(d['flgMask']) || Number(d['option']));
    const allZero = s0 === 0 && s1 === 0xffff && d0 === 0 && d1 === 0xffff && inv === 0;
    if (extra || allZero) {
      out.push(m);
      continue;
    }
    const hasS = s0 !== 0 || s1 !== 0xffff;
    const hasD = d0 !== 0 || d1 !== 0xffff;
    if (!hasS && !hasD) continue;
    const idx = out.findIndex((x) => x.name === m.name);
    const base = idx >= 0 ? out[idx]!.data : { ...d, spts: [0, 0xffff], dpts: [0, 0xffff], inv: 0 };
    let binv = Number(base['inv'] ?? 0);
    let merged: ExtData = base;
    if (hasS) {
      merged = { ...merged, spts: [s0, s1] };
      binv = (binv & ~1) | (inv & 1);
    }
    if (hasD) {
      merged = { ...merged, dpts: [d0, d1] };
      binv = (binv & ~2) | (inv & 2);
    }
    merged = { ...merged, inv: binv };
    if (idx >= 0) out[idx] = { name: m.name, data: merged };
    else out.push({ name: m.name, data: merged });
  }
  return out;
}

export interface BuiltRule {
  readonly rule: Rule;
  /** The address was inverted with a zero mask (the kernel rejects it: EINVAL). */
  readonly invalidAnyInvert: boolean;
}

/** One rule per (source, destination) combination, sources outermost. */
export function buildRules(p: ParsedCommand, t: RuleTemplate, family: Family): BuiltRule[] {
  const matches = canonicalMatches(p.matches.map((m) => ({ name: m.ext.name, data: m.data })));
  let target: TargetInst | undefined;
  if (p.target) target = { kind: 'ext', name: p.target.ext.name, data: p.target.data };
  else if (!p.goto && ['ACCEPT', 'DROP', 'RETURN', 'QUEUE'].includes(p.jumpto))
    target = { kind: 'verdict', verdict: p.jumpto as 'ACCEPT' | 'DROP' | 'RETURN' | 'QUEUE' };
  else if (p.jumpto !== '') target = { kind: 'chain', chain: p.jumpto, goto: p.goto };
  const out: BuiltRule[] = [];
  for (const s of t.srcs) {
    for (const d of t.dsts) {
      const sInv = (p.invflags & INV_SRC) !== 0;
      const dInv = (p.invflags & INV_DST) !== 0;
      const inIface =
        p.inIface !== undefined && !(p.inIface === '+' && !(p.invflags & INV_IN))
          ? { name: p.inIface, invert: (p.invflags & INV_IN) !== 0 }
          : undefined;
      const outIface =
        p.outIface !== undefined && !(p.outIface === '+' && !(p.invflags & INV_OUT))
          ? { name: p.outIface, invert: (p.invflags & INV_OUT) !== 0 }
          : undefined;
      const base: Omit<Rule, 'key'> = {
        ...(s.any && !sInv ? {} : { src: { addr: s.addr, mask: s.mask, invert: sInv } }),
        ...(d.any && !dInv ? {} : { dst: { addr: d.addr, mask: d.mask, invert: dInv } }),
        ...(inIface ? { inIface } : {}),
        ...(outIface ? { outIface } : {}),
        ...(p.proto !== 0
          ? { proto: { num: p.proto, invert: (p.invflags & INV_PROTO) !== 0 } }
          : {}),
        ...(p.fragment ? { fragment: { invert: (p.invflags & INV_FRAG) !== 0 } } : {}),
        matches,
        ...(target ? { target } : {}),
        counters: p.counters ?? ZERO_COUNTERS,
      };
      out.push({
        rule: { ...base, key: ruleKey(base, family) },
        invalidAnyInvert: (s.any && sInv) || (d.any && dInv),
      });
    }
  }
  return out;
}
