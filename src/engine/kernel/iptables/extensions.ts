/**
 * The iptables extensions the model knows (libxt_* / libipt_* / libip6t_* of iptables 1.8.9):
 * how each parses its options (with the exact error texts), what it prints for `-S` /
 * iptables-save and for `-L`, and which kernel checks it is subject to.
 *
 * Matches: comment, tcp, udp, sctp, dccp (ports), icmp, icmp6, multiport, mark, addrtype,
 * conntrack (--ctstate, --ctstatus), state, physdev.
 * Targets: MASQUERADE, SNAT, DNAT, REDIRECT, MARK, REJECT, LOG (ACCEPT/DROP/RETURN/QUEUE and
 * chain jumps are handled by the rule code).
 */
import { ParamError } from './errors';
import { formatIp4, formatIp6, inetPton4, inetPton6 } from './inet';
import { getProtoByNumber, getServByName, getServByPort } from './netdb';
import { hex32, xtStrtoui, xtStrtouiEnd } from './numparse';
import type { ExtData, Family, Hook, TableName } from './types';

// ------------------------------------------------------------------------------------------------
// Framework.

export interface ExtOption {
  readonly name: string;
  readonly id: number;
  /** getopt has_arg: 0 none, 1 required. */
  readonly hasArg: 0 | 1;
  /** xtopt flags (only for xtopt-style extensions). */
  readonly invert?: boolean;
  readonly mand?: boolean;
  readonly multi?: boolean;
  /** Ids this option excludes (xtopt .excl). */
  readonly excl?: readonly number[];
}

export interface ParseInput {
  readonly id: number;
  readonly arg: string | undefined;
  readonly invert: boolean;
  readonly family: Family;
  /** Protocol given so far with -p (0 = none) and whether it was negated. */
  readonly proto: number;
  readonly protoInvert: boolean;
  /** Ids of this extension instance's options already seen. */
  readonly seen: number;
  /** argv[optind] (the word after the option's argument), if any. */
  peek(): string | undefined;
  /** optind++ */
  advance(): void;
  /** Extra stderr output printed while parsing (warnings). */
  warn(text: string): void;
}

export interface CheckCtx {
  readonly family: Family;
  readonly table: TableName;
  /** The hook of the base chain the rule is added to (creation-time checks), if any. */
  readonly hook: Hook | undefined;
  readonly proto: number;
  readonly protoInvert: boolean;
}

export interface RenderCtx {
  readonly family: Family;
  readonly proto: number;
}

export interface Extension {
  readonly name: string;
  readonly kind: 'match' | 'target';
  readonly families: readonly Family[];
  /** xtopt-style extensions get the generic once/invert/mandatory/exclusion checks. */
  readonly xtopt: boolean;
  readonly options: readonly ExtOption[];
  init(family: Family): ExtData;
  parse(data: ExtData, input: ParseInput): ExtData;
  /** x6_fcheck / final_check (run before the generic xtopt checks). */
  finalCheck?(data: ExtData, seen: number, family: Family): void;
  save(data: ExtData, ctx: RenderCtx): string;
  print(data: ExtData, numeric: boolean, ctx: RenderCtx): string;
  /** Kernel checkentry at rule creation: false = EINVAL. */
  checkEntry?(data: ExtData, ctx: CheckCtx): boolean;
  /** Targets: the xt table restriction (checked at creation). */
  readonly table?: TableName;
  /** Targets: the hooks they are valid in (checked from every base chain that reaches them). */
  readonly hooks?: readonly Hook[];
}

function canonicalName(ext: Extension, id: number): string {
  return ext.options.find((o) => o.id === id)?.name ?? '';
}

/** xtables_option_parse(): the generic checks of xtopt-style options. */
export function xtoptPreParse(ext: Extension, opt: ExtOption, seen: number, invert: boolean): void {
  const name = canonicalName(ext, opt.id);
  const eflag = 1 << opt.id;
  if ((!opt.multi || (opt.excl ?? []).includes(opt.id)) && (seen & eflag) !== 0)
    throw new ParamError(`${ext.name}: option "--${name}" can only be used once.\n`);
  if (invert && !opt.invert)
    throw new ParamError(`${ext.name}: option "--${name}" cannot be inverted.\n`);
}

