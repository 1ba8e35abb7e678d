/**
 * Output formats of iptables-nft 1.8.9: rule specs as `iptables -S` / iptables-save print them,
 * `iptables -L` tables (with their exact column widths), the verbose one-line rule print, and the
 * counters formatting (xtables_print_num).
 */
import { findMatch, findTarget } from './ext';
import { ip4ToAnyName } from './inet';
import { getProtoByNumber } from './netdb';
import type { AddrSpec, Counters, Family, Rule } from './types';
import { DAYS, MONTHS } from '../../trace/time';

const CHAIN_PROTOS: { readonly [n: number]: string } = {
  6: 'tcp',
  132: 'sctp',
  17: 'udp',
  136: 'udplite',
  1: 'icmp',
  58: 'icmpv6',
  50: 'esp',
  51: 'ah',
  135: 'mh',
  0: 'all',
};

/** proto_to_name(proto, 0): /etc/protocols first (except for 0), then xtables_chain_protos. */
export function protoToName(num: number): string | undefined {
  if (num !== 0) {
    const n = getProtoByNumber(num);
    if (n !== undefined) return n;
  }
  return CHAIN_PROTOS[num];
}

function addrSave(letter: string, a: AddrSpec | undefined): string {
  if (!a) return '';
  return `${a.invert ? ' !' : ''} -${letter} ${a.addr}/${a.mask}`;
}

/** The rule's text after `-A <chain>` (leading space per part, like the C code prints it). */
export function ruleSpecText(rule: Rule, family: Family, counters?: Counters): string {
  let out = addrSave('s', rule.src) + addrSave('d', rule.dst);
  if (rule.inIface) out += `${rule.inIface.invert ? ' !' : ''} -i ${rule.inIface.name}`;
  if (rule.outIface) out += `${rule.outIface.invert ? ' !' : ''} -o ${rule.outIface.name}`;
  if (rule.proto)
    out += `${rule.proto.invert ? ' !' : ''} -p ${protoToName(rule.proto.num) ?? rule.proto.num}`;
  if (rule.fragment) out += `${rule.fragment.invert ? ' !' : ''} -f`;
  const ctx = { family, proto: rule.proto?.num ?? 0 };
  for (const m of rule.matches) {
    const ext = findMatch(m.name, family);
    out += ` -m ${m.name}` + (ext ? ext.save(m.data, ctx) : '');
  }
  if (counters) out += ` -c ${counters.packets} ${counters.bytes}`;
  const t = rule.target;
  if (t) {
    if (t.kind === 'verdict') out += ` -j ${t.verdict}`;
    else if (t.kind === 'chain') out += ` ${t.goto ? '-g' : '-j'} ${t.chain}`;
    else {
      const ext = findTarget(t.name, family);
      out += ` -j ${t.name}` + (ext ? ext.save(t.data, ctx) : '');
    }
  }
  return out;
}

export function ruleKey(rule: Omit<Rule, 'key'>, family: Family): string {
  return ruleSpecText({ ...rule, key: '' }, family).slice(1);
}

export function targetLabel(rule: Rule): string {
  const t = rule.target;
  if (!t) return '';
  if (t.kind === 'verdict') return t.verdict;
  if (t.kind === 'chain') return t.chain;
  return t.name;
}

// ------------------------------------------------------------------------------------------------
// -L

export interface ListFormat {
  readonly numeric: boolean;
  readonly verbose: boolean;
  readonly exact: boolean;
  readonly lineNumbers: boolean;
}

const U64 = 0x10000000000000000n;

/** xtables_print_num(). `table` = column layout, otherwise FMT_NOTABLE. */
export function printNum(value: string, exact: boolean, table: boolean): string {
  if (exact) return table ? value.padStart(8) + ' ' : value + ' ';
  let n = BigInt(value);
  if (n <= 99999n) return table ? value.padStart(5) + ' ' : value + ' ';
  for (const unit of ['K', 'M', 'G']) {
    n = ((n + 500n) % U64) / 1000n;
    if (n <= 9999n) return (table ? n.toString().padStart(4) : n.toString()) + unit + ' ';
  }
  n = ((n + 500n) % U64) / 1000n;
  return (table ? n.toString().padStart(4) : n.toString()) + 'T ';
}