/** xtables_options_fcheck(). */
export function xtoptFinalCheck(ext: Extension, seen: number): void {
  const done = new Set<number>();
  for (const entry of ext.options) {
    if (done.has(entry.id)) continue;
    done.add(entry.id);
    if (entry.mand && (seen & (1 << entry.id)) === 0)
      throw new ParamError(`${ext.name}: option "--${entry.name}" must be specified\n`);
    if ((seen & (1 << entry.id)) === 0) continue;
    for (const i of [...(entry.excl ?? [])].sort((a, b) => a - b)) {
      if (i === entry.id || (seen & (1 << i)) === 0) continue;
      throw new ParamError(
        `${ext.name}: option "--${entry.name}" cannot be used together with "--${canonicalName(ext, i)}".\n`,
      );
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Shared helpers.

const NO_QUOTE = /^[_\-0-9a-zA-Z]+$/;

/** xtables_save_string(): quote unless only [_-0-9a-zA-Z]; escape " \ ' with a backslash. */
export function saveString(value: string): string {
  if (NO_QUOTE.test(value)) return ' ' + value;
  return ' "' + value.replace(/["\\']/g, (c) => '\\' + c) + '"';
}

function protoName(num: number): string | undefined {
  return getProtoByNumber(num);
}

/** xtables_parse_port(): base-0 number or getservbyname(name, proto). */
function parsePortProto(port: string, proto: string): number {
  const n = xtStrtoui(port, 0, 65535);
  if (n !== undefined) return n;
  const s = getServByName(port, proto);
  if (s !== undefined) return s;
  throw new ParamError(`invalid port/service \`${port}' specified`);
}

/** getservbyname(name, NULL): the first protocol that knows it. */
function serviceAnyProto(name: string): number | undefined {
  return getServByName(name, 'tcp') ?? getServByName(name, 'udp');
}

/** xtables_getportbyname(): getaddrinfo(NULL, service) semantics (decimal or any service). */
function getPortByName(name: string): number | undefined {
  const m = /^[ \t\n\v\f\r]*([+-]?)([0-9]*)$/.exec(name);
  if (m && (m[2] !== '' || (m[1] === '' && name.trim() === ''))) {
    if (m[2] === '') return 0;
    let v = BigInt(m[2]!) & 0xffffffffffffffffn;
    if (m[1] === '-') v = (0x10000000000000000n - v) & 0xffffffffffffffffn;
    return Number(v & 0xffffn);
  }
  return serviceAnyProto(name);
}

function portName(port: number, proto: string, numeric: boolean): string {
  if (numeric) return String(port);
  return getServByPort(port, proto) ?? String(port);
}

/** tcp/udp/sctp/dccp print_ports(). */
function printPorts(
  label: string,
  lo: number,
  hi: number,
  invert: boolean,
  proto: string,
  numeric: boolean,
): string {
  if (lo === 0 && hi === 0xffff && !invert) return '';
  const inv = invert ? '!' : '';
  if (lo === hi) return ` ${label}:${inv}${portName(lo, proto, numeric)}`;
  return ` ${label}s:${inv}${portName(lo, proto, numeric)}:${portName(hi, proto, numeric)}`;
}

function savePortRange(opt: string, lo: number, hi: number, invert: boolean): string {
  return `${invert ? ' !' : ''} --${opt} ${lo === hi ? lo : `${lo}:${hi}`}`;
}

/** parse_tcp_ports() and friends: "a", "a:b", ":b", "a:". */
function parsePortRange(text: string, proto: string): [number, number] {
  const colon = text.indexOf(':');
  if (colon < 0) {
    const p = parsePortProto(text, proto);
    return [p, p];
  }
  const a = text.slice(0, colon);
  const b = text.slice(colon + 1);
  const lo = a !== '' ? parsePortProto(a, proto) : 0;
  const hi = b !== '' ? parsePortProto(b, proto) : 0xffff;
  if (lo > hi) throw new ParamError('invalid portrange (min > max)');
  return [lo, hi];
}

/** xtopt XTTYPE_PORTRC (udp, dccp): up to two ':'-separated components. */
function parsePortRc(ext: string, optName: string, text: string): [number, number] {
  const parts = text.split(':');
  const vals: number[] = [];
  for (const part of parts) {
    if (vals.length === 2)
      throw new ParamError(`${ext}: Too many components for option "--${optName}" (max: 2)\n`);
    if (part === '') vals.push(vals.length === 1 ? 0xffff : 0);
    else {
      const v = getPortByName(part);
      if (v === undefined) throw new ParamError(`Port "${part}" does not resolve to anything.\n`);
      vals.push(v);
    }
  }
  return [vals[0]!, vals[1] ?? vals[0]!];
}

function num(d: ExtData, k: string): number {
  const v = d[k];
  return typeof v === 'number' ? v : 0;
}

function bool(d: ExtData, k: string): boolean {
  return d[k] === true;
}

function str(d: ExtData, k: string): string {
  const v = d[k];
  return typeof v === 'string' ? v : '';
}

function pair(d: ExtData, k: string): [number, number] {
  const v = d[k];
  if (Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'number') return [v[0], v[1]];
  return [0, 0xffff];
}

/** xtopt XTTYPE_MARKMASK32 (value[/mask]) and XTTYPE_UINT32. */
function parseMark(
  ext: string,
  optName: string,
  text: string,
  withMask: boolean,
): [number, number] {
  if (!withMask) {
    const v = xtStrtoui(text, 0, 0xffffffff);
    if (v === undefined)
      throw new ParamError(
        `${ext}: bad value for option "--${optName}", or out of range (0-4294967295).\n`,
      );
    return [v >>> 0, 0xffffffff];
  }
  const bad = (): never => {
    throw new ParamError(`${ext}: bad integer value for option "--${optName}", or out of range.\n`);
  };
  const r = xtStrtouiEnd(text, 0, 0xffffffff);
  if (r === undefined) return bad();
  let mask = 0xffffffff;
  let rest = text.slice(r.end);
  if (rest[0] === '/') {
    const m = xtStrtouiEnd(rest.slice(1), 0, 0xffffffff);
    if (m === undefined) return bad();
    mask = m.value;
    rest = rest.slice(1 + m.end);
  }
  if (rest !== '')
    throw new ParamError(`${ext}: trailing garbage after value for option "--${optName}".\n`);
  return [r.value >>> 0, mask >>> 0];
}

function printMark(mark: number, mask: number): string {
  return mask !== 0xffffffff ? ` ${hex32(mark)}/${hex32(mask)}` : ` ${hex32(mark)}`;
}

/** xtables_parse_interface() (the caller has checked emptiness where iptables does). */
export function parseInterface(arg: string, warn: (t: string) => void): string {
  if (arg.length + 1 > 16)
    throw new ParamError(`interface name \`${arg}' must be shorter than IFNAMSIZ (15)`);
  if (arg.length > 0 && !arg.endsWith('+') && /[/ ]/.test(arg))
    warn(
      `Warning: weird character in interface \`${arg}' ('/' and ' ' are not allowed by the kernel).\n`,
    );
  return arg;
}

// ------------------------------------------------------------------------------------------------
// comment

const comment: Extension = {
  name: 'comment',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [{ name: 'comment', id: 0, hasArg: 1, mand: true }],
  init: () => ({ comment: '' }),
  parse: (_d, i) => ({ comment: (i.arg ?? '').slice(0, 255) }),
  save: (d) => ' --comment' + saveString(str(d, 'comment')),
  print: (d) => ` /* ${str(d, 'comment')} */`,
};

// ------------------------------------------------------------------------------------------------
// tcp (old-style option parsing)

const TCP_FLAG_NAMES: readonly (readonly [string, number])[] = [
  ['FIN', 0x01],
  ['SYN', 0x02],
  ['RST', 0x04],
  ['PSH', 0x08],
  ['ACK', 0x10],
  ['URG', 0x20],
  ['ALL', 0x3f],
  ['NONE', 0],
];

function parseTcpFlagList(text: string): number {
  let v = 0;
  for (const f of text.split(',')) {
    const hit = TCP_FLAG_NAMES.find(([n]) => n.toLowerCase() === f.toLowerCase());
    if (!hit) throw new ParamError(`Unknown TCP flag \`${f}'`);
    v |= hit[1];
  }
  return v;
}

function printTcpFlags(flags: number): string {
  const names: string[] = [];
  let f = flags;
  while (f) {
    const hit = TCP_FLAG_NAMES.find(([, bit]) => (f & bit) !== 0)!;
    names.push(hit[0]);
    f &= ~hit[1];
  }
  return names.length === 0 ? 'NONE' : names.join(',');
}

// invflags bits
const INV_SRC = 1;
const INV_DST = 2;
const INV_FLAGS = 4;
const INV_OPTION = 8;

const tcp: Extension = {
  name: 'tcp',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: false,
  options: [
    { name: 'source-port', id: 1, hasArg: 1 },
    { name: 'sport', id: 1, hasArg: 1 },
    { name: 'destination-port', id: 2, hasArg: 1 },
    { name: 'dport', id: 2, hasArg: 1 },
    { name: 'syn', id: 3, hasArg: 0 },
    { name: 'tcp-flags', id: 4, hasArg: 1 },
    { name: 'tcp-option', id: 5, hasArg: 1 },
  ],
  init: () => ({ spts: [0, 0xffff], dpts: [0, 0xffff], option: 0, flgMask: 0, flgCmp: 0, inv: 0 }),
  parse(d, i) {
    const inv = num(d, 'inv');
    const flagsSeen = (i.seen & ((1 << 3) | (1 << 4))) !== 0;
    switch (i.id) {
      case 1:
        if (i.seen & (1 << 1)) throw new ParamError("Only one `--source-port' allowed");
        return {
          ...d,
          spts: parsePortRange(i.arg ?? '', 'tcp'),
          inv: i.invert ? inv | INV_SRC : inv,
        };
      case 2:
        if (i.seen & (1 << 2)) throw new ParamError("Only one `--destination-port' allowed");
        return {
          ...d,
          dpts: parsePortRange(i.arg ?? '', 'tcp'),
          inv: i.invert ? inv | INV_DST : inv,
        };
      case 3:
        if (flagsSeen) throw new ParamError("Only one of `--syn' or `--tcp-flags'  allowed");
        return { ...d, flgMask: 0x17, flgCmp: 0x02, inv: i.invert ? inv | INV_FLAGS : inv };
      case 4: {
        if (flagsSeen) throw new ParamError("Only one of `--syn' or `--tcp-flags'  allowed");
        const next = i.peek();
        if (next === undefined || next.startsWith('-') || next.startsWith('!'))
          throw new ParamError('--tcp-flags requires two args.');
        const mask = parseTcpFlagList(i.arg ?? '');
        const cmp = parseTcpFlagList(next);
        i.advance();
        return { ...d, flgMask: mask, flgCmp: cmp, inv: i.invert ? inv | INV_FLAGS : inv };
      }
      default: {
        if (i.seen & (1 << 5)) throw new ParamError("Only one `--tcp-option' allowed");
        const o = xtStrtoui(i.arg ?? '', 1, 255);
        if (o === undefined) throw new ParamError(`Bad TCP option "${i.arg ?? ''}"`);
        return { ...d, option: o, inv: i.invert ? inv | INV_OPTION : inv };
      }
    }
  },
  save(d) {
    const [s0, s1] = pair(d, 'spts');
    const [d0, d1] = pair(d, 'dpts');
    const inv = num(d, 'inv');
    let out = '';
    if (s0 !== 0 || s1 !== 0xffff) out += savePortRange('sport', s0, s1, (inv & INV_SRC) !== 0);
    if (d0 !== 0 || d1 !== 0xffff) out += savePortRange('dport', d0, d1, (inv & INV_DST) !== 0);
    if (num(d, 'option') || inv & INV_OPTION)
      out += `${inv & INV_OPTION ? ' !' : ''} --tcp-option ${num(d, 'option')}`;
    if (num(d, 'flgMask') || inv & INV_FLAGS)
      out += `${inv & INV_FLAGS ? ' !' : ''} --tcp-flags ${printTcpFlags(num(d, 'flgMask'))} ${printTcpFlags(num(d, 'flgCmp'))}`;
    return out;
  },
  print(d, numeric) {
    const inv = num(d, 'inv');
    const [s0, s1] = pair(d, 'spts');
    const [d0, d1] = pair(d, 'dpts');
    let out = ' tcp';
    out += printPorts('spt', s0, s1, (inv & INV_SRC) !== 0, 'tcp', numeric);
    out += printPorts('dpt', d0, d1, (inv & INV_DST) !== 0, 'tcp', numeric);
    if (num(d, 'option') || inv & INV_OPTION)
      out += ` option=${inv & INV_OPTION ? '!' : ''}${num(d, 'option')}`;
    if (num(d, 'flgMask') || inv & INV_FLAGS) {
      out += ` flags:${inv & INV_FLAGS ? '!' : ''}`;
      const m = num(d, 'flgMask');
      const c = num(d, 'flgCmp');
      out += numeric
        ? `0x${m.toString(16).toUpperCase().padStart(2, '0')}/0x${c.toString(16).toUpperCase().padStart(2, '0')}`
        : `${printTcpFlags(m)}/${printTcpFlags(c)}`;
    }
    return out;
  },
};

// ------------------------------------------------------------------------------------------------
// udp (xtopt, XTTYPE_PORTRC)

const udp: Extension = {
  name: 'udp',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'source-port', id: 0, hasArg: 1, invert: true },
    { name: 'sport', id: 0, hasArg: 1, invert: true },
    { name: 'destination-port', id: 1, hasArg: 1, invert: true },
    { name: 'dport', id: 1, hasArg: 1, invert: true },
  ],
  init: () => ({ spts: [0, 0xffff], dpts: [0, 0xffff], inv: 0 }),
  parse(d, i) {
    const inv = num(d, 'inv');
    if (i.id === 0)
      return {
        ...d,
        spts: parsePortRc('udp', 'source-port', i.arg ?? ''),
        inv: i.invert ? inv | INV_SRC : inv,
      };
    return {
      ...d,
      dpts: parsePortRc('udp', 'destination-port', i.arg ?? ''),
      inv: i.invert ? inv | INV_DST : inv,
    };
  },
  save(d) {
    const [s0, s1] = pair(d, 'spts');
    const [d0, d1] = pair(d, 'dpts');
    const inv = num(d, 'inv');
    let out = '';
    if (s0 !== 0 || s1 !== 0xffff) out += savePortRange('sport', s0, s1, (inv & INV_SRC) !== 0);
    if (d0 !== 0 || d1 !== 0xffff) out += savePortRange('dport', d0, d1, (inv & INV_DST) !== 0);
    return out;
  },
  print(d, numeric) {
    const inv = num(d, 'inv');
    const [s0, s1] = pair(d, 'spts');
    const [d0, d1] = pair(d, 'dpts');
    return (
      ' udp' +
      printPorts('spt', s0, s1, (inv & INV_SRC) !== 0, 'udp', numeric) +
      printPorts('dpt', d0, d1, (inv & INV_DST) !== 0, 'udp', numeric)
    );
  },
};

// ------------------------------------------------------------------------------------------------
// sctp, dccp (ports only; other options of these matches are not modelled)

function portsOnly(name: string, xtopt: boolean): Extension {
  return {
    name,
    kind: 'match',
    families: ['ipv4', 'ipv6'],
    xtopt,
    options: [
      { name: 'source-port', id: 0, hasArg: 1, invert: true },
      { name: 'sport', id: 0, hasArg: 1, invert: true },
      { name: 'destination-port', id: 1, hasArg: 1, invert: true },
      { name: 'dport', id: 1, hasArg: 1, invert: true },
    ],
    init: () => ({ spts: [0, 0xffff], dpts: [0, 0xffff], inv: 0, set: 0 }),
    parse(d, i) {
      const inv = num(d, 'inv');
      const set = num(d, 'set');
      const bit = i.id === 0 ? INV_SRC : INV_DST;
      if (!xtopt && i.seen & (1 << i.id))
        throw new ParamError(
          i.id === 0 ? "Only one `--source-port' allowed" : "Only one `--destination-port' allowed",
        );
      const range = xtopt
        ? parsePortRc(name, i.id === 0 ? 'source-port' : 'destination-port', i.arg ?? '')
        : parsePortRange(i.arg ?? '', name);
      return {
        ...d,
        [i.id === 0 ? 'spts' : 'dpts']: range,
        inv: i.invert ? inv | bit : inv,
        set: set | bit,
      };
    },
    save(d) {
      const inv = num(d, 'inv');
      const set = num(d, 'set');
      let out = '';
      if (set & INV_SRC) out += savePortRange('sport', ...pair(d, 'spts'), (inv & INV_SRC) !== 0);
      if (set & INV_DST) out += savePortRange('dport', ...pair(d, 'dpts'), (inv & INV_DST) !== 0);
      return out;
    },
    print(d, numeric) {
      const inv = num(d, 'inv');
      const set = num(d, 'set');
      let out = ` ${name}`;
      if (set & INV_SRC)
        out += printPorts('spt', ...pair(d, 'spts'), (inv & INV_SRC) !== 0, name, numeric);
      if (set & INV_DST)
        out += printPorts('dpt', ...pair(d, 'dpts'), (inv & INV_DST) !== 0, name, numeric);
      return out;
    },
  };
}

// ------------------------------------------------------------------------------------------------
// icmp, icmp6

type IcmpName = readonly [string, number, number, number];

const ICMP_CODES: readonly IcmpName[] = [
  ['any', 0xff, 0, 0xff],
  ['echo-reply', 0, 0, 0xff],
  ['pong', 0, 0, 0xff],
  ['destination-unreachable', 3, 0, 0xff],
  ['network-unreachable', 3, 0, 0],
  ['host-unreachable', 3, 1, 1],
  ['protocol-unreachable', 3, 2, 2],
  ['port-unreachable', 3, 3, 3],
  ['fragmentation-needed', 3, 4, 4],
  ['source-route-failed', 3, 5, 5],
  ['network-unknown', 3, 6, 6],
  ['host-unknown', 3, 7, 7],
  ['network-prohibited', 3, 9, 9],
  ['host-prohibited', 3, 10, 10],
  ['TOS-network-unreachable', 3, 11, 11],
  ['TOS-host-unreachable', 3, 12, 12],
  ['communication-prohibited', 3, 13, 13],
  ['host-precedence-violation', 3, 14, 14],
  ['precedence-cutoff', 3, 15, 15],
  ['source-quench', 4, 0, 0xff],
  ['redirect', 5, 0, 0xff],
  ['network-redirect', 5, 0, 0],
  ['host-redirect', 5, 1, 1],
  ['TOS-network-redirect', 5, 2, 2],
  ['TOS-host-redirect', 5, 3, 3],
  ['echo-request', 8, 0, 0xff],
  ['ping', 8, 0, 0xff],
  ['router-advertisement', 9, 0, 0xff],
  ['router-solicitation', 10, 0, 0xff],
  ['time-exceeded', 11, 0, 0xff],
  ['ttl-exceeded', 11, 0, 0xff],
  ['ttl-zero-during-transit', 11, 0, 0],
  ['ttl-zero-during-reassembly', 11, 1, 1],
  ['parameter-problem', 12, 0, 0xff],
  ['ip-header-bad', 12, 0, 0],
  ['required-option-missing', 12, 1, 1],
  ['timestamp-request', 13, 0, 0xff],
  ['timestamp-reply', 14, 0, 0xff],
  ['address-mask-request', 17, 0, 0xff],
  ['address-mask-reply', 18, 0, 0xff],
];

const ICMP6_CODES: readonly IcmpName[] = [
  ['destination-unreachable', 1, 0, 0xff],
  ['no-route', 1, 0, 0],
  ['communication-prohibited', 1, 1, 1],
  ['beyond-scope', 1, 2, 2],
  ['address-unreachable', 1, 3, 3],
  ['port-unreachable', 1, 4, 4],
  ['failed-policy', 1, 5, 5],
  ['reject-route', 1, 6, 6],
  ['packet-too-big', 2, 0, 0xff],
  ['time-exceeded', 3, 0, 0xff],
  ['ttl-exceeded', 3, 0, 0xff],
  ['ttl-zero-during-transit', 3, 0, 0],
  ['ttl-zero-during-reassembly', 3, 1, 1],
  ['parameter-problem', 4, 0, 0xff],
  ['bad-header', 4, 0, 0],
  ['unknown-header-type', 4, 1, 1],
  ['unknown-option', 4, 2, 2],
  ['echo-request', 128, 0, 0xff],
  ['ping', 128, 0, 0xff],
  ['echo-reply', 129, 0, 0xff],
  ['pong', 129, 0, 0xff],
  ['mld-listener-query', 130, 0, 0xff],
  ['mld-listener-report', 131, 0, 0xff],
  ['mld-listener-done', 132, 0, 0xff],
  ['mld-listener-reduction', 132, 0, 0xff],
  ['router-solicitation', 133, 0, 0xff],
  ['router-advertisement', 134, 0, 0xff],
  ['neighbour-solicitation', 135, 0, 0xff],
  ['neighbor-solicitation', 135, 0, 0xff],
  ['neighbour-advertisement', 136, 0, 0xff],
  ['neighbor-advertisement', 136, 0, 0xff],
  ['redirect', 137, 0, 0xff],
];

function parseIcmpType(
  text: string,
  table: readonly IcmpName[],
  label: string,
): [number, number, number] {
  let match = -1;
  table.forEach(([name], i) => {
    if (name.slice(0, text.length).toLowerCase() === text.toLowerCase()) {
      if (match >= 0)
        throw new ParamError(
          `Ambiguous ${label} type \`${text}': \`${table[match]![0]}' or \`${name}'?`,
        );
      match = i;
    }
  });
  if (match >= 0) {
    const [, t, c0, c1] = table[match]!;
    return [t, c0, c1];
  }
  const slash = text.indexOf('/');
  const typeText = slash >= 0 ? text.slice(0, slash) : text;
  const type = xtStrtoui(typeText, 0, 255);
  if (type === undefined) throw new ParamError(`Unknown ${label} type \`${text}'`);
  if (slash < 0) return [type, 0, 0xff];
  const code = xtStrtoui(text.slice(slash + 1), 0, 255);
  if (code === undefined) throw new ParamError(`Unknown ${label} code \`${text}'`);
  return [type, code, code];
}

function icmpExt(v6: boolean): Extension {
  const table = v6 ? ICMP6_CODES : ICMP_CODES;
  const label = v6 ? 'ICMPv6' : 'ICMP';
  const opt = v6 ? 'icmpv6-type' : 'icmp-type';
  const word = v6 ? 'ipv6-icmp' : 'icmp';
  return {
    name: v6 ? 'icmp6' : 'icmp',
    kind: 'match',
    families: [v6 ? 'ipv6' : 'ipv4'],
    xtopt: true,
    options: [{ name: opt, id: 0, hasArg: 1, invert: true, mand: true }],
    init: () => ({ type: v6 ? 0 : 0xff, code: [0, 0xff], inv: false }),
    parse(d, i) {
      if (v6 && (i.arg ?? '').toLowerCase() === 'any')
        throw new ParamError(`Unknown ${label} type \`${i.arg ?? ''}'`);
      const [t, c0, c1] = parseIcmpType(i.arg ?? '', v6 ? table : table, label);
      return { ...d, type: t, code: [c0, c1], inv: i.invert };
    },
    save(d) {
      const t = num(d, 'type');
      const [c0, c1] = pair(d, 'code');
      const inv = bool(d, 'inv') ? ' !' : '';
      if (!v6 && t === 0xff) return `${inv} --${opt} any`;
      return `${inv} --${opt} ${t}${c0 !== 0 || c1 !== 0xff ? `/${c0}` : ''}`;
    },
    print(d, numeric) {
      const t = num(d, 'type');
      const [c0, c1] = pair(d, 'code');
      const inv = bool(d, 'inv');
      if (!numeric) {
        const hit = table.find(([, tt, a, b]) => tt === t && a === c0 && b === c1);
        if (hit) return ` ${word} ${inv ? '!' : ''}${hit[0]}`;
      }
      let out = ` ${word}${inv ? ' !' : ''}type ${t}`;
      if (c0 === c1) out += ` code ${c0}`;
      else if (c0 !== 0 || c1 !== 0xff) out += ` codes ${c0}-${c1}`;
      return out;
    },
    checkEntry: (_d, ctx) => ctx.proto === (v6 ? 58 : 1) && !ctx.protoInvert,
  };
}

// ------------------------------------------------------------------------------------------------
// multiport (revision 1)

const MULTIPORT_PROTOS: { readonly [n: number]: string } = {
  6: 'tcp',
  17: 'udp',
  136: 'udplite',
  132: 'sctp',
  33: 'dccp',
};

const multiport: Extension = {
  name: 'multiport',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'source-ports', id: 0, hasArg: 1, invert: true, excl: [0, 1, 2] },
    { name: 'sports', id: 0, hasArg: 1, invert: true, excl: [0, 1, 2] },
    { name: 'destination-ports', id: 1, hasArg: 1, invert: true, excl: [0, 1, 2] },
    { name: 'dports', id: 1, hasArg: 1, invert: true, excl: [0, 1, 2] },
    { name: 'ports', id: 2, hasArg: 1, invert: true, excl: [0, 1, 2] },
  ],
  init: () => ({ dir: '', ports: [], invert: false }),
  parse(d, i) {
    if (i.protoInvert)
      throw new ParamError('multiport only works with TCP, UDP, UDPLITE, SCTP and DCCP');
    const proto = MULTIPORT_PROTOS[i.proto];
    if (proto === undefined) {
      if (i.proto === 0)
        throw new ParamError(
          "multiport needs `-p tcp', `-p udp', `-p udplite', `-p sctp' or `-p dccp'",
        );
      throw new ParamError('multiport only works with TCP, UDP, UDPLITE, SCTP and DCCP');
    }
    const entries: number[][] = [];
    let count = 0;
    const items = (i.arg ?? '').split(',');
    let idx = 0;
    for (; idx < items.length && count < 15; idx++) {
      const item = items[idx]!;
      const colon = item.indexOf(':');
      if (colon >= 0) {
        if (count === 14) throw new ParamError('too many ports specified');
        const lo = parsePortProto(item.slice(0, colon), proto);
        const hi = parsePortProto(item.slice(colon + 1), proto);
        if (lo >= hi) throw new ParamError('invalid portrange specified');
        entries.push([lo, hi]);
        count += 2;
      } else {
        entries.push([parsePortProto(item, proto)]);
        count += 1;
      }
    }
    if (idx < items.length) throw new ParamError('too many ports specified');
    return { dir: ['sports', 'dports', 'ports'][i.id] ?? '', ports: entries, invert: i.invert };
  },
  finalCheck(_d, seen) {
    if (seen === 0) throw new ParamError('multiport expection an option');
  },
  save(d) {
    return `${bool(d, 'invert') ? ' !' : ''} --${str(d, 'dir')} ${portsText(d, 'tcp', true)}`;
  },
  print(d, numeric, ctx) {
    const proto = MULTIPORT_PROTOS[ctx.proto] ?? 'tcp';
    return ` multiport ${str(d, 'dir')} ${bool(d, 'invert') ? ' !' : ''}${portsText(d, proto, numeric)}`;
  },
};

function portsText(d: ExtData, proto: string, numeric: boolean): string {
  const ports = d['ports'];
  if (!Array.isArray(ports)) return '';
  return ports
    .map((e) =>
      Array.isArray(e) ? e.map((p) => portName(Number(p), proto, numeric)).join(':') : '',
    )
    .join(',');
}

// ------------------------------------------------------------------------------------------------
// mark (revision 1)

const mark: Extension = {
  name: 'mark',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [{ name: 'mark', id: 0, hasArg: 1, invert: true, mand: true }],
  init: () => ({ mark: 0, mask: 0xffffffff, invert: false }),
  parse(_d, i) {
    const [m, k] = parseMark('mark', 'mark', i.arg ?? '', true);
    return { mark: m, mask: k, invert: i.invert };
  },
  save: (d) =>
    `${bool(d, 'invert') ? ' !' : ''} --mark${printMark(num(d, 'mark'), num(d, 'mask'))}`,
  print: (d) =>
    ` mark match${bool(d, 'invert') ? ' !' : ''}${printMark(num(d, 'mark'), num(d, 'mask'))}`,
};

// ------------------------------------------------------------------------------------------------
// addrtype (revision 1)

const RTN_NAMES = [
  'UNSPEC',
  'UNICAST',
  'LOCAL',
  'BROADCAST',
  'ANYCAST',
  'MULTICAST',
  'BLACKHOLE',
  'UNREACHABLE',
  'PROHIBIT',
  'THROW',
  'NAT',
  'XRESOLVE',
];

function parseAddrTypes(arg: string): number {
  let mask = 0;
  const one = (name: string): boolean => {
    const i = RTN_NAMES.findIndex(
      (n) =>
        n.slice(0, name.length).toLowerCase() === name.toLowerCase() && name.length <= n.length,
    );
    if (i < 0) return false;
    mask |= 1 << i;
    return true;
  };
  let rest = arg;
  let comma: number;
  while ((comma = rest.indexOf(',')) >= 0) {
    if (comma === 0 || !one(rest.slice(0, comma)))
      throw new ParamError(`addrtype: bad type \`${rest}'`);
    rest = rest.slice(comma + 1);
  }
  if (rest.length === 0 || !one(rest)) throw new ParamError(`addrtype: bad type "${rest}"`);
  return mask;
}

function addrTypeNames(mask: number): string {
  return RTN_NAMES.filter((_, i) => mask & (1 << i)).join(',');
}

const addrtype: Extension = {
  name: 'addrtype',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'src-type', id: 0, hasArg: 1, invert: true },
    { name: 'dst-type', id: 1, hasArg: 1, invert: true },
    { name: 'limit-iface-in', id: 2, hasArg: 0, excl: [3] },
    { name: 'limit-iface-out', id: 3, hasArg: 0, excl: [2] },
  ],
  init: () => ({ src: 0, dst: 0, srcInv: false, dstInv: false, limitIn: false, limitOut: false }),
  parse(d, i) {
    switch (i.id) {
      case 0:
        return { ...d, src: parseAddrTypes(i.arg ?? ''), srcInv: i.invert };
      case 1:
        return { ...d, dst: parseAddrTypes(i.arg ?? ''), dstInv: i.invert };
      case 2:
        return { ...d, limitIn: true };
      default:
        return { ...d, limitOut: true };
    }
  },
  finalCheck(_d, seen) {
    if ((seen & 3) === 0)
      throw new ParamError('addrtype: you must specify --src-type or --dst-type');
  },
  save(d) {
    let out = '';
    if (num(d, 'src'))
      out += `${bool(d, 'srcInv') ? ' !' : ''} --src-type ${addrTypeNames(num(d, 'src'))}`;
    if (num(d, 'dst'))
      out += `${bool(d, 'dstInv') ? ' !' : ''} --dst-type ${addrTypeNames(num(d, 'dst'))}`;
    if (bool(d, 'limitIn')) out += ' --limit-iface-in';
    if (bool(d, 'limitOut')) out += ' --limit-iface-out';
    return out;
  },
  print(d) {
    let out = ' ADDRTYPE match';
    if (num(d, 'src'))
      out += ` src-type ${bool(d, 'srcInv') ? '!' : ''}${addrTypeNames(num(d, 'src'))}`;
    if (num(d, 'dst'))
      out += ` dst-type ${bool(d, 'dstInv') ? '!' : ''}${addrTypeNames(num(d, 'dst'))}`;
    if (bool(d, 'limitIn')) out += ' limit-in';
    if (bool(d, 'limitOut')) out += ' limit-out';
    return out;
  },
  checkEntry(d, ctx) {
    const h = ctx.hook;
    if (bool(d, 'limitOut') && (h === 'PREROUTING' || h === 'INPUT')) return false;
    if (bool(d, 'limitIn') && (h === 'POSTROUTING' || h === 'OUTPUT')) return false;
    if (ctx.family === 'ipv6') {
      const types = num(d, 'src') | num(d, 'dst');
      if (types & (1 << 6) || types >= 1 << 8 || types & (1 << 3)) return false;
    }
    return true;
  },
};

// ------------------------------------------------------------------------------------------------
// conntrack (revision 3: --ctstate and --ctstatus) and state

const CT_STATES: readonly (readonly [string, number])[] = [
  ['INVALID', 1],
  ['NEW', 8],
  ['RELATED', 4],
  ['ESTABLISHED', 2],
  ['UNTRACKED', 64],
  ['SNAT', 128],
  ['DNAT', 256],
];
const CT_STATE_PRINT = ['INVALID', 'NEW', 'RELATED', 'ESTABLISHED', 'UNTRACKED', 'SNAT', 'DNAT'];
const CT_STATUS: readonly (readonly [string, number])[] = [
  ['NONE', 0],
  ['EXPECTED', 1],
  ['SEEN_REPLY', 2],
  ['ASSURED', 4],
  ['CONFIRMED', 8],
];

function prefixIs(word: string, full: string): boolean {
  return (
    full.slice(0, word.length).toLowerCase() === word.toLowerCase() && word.length <= full.length
  );
}

function parseList(
  arg: string,
  names: readonly (readonly [string, number])[],
  error: (s: string) => string,
  emptyLast?: string,
): number {
  let v = 0;
  const one = (w: string): boolean => {
    const hit = names.find(([n]) => prefixIs(w, n));
    if (!hit) return false;
    v |= hit[1];
    return true;
  };
  let rest = arg;
  let comma: number;
  while ((comma = rest.indexOf(',')) >= 0) {
    if (comma === 0 || !one(rest.slice(0, comma))) throw new ParamError(error(rest));
    rest = rest.slice(comma + 1);
  }
  if (rest === '' && emptyLast !== undefined) throw new ParamError(emptyLast);
  if (rest === '' || !one(rest)) throw new ParamError(error(rest));
  return v;
}