function listAddr(a: AddrSpec | undefined, family: Family, numeric: boolean): string {
  if (family === 'ipv4') {
    if (!a) return numeric ? '0.0.0.0/0' : 'anywhere';
    const host = numeric ? a.addr : ip4ToAnyName(a.addr);
    return host + (a.mask === '32' ? '' : `/${a.mask}`);
  }
  if (!a) return numeric ? '::/0' : 'anywhere';
  if (!numeric && a.addr === '::') return 'anywhere';
  return a.addr + (a.mask === '128' ? '' : `/${a.mask}`);
}

/** print_firewall(): one `-L` line (table layout) or the verbose rule print (notable). */
export function listRuleLine(
  rule: Rule,
  family: Family,
  fmt: ListFormat,
  num: number,
  notable = false,
): string {
  const table = !notable;
  let out = '';
  if (fmt.lineNumbers && table) out += String(num).padEnd(4) + ' ';
  if (fmt.verbose && table)
    out +=
      printNum(rule.counters.packets, fmt.exact, true) +
      printNum(rule.counters.bytes, fmt.exact, true);
  const label = targetLabel(rule);
  out += table ? label.padEnd(9) + ' ' : label + ' ';
  out += rule.proto?.invert ? '!' : ' ';
  const pnum = rule.proto?.num ?? 0;
  const pname = table && fmt.numeric ? String(pnum) : (protoToName(pnum) ?? String(pnum));
  out += table ? pname.padEnd(4) + ' ' : pname + ' ';
  if (notable) out += 'opt ';
  out += (rule.fragment?.invert ? '!' : '-') + (rule.fragment ? 'f' : '-') + ' ';
  if (fmt.verbose || notable) {
    const ifText = (i: Rule['inIface']): string =>
      (i?.invert ? '!' : '') + (i ? i.name : fmt.numeric || notable ? '*' : 'any');
    const iin = ifText(rule.inIface);
    const iout = ifText(rule.outIface);
    out += table ? ' ' + iin.padEnd(6) + ' ' + iout.padEnd(6) + ' ' : `in ${iin} out ${iout} `;
  }
  const numeric = fmt.numeric || notable;
  out += rule.src?.invert ? '!' : ' ';
  const src = listAddr(rule.src, family, numeric);
  out += table ? src.padEnd(19) + ' ' : src + ' ';
  out += rule.dst?.invert ? '!' : ' ';
  const dst = listAddr(rule.dst, family, numeric);
  out += table ? dst.padEnd(19) + ' ' : '-> ' + dst;
  if (notable) out += '  ';
  if (rule.target?.kind === 'chain' && rule.target.goto) out += '[goto] ';
  const ctx = { family, proto: pnum };
  for (const m of rule.matches) out += findMatch(m.name, family)?.print(m.data, numeric, ctx) ?? '';
  const t = rule.target;
  if (t?.kind === 'ext') out += findTarget(t.name, family)?.print(t.data, numeric, ctx) ?? '';
  return out + '\n';
}

export function listHeader(
  name: string,
  policy: { policy: string; counters: Counters } | undefined,
  refs: number,
  fmt: ListFormat,
): string {
  let out = `Chain ${name}`;
  if (policy) {
    out += ` (policy ${policy.policy}`;
    if (fmt.verbose)
      out +=
        ' ' +
        printNum(policy.counters.packets, fmt.exact, false) +
        'packets, ' +
        printNum(policy.counters.bytes, fmt.exact, false) +
        'bytes';
    out += ')\n';
  } else {
    out += ` (${refs} references)\n`;
  }
  if (fmt.lineNumbers) out += 'num'.padEnd(4) + ' ';
  if (fmt.verbose)
    out += fmt.exact
      ? 'pkts'.padStart(8) + ' ' + 'bytes'.padStart(10) + ' '
      : 'pkts'.padStart(5) + ' ' + 'bytes'.padStart(5) + ' ';
  out += 'target'.padEnd(9) + ' ' + ' prot ' + 'opt';
  if (fmt.verbose) out += ' ' + 'in'.padEnd(6) + ' ' + 'out'.padEnd(6) + ' ';
  out += ' ' + 'source'.padEnd(19) + ' ' + ' ' + 'destination'.padEnd(19) + ' ' + '\n';
  return out;
}

/** ctime(3)-style date of the iptables-save header, in UTC. */
export function ctimeUtc(d: Date): string {
  if (Number.isNaN(d.getTime())) return 'Thu Jan  1 00:00:00 1970';
  const p2 = (n: number): string => String(n).padStart(2, '0');
  return (
    `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ` +
    `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${d.getUTCFullYear()}`
  );
}