function stateNames(mask: number): string {
  return CT_STATE_PRINT.filter((n) => mask & CT_STATES.find(([m]) => m === n)![1]).join(',');
}

function statusNames(mask: number): string {
  if (mask === 0) return 'NONE';
  return ['EXPECTED', 'SEEN_REPLY', 'ASSURED', 'CONFIRMED']
    .filter((n) => mask & CT_STATUS.find(([m]) => m === n)![1])
    .join(',');
}

const conntrack: Extension = {
  name: 'conntrack',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'ctstate', id: 0, hasArg: 1, invert: true },
    { name: 'ctstatus', id: 1, hasArg: 1, invert: true },
  ],
  init: () => ({ state: null, stateInv: false, status: null, statusInv: false }),
  parse(d, i) {
    if (i.id === 0)
      return {
        ...d,
        state: parseList(i.arg ?? '', CT_STATES, (s) => `Bad ctstate "${s}"`),
        stateInv: i.invert,
      };
    return {
      ...d,
      status: parseList(i.arg ?? '', CT_STATUS, (s) => `Bad ctstatus "${s}"`),
      statusInv: i.invert,
    };
  },
  finalCheck(_d, seen) {
    if (seen === 0) throw new ParamError('conntrack: At least one option is required');
  },
  save(d) {
    let out = '';
    if (d['state'] !== null)
      out += `${bool(d, 'stateInv') ? ' !' : ''} --ctstate ${stateNames(num(d, 'state'))}`;
    if (d['status'] !== null)
      out += `${bool(d, 'statusInv') ? ' !' : ''} --ctstatus ${statusNames(num(d, 'status'))}`;
    return out;
  },
  print(d) {
    let out = '';
    if (d['state'] !== null)
      out += `${bool(d, 'stateInv') ? ' !' : ''} ctstate ${stateNames(num(d, 'state'))}`;
    if (d['status'] !== null)
      out += `${bool(d, 'statusInv') ? ' !' : ''} ctstatus ${statusNames(num(d, 'status'))}`;
    return out;
  },
};

const STATE_NAMES: readonly (readonly [string, number])[] = [
  ['INVALID', 1],
  ['NEW', 8],
  ['ESTABLISHED', 2],
  ['RELATED', 4],
  ['UNTRACKED', 64],
];

const state: Extension = {
  name: 'state',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [{ name: 'state', id: 0, hasArg: 1, invert: true, mand: true }],
  init: () => ({ state: 0, invert: false }),
  parse: (_d, i) => ({
    state: parseList(
      i.arg ?? '',
      STATE_NAMES,
      (s) => `Bad state "${s}"`,
      '"--state" requires a list of states with no spaces, e.g. ESTABLISHED,RELATED',
    ),
    invert: i.invert,
  }),
  save: (d) => `${bool(d, 'invert') ? ' !' : ''} --state ${stateNames(num(d, 'state'))}`,
  print: (d) => `${bool(d, 'invert') ? ' !' : ''} state ${stateNames(num(d, 'state'))}`,
};

// ------------------------------------------------------------------------------------------------
// physdev

const PHYS_IN = 1;
const PHYS_OUT = 2;
const PHYS_BRIDGED = 4;
const PHYS_ISIN = 8;
const PHYS_ISOUT = 16;

const physdev: Extension = {
  name: 'physdev',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'physdev-in', id: 0, hasArg: 1, invert: true },
    { name: 'physdev-out', id: 1, hasArg: 1, invert: true },
    { name: 'physdev-is-in', id: 2, hasArg: 0, invert: true },
    { name: 'physdev-is-out', id: 3, hasArg: 0, invert: true },
    { name: 'physdev-is-bridged', id: 4, hasArg: 0, invert: true },
  ],
  init: () => ({ bits: 0, inv: 0, in: '', out: '' }),
  parse(d, i) {
    const bit = [PHYS_IN, PHYS_OUT, PHYS_ISIN, PHYS_ISOUT, PHYS_BRIDGED][i.id] ?? 0;
    const next = {
      ...d,
      bits: num(d, 'bits') | bit,
      inv: i.invert ? num(d, 'inv') | bit : num(d, 'inv'),
    };
    if (i.id === 0) return { ...next, in: parseInterface(i.arg ?? '', i.warn) };
    if (i.id === 1) return { ...next, out: parseInterface(i.arg ?? '', i.warn) };
    return next;
  },
  finalCheck(_d, seen) {
    if (seen === 0) throw new ParamError('PHYSDEV: no physdev option specified');
  },
  save: (d) => physdevText(d),
  print: (d) => ' PHYSDEV match' + physdevText(d),
  checkEntry(d, ctx) {
    const bits = num(d, 'bits');
    const inv = num(d, 'inv');
    return !(
      bits & (PHYS_OUT | PHYS_ISOUT) &&
      (!(bits & PHYS_BRIDGED) || inv & PHYS_BRIDGED) &&
      ctx.hook === 'OUTPUT'
    );
  },
};

function physdevText(d: ExtData): string {
  const bits = num(d, 'bits');
  const inv = num(d, 'inv');
  const n = (b: number): string => (inv & b ? ' !' : '');
  let out = '';
  if (bits & PHYS_ISIN) out += `${n(PHYS_ISIN)} --physdev-is-in`;
  if (bits & PHYS_IN) out += `${n(PHYS_IN)} --physdev-in ${str(d, 'in')}`;
  if (bits & PHYS_ISOUT) out += `${n(PHYS_ISOUT)} --physdev-is-out`;
  if (bits & PHYS_OUT) out += `${n(PHYS_OUT)} --physdev-out ${str(d, 'out')}`;
  if (bits & PHYS_BRIDGED) out += `${n(PHYS_BRIDGED)} --physdev-is-bridged`;
  return out;
}

// ------------------------------------------------------------------------------------------------
// NAT targets (libxt_NAT.c of 1.8.9: SNAT, DNAT, MASQUERADE, REDIRECT)

function portOk(i: ParseInput): boolean {
  return [6, 17, 132, 33, 1].includes(i.proto);
}

interface PortRange {
  min: number;
  max: number;
  base?: number;
}

function natParsePorts(arg: string, ok: boolean): PortRange {
  if (!ok) throw new ParamError('Need TCP, UDP, SCTP or DCCP with port specification');
  let port: number;
  let end: number;
  const r = xtStrtouiEnd(arg, 0, 65535);
  if (r === undefined) {
    const s = serviceAnyProto(arg);
    if (s === undefined) throw new ParamError(`Port \`${arg}' not valid`);
    port = s;
    end = arg.length;
  } else {
    port = r.value;
    end = r.end;
  }
  const rest = arg.slice(end);
  if (rest === '') return { min: port, max: port };
  if (rest[0] === ':') throw new ParamError('Invalid port:port syntax - use dash');
  if (rest[0] !== '-') throw new ParamError(`Garbage after port value: \`${rest}'`);
  const second = rest.slice(1);
  const r2 = xtStrtouiEnd(second, 0, 65535);
  if (r2 === undefined) throw new ParamError(`Port \`${second}' not valid`);
  if (r2.value < port) throw new ParamError(`Port range \`${second}' funky`);
  const rest2 = second.slice(r2.end);
  if (rest2 === '') return { min: port, max: r2.value };
  if (rest2[0] !== '/') throw new ParamError(`Garbage after port range: \`${rest2}'`);
  const b = xtStrtouiEnd(rest2.slice(1), 1, 65535);
  if (b === undefined || b.end !== rest2.length - 1)
    throw new ParamError(`Port \`${rest2.slice(1)}' not valid`);
  return { min: port, max: r2.value, base: b.value };
}

function natParseTo(orig: string, ok: boolean, family: Family, dropBase: boolean): ExtData {
  let start: string;
  let colonPart: string | undefined;
  const bracket = orig.indexOf('[');
  if (bracket < 0) {
    const colon = orig.indexOf(':');
    if (colon >= 0 && orig.indexOf(':', colon + 1) < 0) {
      start = orig.slice(0, colon);
      colonPart = orig.slice(colon + 1);
    } else {
      start = orig;
    }
  } else {
    const inner = orig.slice(bracket + 1);
    const close = inner.indexOf(']');
    if (close < 0 || family === 'ipv4') throw new ParamError('Invalid address format');
    start = inner.slice(0, close);
    const after = inner.slice(close + 1);
    const colon = after.indexOf(':');
    if (colon >= 0) colonPart = after.slice(colon + 1);
  }
  let ports: PortRange | undefined;
  if (colonPart !== undefined) {
    ports = natParsePorts(colonPart, ok);
    if (dropBase) ports = withoutBase(ports);
    if (start === '') return { ports: portsData(ports) };
  }
  const dash = start.indexOf('-');
  const lo = dash >= 0 ? start.slice(0, dash) : start;
  const hi = dash >= 0 ? start.slice(dash + 1) : undefined;
  const pton = (s: string): string | undefined => {
    if (family === 'ipv4') {
      const v = inetPton4(s);
      return v === undefined ? undefined : formatIp4(v);
    }
    const v = inetPton6(s);
    return v === undefined ? undefined : formatIp6(v);
  };
  const min = pton(lo);
  if (min === undefined) throw new ParamError(`Bad IP address "${lo}"`);
  let max = min;
  if (hi !== undefined) {
    const m = pton(hi);
    if (m === undefined) throw new ParamError(`Bad IP address "${hi}"`);
    max = m;
  }
  return { minAddr: min, maxAddr: max, ports: ports ? portsData(ports) : null };
}

/** SNAT, MASQUERADE and REDIRECT keep the "/base" flag but not its value (shown as /0). */
function withoutBase(p: PortRange): PortRange {
  return p.base === undefined ? p : { ...p, base: 0 };
}

function portsData(p: PortRange): ExtData {
  return p.base === undefined
    ? { min: p.min, max: p.max }
    : { min: p.min, max: p.max, base: p.base };
}

function rangeText(range: ExtData | null, family: Family): string {
  if (range === null) return '';
  const ports = range['ports'];
  const hasPorts = ports !== null && typeof ports === 'object' && !Array.isArray(ports);
  let out = '';
  if (typeof range['minAddr'] === 'string') {
    const br = family === 'ipv6' && hasPorts;
    out += br ? '[' : '';
    out += range['minAddr'];
    if (range['maxAddr'] !== range['minAddr']) out += `-${String(range['maxAddr'])}`;
    out += br ? ']' : '';
  }
  if (hasPorts) {
    const p = ports as ExtData;
    out += `:${num(p, 'min')}`;
    if (num(p, 'max') !== num(p, 'min')) out += `-${num(p, 'max')}`;
    if (typeof p['base'] === 'number') out += `/${p['base']}`;
  }
  return out;
}

function rangeOf(d: ExtData): ExtData | null {
  const r = d['range'];
  return r !== null && typeof r === 'object' && !Array.isArray(r) ? (r as ExtData) : null;
}

function portsOnlyText(d: ExtData): string {
  const p = rangeOf(d);
  if (p === null) return '';
  const base = typeof p['base'] === 'number' ? `/${p['base']}` : '';
  return (
    (num(p, 'min') === num(p, 'max') ? `${num(p, 'min')}` : `${num(p, 'min')}-${num(p, 'max')}`) +
    base
  );
}

function natTarget(name: 'SNAT' | 'DNAT'): Extension {
  const snat = name === 'SNAT';
  const opt = snat ? 'to-source' : 'to-destination';
  const options: ExtOption[] = [
    { name: opt, id: 0, hasArg: 1, mand: true },
    { name: 'random', id: 1, hasArg: 0 },
    { name: 'persistent', id: 2, hasArg: 0 },
  ];
  if (snat) options.push({ name: 'random-fully', id: 3, hasArg: 0 });
  return {
    name,
    kind: 'target',
    families: ['ipv4', 'ipv6'],
    xtopt: true,
    options,
    init: () => ({ range: null, random: false, randomFully: false, persistent: false }),
    parse(d, i) {
      switch (i.id) {
        case 0:
          return { ...d, range: natParseTo(i.arg ?? '', portOk(i), i.family, snat) };
        case 1:
          return { ...d, random: true };
        case 2:
          return { ...d, persistent: true };
        default:
          return { ...d, randomFully: true };
      }
    },
    save(d, ctx) {
      let out = ` --${opt} ${rangeText(rangeOf(d), ctx.family)}`;
      if (bool(d, 'random')) out += ' --random';
      if (bool(d, 'randomFully')) out += ' --random-fully';
      if (bool(d, 'persistent')) out += ' --persistent';
      return out;
    },
    print(d, _n, ctx) {
      let out = ` to:${rangeText(rangeOf(d), ctx.family)}`;
      if (bool(d, 'random')) out += ' random';
      if (bool(d, 'randomFully')) out += ' random-fully';
      if (bool(d, 'persistent')) out += ' persistent';
      return out;
    },
    table: 'nat',
    hooks: snat ? ['POSTROUTING', 'INPUT'] : ['PREROUTING', 'OUTPUT'],
  };
}

const masquerade: Extension = {
  name: 'MASQUERADE',
  kind: 'target',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'to-ports', id: 0, hasArg: 1 },
    { name: 'random', id: 1, hasArg: 0 },
    { name: 'random-fully', id: 2, hasArg: 0 },
  ],
  init: () => ({ range: null, random: false, randomFully: false }),
  parse(d, i) {
    if (i.id === 0)
      return { ...d, range: portsData(withoutBase(natParsePorts(i.arg ?? '', portOk(i)))) };
    return i.id === 1 ? { ...d, random: true } : { ...d, randomFully: true };
  },
  save(d) {
    let out = rangeOf(d) ? ` --to-ports ${portsOnlyText(d)}` : '';
    if (bool(d, 'random')) out += ' --random';
    if (bool(d, 'randomFully')) out += ' --random-fully';
    return out;
  },
  print(d) {
    let out = rangeOf(d) ? ` masq ports: ${portsOnlyText(d)}` : '';
    if (bool(d, 'random')) out += ' random';
    if (bool(d, 'randomFully')) out += ' random-fully';
    return out;
  },
  table: 'nat',
  hooks: ['POSTROUTING'],
};

const redirect: Extension = {
  name: 'REDIRECT',
  kind: 'target',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'to-ports', id: 0, hasArg: 1 },
    { name: 'random', id: 1, hasArg: 0 },
  ],
  init: () => ({ range: null, random: false }),
  parse(d, i) {
    if (i.id === 0)
      return { ...d, range: portsData(withoutBase(natParsePorts(i.arg ?? '', portOk(i)))) };
    return { ...d, random: true };
  },
  save: (d) =>
    (rangeOf(d) ? ` --to-ports ${portsOnlyText(d)}` : '') + (bool(d, 'random') ? ' --random' : ''),
  print: (d) =>
    (rangeOf(d) ? ` redir ports ${portsOnlyText(d)}` : '') + (bool(d, 'random') ? ' random' : ''),
  table: 'nat',
  hooks: ['PREROUTING', 'OUTPUT'],
};

// ------------------------------------------------------------------------------------------------
// MARK (revision 2)

const markTarget: Extension = {
  name: 'MARK',
  kind: 'target',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'set-xmark', id: 4, hasArg: 1, excl: [0, 1, 2, 3, 4] },
    { name: 'set-mark', id: 0, hasArg: 1, excl: [0, 1, 2, 3, 4] },
    { name: 'and-mark', id: 1, hasArg: 1, excl: [0, 1, 2, 3, 4] },
    { name: 'or-mark', id: 2, hasArg: 1, excl: [0, 1, 2, 3, 4] },
    { name: 'xor-mark', id: 3, hasArg: 1, excl: [0, 1, 2, 3, 4] },
  ],
  init: () => ({ mark: 0, mask: 0 }),
  parse(_d, i) {
    const name = ['set-mark', 'and-mark', 'or-mark', 'xor-mark', 'set-xmark'][i.id] ?? '';
    const arg = i.arg ?? '';
    switch (i.id) {
      case 4: {
        const [m, k] = parseMark('MARK', name, arg, true);
        return { mark: m, mask: k };
      }
      case 0: {
        const [m, k] = parseMark('MARK', name, arg, true);
        return { mark: m, mask: (m | k) >>> 0 };
      }
      case 1: {
        const [v] = parseMark('MARK', name, arg, false);
        return { mark: 0, mask: ~v >>> 0 };
      }
      case 2: {
        const [v] = parseMark('MARK', name, arg, false);
        return { mark: v, mask: v };
      }
      default: {
        const [v] = parseMark('MARK', name, arg, false);
        return { mark: v, mask: 0 };
      }
    }
  },
  finalCheck(_d, seen) {
    if (seen === 0)
      throw new ParamError(
        'MARK: One of the --set-xmark, --{and,or,xor,set}-mark options is required',
      );
  },
  save: (d) => ` --set-xmark ${hex32(num(d, 'mark'))}/${hex32(num(d, 'mask'))}`,
  print(d) {
    const m = num(d, 'mark');
    const k = num(d, 'mask');
    if (m === 0) return ` MARK and ${hex32(~k >>> 0)}`;
    if (m === k) return ` MARK or ${hex32(m)}`;
    if (k === 0) return ` MARK xor ${hex32(m)}`;
    if (k === 0xffffffff) return ` MARK set ${hex32(m)}`;
    return ` MARK xset ${hex32(m)}/${hex32(k)}`;
  },
};

// ------------------------------------------------------------------------------------------------
// REJECT

const REJECT4: readonly (readonly [string, string])[] = [
  ['icmp-net-unreachable', 'net-unreach'],
  ['icmp-host-unreachable', 'host-unreach'],
  ['icmp-proto-unreachable', 'proto-unreach'],
  ['icmp-port-unreachable', 'port-unreach'],
  ['icmp-net-prohibited', 'net-prohib'],
  ['icmp-host-prohibited', 'host-prohib'],
  ['tcp-reset', 'tcp-rst'],
  ['icmp-admin-prohibited', 'admin-prohib'],
];

const REJECT6: readonly (readonly [string, string])[] = [
  ['icmp6-no-route', 'no-route'],
  ['icmp6-adm-prohibited', 'adm-prohibited'],
  ['icmp6-addr-unreachable', 'addr-unreach'],
  ['icmp6-port-unreachable', 'port-unreach'],
  ['tcp-reset', 'tcp-reset'],
  ['icmp6-policy-fail', 'policy-fail'],
  ['icmp6-reject-route', 'reject-route'],
];

function rejectTarget(v6: boolean): Extension {
  const table = v6 ? REJECT6 : REJECT4;
  return {
    name: 'REJECT',
    kind: 'target',
    families: [v6 ? 'ipv6' : 'ipv4'],
    xtopt: true,
    options: [{ name: 'reject-with', id: 0, hasArg: 1 }],
    init: () => ({ with: v6 ? 'icmp6-port-unreachable' : 'icmp-port-unreachable' }),
    parse(_d, i) {
      const arg = i.arg ?? '';
      const starts = (full: string): boolean =>
        full.slice(0, arg.length).toLowerCase() === arg.toLowerCase() && arg.length <= full.length;
      for (const [name, alias] of table) if (starts(name) || starts(alias)) return { with: name };
      if (starts('echo-reply') || starts('echoreply'))
        i.warn('--reject-with echo-reply no longer supported\n');
      throw new ParamError(`unknown reject type "${arg}"`);
    },
    save: (d) => ` --reject-with ${str(d, 'with')}`,
    print: (d) => ` reject-with ${str(d, 'with')}`,
    checkEntry: (d, ctx) => str(d, 'with') !== 'tcp-reset' || (ctx.proto === 6 && !ctx.protoInvert),
    table: 'filter',
    hooks: ['INPUT', 'FORWARD', 'OUTPUT'],
  };
}

// ------------------------------------------------------------------------------------------------
// LOG

const LOG_LEVELS_PARSE = ['emerg', 'alert', 'crit', 'error', 'warning', 'notice', 'info', 'debug'];
const LOG_LEVELS_PRINT = ['emerg', 'alert', 'crit', 'err', 'warn', 'notice', 'info', 'debug'];

const log: Extension = {
  name: 'LOG',
  kind: 'target',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'log-level', id: 0, hasArg: 1 },
    { name: 'log-prefix', id: 1, hasArg: 1 },
    { name: 'log-tcp-sequence', id: 2, hasArg: 0 },
    { name: 'log-tcp-options', id: 3, hasArg: 0 },
    { name: 'log-ip-options', id: 4, hasArg: 0 },
    { name: 'log-uid', id: 5, hasArg: 0 },
    { name: 'log-macdecode', id: 6, hasArg: 0 },
  ],
  init: () => ({ level: 4, prefix: '', flags: 0 }),
  parse(d, i) {
    const arg = i.arg ?? '';
    switch (i.id) {
      case 0: {
        let level = xtStrtoui(arg, 0, 7);
        if (level === undefined) {
          const idx = LOG_LEVELS_PARSE.indexOf(arg);
          if (idx >= 0) level = idx;
          else if (arg === 'panic') level = 0;
          else throw new ParamError(`log level "${arg}" unknown\n`);
        }
        return { ...d, level };
      }
      case 1:
        if (arg.length < 1)
          throw new ParamError('Argument must have a minimum length of 1 characters\n');
        return { ...d, prefix: arg.slice(0, 29) };
      default: {
        const bit = [0, 0, 1, 2, 4, 8, 0x20][i.id] ?? 0;
        return { ...d, flags: num(d, 'flags') | bit };
      }
    }
  },
  save(d) {
    let out = '';
    if (str(d, 'prefix') !== '') out += ' --log-prefix' + saveString(str(d, 'prefix'));
    if (num(d, 'level') !== 4) out += ` --log-level ${num(d, 'level')}`;
    const f = num(d, 'flags');
    if (f & 1) out += ' --log-tcp-sequence';
    if (f & 2) out += ' --log-tcp-options';
    if (f & 4) out += ' --log-ip-options';
    if (f & 8) out += ' --log-uid';
    if (f & 0x20) out += ' --log-macdecode';
    return out;
  },
  print(d, numeric) {
    const f = num(d, 'flags');
    let out = ' LOG';
    if (numeric) out += ` flags ${f} level ${num(d, 'level')}`;
    else {
      out += ` level ${LOG_LEVELS_PRINT[num(d, 'level')] ?? ''}`;
      if (f & 1) out += ' tcp-sequence';
      if (f & 2) out += ' tcp-options';
      if (f & 4) out += ' ip-options';
      if (f & 8) out += ' uid';
      if (f & 0x20) out += ' macdecode';
    }
    if (str(d, 'prefix') !== '') out += ` prefix "${str(d, 'prefix')}"`;
    return out;
  },
};

// ------------------------------------------------------------------------------------------------
// Registry.

const MATCHES: readonly Extension[] = [
  comment,
  tcp,
  udp,
  portsOnly('sctp', false),
  portsOnly('dccp', true),
  icmpExt(false),
  icmpExt(true),
  multiport,
  mark,
  addrtype,
  conntrack,
  state,
  physdev,
];

const TARGETS: readonly Extension[] = [
  masquerade,
  natTarget('SNAT'),
  natTarget('DNAT'),
  redirect,
  markTarget,
  rejectTarget(false),
  rejectTarget(true),
  log,
];

export function findMatch(name: string, family: Family): Extension | undefined {
  const n = name === 'icmpv6' || name === 'ipv6-icmp' ? 'icmp6' : name;
  return MATCHES.find((m) => m.name === n && m.families.includes(family));
}

export function findTarget(name: string, family: Family): Extension | undefined {
  return TARGETS.find((t) => t.name === name && t.families.includes(family));
}

/** Extensions installed on a Debian bookworm node (libxt_*.so & co) that the model lacks. */
const OTHER_MATCHES = [
  'ah',
  'bpf',
  'cgroup',
  'cluster',
  'connbytes',
  'connlabel',
  'connlimit',
  'connmark',
  'cpu',
  'devgroup',
  'dscp',
  'ecn',
  'esp',
  'hashlimit',
  'helper',
  'ipcomp',
  'iprange',
  'ipvs',
  'length',
  'limit',
  'mac',
  'nfacct',
  'osf',
  'owner',
  'pkttype',
  'policy',
  'quota',
  'rateest',
  'recent',
  'rpfilter',
  'set',
  'socket',
  'statistic',
  'string',
  'tcpmss',
  'time',
  'tos',
  'u32',
  'realm',
  'ttl',
  'dst',
  'eui64',
  'frag',
  'hbh',
  'hl',
  'ipv6header',
  'mh',
  'rt',
  'srh',
];
const OTHER_TARGETS_BOTH = [
  'AUDIT',
  'CHECKSUM',
  'CLASSIFY',
  'CONNMARK',
  'CONNSECMARK',
  'CT',
  'DSCP',
  'HMARK',
  'IDLETIMER',
  'LED',
  'NETMAP',
  'NFLOG',
  'NFQUEUE',
  'NOTRACK',
  'RATEEST',
  'SECMARK',
  'SET',
  'SYNPROXY',
  'TCPMSS',
  'TCPOPTSTRIP',
  'TEE',
  'TOS',
  'TPROXY',
  'TRACE',
];
const OTHER_TARGETS_4 = ['CLUSTERIP', 'ECN', 'TTL', 'ULOG'];
const OTHER_TARGETS_6 = ['DNPT', 'HL', 'SNPT'];

export function isUnmodelledMatch(name: string): boolean {
  return OTHER_MATCHES.includes(name);
}

export function isUnmodelledTarget(name: string, family: Family): boolean {
  return (
    OTHER_TARGETS_BOTH.includes(name) ||
    (family === 'ipv4' ? OTHER_TARGETS_4 : OTHER_TARGETS_6).includes(name)
  );
}

/** Whether `name` is a target extension (for `-N` "may not clash with target name"). */
export function isTargetName(name: string, family: Family): boolean {
  return (
    ['', 'ACCEPT', 'DROP', 'QUEUE', 'RETURN', 'standard'].includes(name) ||
    findTarget(name, family) !== undefined ||
    isUnmodelledTarget(name, family)
  );
}

/** The matches a protocol loads implicitly (`-p tcp --dport …`). */
export function protoMatchName(num: number, family: Family): string | undefined {
  const name = protoName(num) ?? (num === 58 ? 'ipv6-icmp' : undefined);
  if (name === undefined) return undefined;
  return findMatch(name, family)?.name;
}
