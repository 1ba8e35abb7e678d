/**
 * The iptables 1.8.9 command line parser: glibc getopt_long() (RETURN_IN_ORDER, unique-prefix
 * long options, extension options merged as they get loaded) and xshared.c do_parse() with its
 * quirks (e.g. -s/-d/-p/-i/-o/-j take argv[optind-1], the whole word, so `-s1.2.3.4` fails).
 */
import { OtherError, ParamError, TryHelpError } from './errors';
import {
  type Extension,
  type ExtOption,
  findMatch,
  findTarget,
  isTargetName,
  isUnmodelledMatch,
  isUnmodelledTarget,
  parseInterface,
  protoMatchName,
  xtoptFinalCheck,
  xtoptPreParse,
} from './ext';
import { HELP_IPV4, HELP_IPV6 } from './help';
import { getProtoByName } from './netdb';
import { scanInt, scanLlu, xtStrtoui } from './numparse';
import type { ExtData, Family } from './types';

// Commands (xshared.h).
export const CMD_INSERT = 1 << 0;
export const CMD_DELETE = 1 << 1;
export const CMD_DELETE_NUM = 1 << 2;
export const CMD_REPLACE = 1 << 3;
export const CMD_APPEND = 1 << 4;
export const CMD_LIST = 1 << 5;
export const CMD_FLUSH = 1 << 6;
export const CMD_ZERO = 1 << 7;
export const CMD_NEW_CHAIN = 1 << 8;
export const CMD_DELETE_CHAIN = 1 << 9;
export const CMD_SET_POLICY = 1 << 10;
export const CMD_RENAME_CHAIN = 1 << 11;
export const CMD_LIST_RULES = 1 << 12;
export const CMD_ZERO_NUM = 1 << 13;
export const CMD_CHECK = 1 << 14;
const CMD_CHARS = 'IDDRALFZNXPESZC';

// Options.
export const OPT_NUMERIC = 1 << 0;
export const OPT_SOURCE = 1 << 1;
export const OPT_DESTINATION = 1 << 2;
export const OPT_PROTOCOL = 1 << 3;
export const OPT_JUMP = 1 << 4;
export const OPT_VERBOSE = 1 << 5;
export const OPT_EXPANDED = 1 << 6;
export const OPT_VIANAMEIN = 1 << 7;
export const OPT_VIANAMEOUT = 1 << 8;
export const OPT_LINENUMBERS = 1 << 9;
export const OPT_COUNTERS = 1 << 10;
export const OPT_FRAGMENT = 1 << 11;
const OPT_CHARS = 'nsdpjvxio0cf';
/** Options that accept a preceding `!` (inverse_for_options). */
const INVERTIBLE =
  OPT_SOURCE | OPT_DESTINATION | OPT_PROTOCOL | OPT_VIANAMEIN | OPT_VIANAMEOUT | OPT_FRAGMENT;

// commands_v_options: rows by command bit, columns n s d p j v x i o 0 c f.
const CMD_V_OPT = [
  'x     x  x  ', // INSERT
  'x     x  xx ', // DELETE
  'xxxxx xxxxxx', // DELETE_NUM
  'x     x  x  ', // REPLACE
  'x     x  x  ', // APPEND
  ' xxxx  xx xx', // LIST
  'xxxxx xxxxxx', // FLUSH
  'xxxxx xxxxxx', // ZERO
  'xxxxx xxxxxx', // NEW_CHAIN
  'xxxxx xxxxxx', // DELETE_CHAIN
  'xxxxx xxxx x', // SET_POLICY
  'xxxxx xxxxxx', // RENAME_CHAIN
  'xxxxx xxxx x', // LIST_RULES
  'xxxxx xxxxxx', // ZERO_NUM
  'x     x  xx ', // CHECK
];

export interface ParsedMatch {
  readonly ext: Extension;
  data: ExtData;
  seen: number;
  completed: boolean;
}

export interface ParsedTarget {
  readonly ext: Extension;
  data: ExtData;
  seen: number;
}

export interface ParsedCommand {
  command: number;
  chain: string | undefined;
  rulenum: number;
  newname: string | undefined;
  policy: string | undefined;
  table: string;
  options: number;
  verbose: number;
  /** Bits: 1 src, 2 dst, 4 in, 8 out, 16 proto, 32 frag (our own encoding). */
  invflags: number;
  proto: number;
  protocolText: string | undefined;
  srcText: string | undefined;
  dstText: string | undefined;
  inIface: string | undefined;
  outIface: string | undefined;
  fragment: boolean;
  matches: ParsedMatch[];
  target: ParsedTarget | undefined;
  jumpto: string;
  goto: boolean;
  counters: { packets: string; bytes: string } | undefined;
  /** Text for stdout (help, version) and for stderr (warnings) produced while parsing. */
  stdout: string;
  stderr: string;
  /** Parsing ended early: -V (exit 0 at once) or -h (help, then the table check). */
  early: 'version' | 'help' | undefined;
}

export const INV_SRC = 1;
export const INV_DST = 2;
export const INV_IN = 4;
export const INV_OUT = 8;
export const INV_PROTO = 16;
export const INV_FRAG = 32;

const OPT_INV_BITS: { [opt: number]: number } = {
  [OPT_SOURCE]: INV_SRC,
  [OPT_DESTINATION]: INV_DST,
  [OPT_VIANAMEIN]: INV_IN,
  [OPT_VIANAMEOUT]: INV_OUT,
  [OPT_PROTOCOL]: INV_PROTO,
  [OPT_FRAGMENT]: INV_FRAG,
};

// ------------------------------------------------------------------------------------------------
// getopt_long

interface LongOpt {
  readonly name: string;
  readonly hasArg: 0 | 1 | 2;
  /** A core option letter, or an extension option reference. */
  readonly val: string;
}

const CORE_LONG: readonly LongOpt[] = [
  { name: 'append', hasArg: 1, val: 'A' },
  { name: 'delete', hasArg: 1, val: 'D' },
  { name: 'check', hasArg: 1, val: 'C' },
  { name: 'insert', hasArg: 1, val: 'I' },
  { name: 'replace', hasArg: 1, val: 'R' },
  { name: 'list', hasArg: 2, val: 'L' },
  { name: 'list-rules', hasArg: 2, val: 'S' },
  { name: 'flush', hasArg: 2, val: 'F' },
  { name: 'zero', hasArg: 2, val: 'Z' },
  { name: 'new-chain', hasArg: 1, val: 'N' },
  { name: 'delete-chain', hasArg: 2, val: 'X' },
  { name: 'rename-chain', hasArg: 1, val: 'E' },
  { name: 'policy', hasArg: 1, val: 'P' },
  { name: 'source', hasArg: 1, val: 's' },
  { name: 'destination', hasArg: 1, val: 'd' },
  { name: 'src', hasArg: 1, val: 's' },
  { name: 'dst', hasArg: 1, val: 'd' },
  { name: 'protocol', hasArg: 1, val: 'p' },
  { name: 'in-interface', hasArg: 1, val: 'i' },
  { name: 'jump', hasArg: 1, val: 'j' },
  { name: 'table', hasArg: 1, val: 't' },
  { name: 'match', hasArg: 1, val: 'm' },
  { name: 'numeric', hasArg: 0, val: 'n' },
  { name: 'out-interface', hasArg: 1, val: 'o' },
  { name: 'verbose', hasArg: 0, val: 'v' },
  { name: 'wait', hasArg: 2, val: 'w' },
  { name: 'wait-interval', hasArg: 2, val: 'W' },
  { name: 'exact', hasArg: 0, val: 'x' },
  { name: 'fragments', hasArg: 0, val: 'f' },
  { name: 'version', hasArg: 0, val: 'V' },
  { name: 'help', hasArg: 2, val: 'h' },
  { name: 'line-numbers', hasArg: 0, val: '0' },
  { name: 'modprobe', hasArg: 1, val: 'M' },
  { name: 'set-counters', hasArg: 1, val: 'c' },
  { name: 'goto', hasArg: 1, val: 'g' },
  { name: 'ipv4', hasArg: 0, val: '4' },
  { name: 'ipv6', hasArg: 0, val: '6' },
];

/** optstring "-:A:C:D:R:I:L::S::M:F::Z::N:X::E:P:Vh::o:p:s:d:j:i:fvw::W::nt:m:xc:g:46" */
const SHORT: { readonly [c: string]: 0 | 1 | 2 } = {
  A: 1,
  C: 1,
  D: 1,
  R: 1,
  I: 1,
  L: 2,
  S: 2,
  M: 1,
  F: 2,
  Z: 2,
  N: 1,
  X: 2,
  E: 1,
  P: 1,
  V: 0,
  h: 2,
  o: 1,
  p: 1,
  s: 1,
  d: 1,
  j: 1,
  i: 1,
  f: 0,
  v: 0,
  w: 2,
  W: 2,
  n: 0,
  t: 1,
  m: 1,
  x: 0,
  c: 1,
  g: 1,
  '4': 0,
  '6': 0,
};

type GetoptResult =
  | { readonly kind: 'end' }
  | { readonly kind: 'nonopt'; readonly arg: string }
  | { readonly kind: 'opt'; readonly val: string; readonly arg: string | undefined }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'missing' };

class Getopt {
  optind = 1;
  private next: string | null = null;
  longs: LongOpt[] = [...CORE_LONG];

  constructor(readonly argv: readonly string[]) {}

  get(): GetoptResult {
    const argv = this.argv;
    if (this.next === null || this.next === '') {
      this.next = null;
      if (this.optind >= argv.length) return { kind: 'end' };
      const arg = argv[this.optind]!;
      if (arg === '--') {
        this.optind++;
        return { kind: 'end' };
      }
      if (!arg.startsWith('-') || arg === '-') {
        this.optind++;
        return { kind: 'nonopt', arg };
      }
      if (arg.startsWith('--')) return this.long(arg.slice(2));
      this.next = arg.slice(1);
    }
    const c = this.next[0]!;
    this.next = this.next.slice(1);
    const spec = Object.prototype.hasOwnProperty.call(SHORT, c) ? SHORT[c] : undefined;
    if (spec === undefined) {
      if (this.next === '') this.optind++;
      return { kind: 'unknown' };
    }
    if (spec === 0) {
      if (this.next === '') this.optind++;
      return { kind: 'opt', val: c, arg: undefined };
    }
    if (this.next !== '') {
      const a = this.next;
      this.next = null;
      this.optind++;
      return { kind: 'opt', val: c, arg: a };
    }
    this.next = null;
    this.optind++;
    if (spec === 2) return { kind: 'opt', val: c, arg: undefined };
    if (this.optind >= argv.length) return { kind: 'missing' };
    return { kind: 'opt', val: c, arg: argv[this.optind++] };
  }

  private long(body: string): GetoptResult {
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    this.optind++;
    let found = this.longs.find((o) => o.name === name);
    if (!found) {
      const cands = this.longs.filter((o) => o.name.startsWith(name));
      const first = cands[0];
      if (!first) return { kind: 'unknown' };
      if (cands.some((o) => o.hasArg !== first.hasArg || o.val !== first.val))
        return { kind: 'unknown' };
      found = first;
    }
    if (eq >= 0) {
      if (found.hasArg === 0) return { kind: 'unknown' };
      return { kind: 'opt', val: found.val, arg: body.slice(eq + 1) };
    }
    if (found.hasArg === 1) {
      if (this.optind >= this.argv.length) return { kind: 'missing' };
      return { kind: 'opt', val: found.val, arg: this.argv[this.optind++] };
    }
    return { kind: 'opt', val: found.val, arg: undefined };
  }

  /** xs_has_arg(): the next word exists and does not start with '-' or '!'. */
  hasArg(): boolean {
    const a = this.argv[this.optind];
    return a !== undefined && !a.startsWith('-') && !a.startsWith('!');
  }

  /** Options of a newly loaded extension go right after the core options. */
  merge(prefix: string, options: readonly ExtOption[]): void {
    const ext = options.map((o) => ({ name: o.name, hasArg: o.hasArg, val: `${prefix}${o.id}` }));
    this.longs = [...CORE_LONG, ...ext, ...this.longs.slice(CORE_LONG.length)];
  }
}

// ------------------------------------------------------------------------------------------------
// do_parse

function parseRuleNumber(text: string): number {
  const v = xtStrtoui(text, 1, 2147483647);
  if (v === undefined) throw new ParamError(`Invalid rule number \`${text}'`);
  return v;
}

/** xt_parse_target(). */
function parseTargetName(name: string): string {
  if (name.length < 1) throw new ParamError('Invalid target name (too short)');
  if (name.length >= 29) throw new ParamError(`Invalid target name \`${name}' (28 chars max)`);
  if (/[ \t\n\v\f\r]/.test(name)) throw new ParamError(`Invalid target name \`${name}'`);
  return name;
}

/** xtables_parse_protocol(). */
function parseProtocol(s: string): number {
  const n = xtStrtoui(s, 0, 255);
  if (n !== undefined) return n;
  if (s === 'all') return 0;
  const p = getProtoByName(s);
  if (p !== undefined) return p;
  const chainProtos: { [k: string]: number } = {
    tcp: 6,
    sctp: 132,
    udp: 17,
    udplite: 136,
    icmp: 1,
    icmpv6: 58,
    esp: 50,
    ah: 51,
    mh: 135,
    all: 0,
  };
  if (Object.prototype.hasOwnProperty.call(chainProtos, s)) return chainProtos[s]!;
  throw new ParamError(`unknown protocol "${s}" specified`);
}

export function parseCommandLine(
  family: Family,
  args: readonly string[],
  sink: { stderr: string },
): ParsedCommand {
  const prog = family === 'ipv4' ? 'iptables' : 'ip6tables';
  const argv = [prog, ...args];
  const g = new Getopt(argv);
  const p: ParsedCommand = {
    command: 0,
    chain: undefined,
    rulenum: 0,
    newname: undefined,
    policy: undefined,
    table: 'filter',
    options: 0,
    verbose: 0,
    invflags: 0,
    proto: 0,
    protocolText: undefined,
    srcText: undefined,
    dstText: undefined,
    inIface: undefined,
    outIface: undefined,
    fragment: false,
    matches: [],
    target: undefined,
    jumpto: '',
    goto: false,
    counters: undefined,
    stdout: '',
    stderr: '',
    early: undefined,
  };
  let invert = false;
  let protoUsed = false;
  let waitSet = false;
  let waitIntervalSet = false;
  const merged = new Set<string>();

  const addCommand = (newcmd: number, othercmds: number): void => {
    if (invert) throw new ParamError("unexpected '!' flag");
    const other = p.command & ~othercmds;
    if (other) throw new ParamError(`Cannot use -${cmdChar(newcmd)} with -${cmdChar(other)}`);
    p.command |= newcmd;
  };
  const setOption = (opt: number): void => {
    if (p.options & opt) throw new ParamError(`multiple -${optChar(opt)} flags not allowed`);
    p.options |= opt;
    if (invert) {
      if (!(INVERTIBLE & opt)) throw new ParamError(`cannot have ! before -${optChar(opt)}`);
      p.invflags |= OPT_INV_BITS[opt] ?? 0;
    }
  };
  const wholeWord = (): string => argv[g.optind - 1] ?? '';

  const loadMatch = (ext: Extension): void => {
    for (const m of p.matches) if (m.ext.name === ext.name) m.completed = true;
    p.matches.push({ ext, data: ext.init(family), seen: 0, completed: false });
    if (!merged.has(ext.name)) {
      merged.add(ext.name);
      g.merge(`m:${ext.name}:`, ext.options);
    }
  };

  const runExtParse = (
    ext: Extension,
    holder: { data: ExtData; seen: number },
    id: number,
    arg: string | undefined,
  ): void => {
    const opt = ext.options.find((o) => o.id === id)!;
    if (ext.xtopt) xtoptPreParse(ext, opt, holder.seen, invert);
    holder.data = ext.parse(holder.data, {
      id,
      arg,
      invert,
      family,
      proto: p.proto,
      protoInvert: (p.invflags & INV_PROTO) !== 0,
      seen: holder.seen,
      peek: () => argv[g.optind],
      advance: () => {
        g.optind++;
      },
      warn: (t) => {
        sink.stderr += t;
      },
    });
    holder.seen |= 1 << id;
  };

  for (;;) {
    const r = g.get();
    if (r.kind === 'end') break;
    if (r.kind === 'nonopt') {
      if (r.arg === '!') {
        if (invert) throw new ParamError('multiple consecutive ! not allowed');
        invert = true;
        continue;
      }
      throw new TryHelpError(`Bad argument \`${r.arg}'\n`);
    }
    if (r.kind === 'unknown' || r.kind === 'missing' || r.val.length > 1) {
      // command_default()
      if (r.kind === 'opt') {
        const [kind, name, idText] = r.val.split(':');
        const id = Number(idText);
        if (kind === 't' && p.target) {
          runExtParse(p.target.ext, p.target, id, r.arg);
          invert = false;
          continue;
        }
        const inst = [...p.matches].reverse().find((m) => m.ext.name === name && !m.completed);
        if (kind === 'm' && inst) {
          runExtParse(inst.ext, inst, id, r.arg);
          invert = false;
          continue;
        }
      }
      if (p.protocolText !== undefined && !protoUsed) {
        const name = protoMatchName(p.proto, family);
        const ext = name !== undefined ? findMatch(name, family) : undefined;
        protoUsed = true;
        if (ext) {
          loadMatch(ext);
          g.optind--;
          continue;
        }
      }
      const word = argv[g.optind - 1] ?? '';
      if (r.kind === 'missing') throw new ParamError(`option "${word}" requires an argument`);
      throw new ParamError(`unknown option "${word}"`);
    }
    const arg = r.arg;
    switch (r.val) {
      case 'A':
        addCommand(CMD_APPEND, 0);
        p.chain = arg;
        break;
      case 'C':
        addCommand(CMD_CHECK, 0);
        p.chain = arg;
        break;
      case 'D':
        addCommand(CMD_DELETE, 0);
        p.chain = arg;
        if (g.hasArg()) {
          p.rulenum = parseRuleNumber(argv[g.optind++]!);
          p.command = CMD_DELETE_NUM;
        }
        break;
      case 'R':
        addCommand(CMD_REPLACE, 0);
        p.chain = arg;
        if (g.hasArg()) p.rulenum = parseRuleNumber(argv[g.optind++]!);
        else throw new ParamError('-R requires a rule number');
        break;
      case 'I':
        addCommand(CMD_INSERT, 0);
        p.chain = arg;
        p.rulenum = g.hasArg() ? parseRuleNumber(argv[g.optind++]!) : 1;
        break;
      case 'L':
      case 'S':
        addCommand(r.val === 'L' ? CMD_LIST : CMD_LIST_RULES, CMD_ZERO | CMD_ZERO_NUM);
        if (arg !== undefined) p.chain = arg;
        else if (g.hasArg()) p.chain = argv[g.optind++];
        if (g.hasArg()) p.rulenum = parseRuleNumber(argv[g.optind++]!);
        break;
      case 'F':
        addCommand(CMD_FLUSH, 0);
        if (arg !== undefined) p.chain = arg;
        else if (g.hasArg()) p.chain = argv[g.optind++];
        break;
      case 'Z':
        addCommand(CMD_ZERO, CMD_LIST | CMD_LIST_RULES);
        if (arg !== undefined) p.chain = arg;
        else if (g.hasArg()) p.chain = argv[g.optind++];
        if (g.hasArg()) {
          p.rulenum = parseRuleNumber(argv[g.optind++]!);
          p.command = CMD_ZERO_NUM;
        }
        break;
      case 'N':
        parseNewChainName(arg ?? '', family);
        addCommand(CMD_NEW_CHAIN, 0);
        p.chain = arg;
        break;
      case 'X':
        addCommand(CMD_DELETE_CHAIN, 0);
        if (arg !== undefined) p.chain = arg;
        else if (g.hasArg()) p.chain = argv[g.optind++];
        break;
      case 'E':
        addCommand(CMD_RENAME_CHAIN, 0);
        p.chain = arg;
        if (g.hasArg()) p.newname = argv[g.optind++];
        else throw new ParamError('-E requires old-chain-name and new-chain-name');
        break;
      case 'P':
        addCommand(CMD_SET_POLICY, 0);
        p.chain = arg;
        if (g.hasArg()) p.policy = argv[g.optind++];
        else throw new ParamError('-P requires a chain and a policy');
        break;
      case 'h':
        p.stdout += family === 'ipv4' ? HELP_IPV4 : HELP_IPV6;
        p.command = 0;
        p.early = 'help';
        return p;
      case 'p': {
        setOption(OPT_PROTOCOL);
        const text = wholeWord().toLowerCase();
        p.protocolText = text;
        p.proto = parseProtocol(text);
        if (p.proto === 0 && p.invflags & INV_PROTO)
          throw new ParamError('rule would never match protocol');
        if (family === 'ipv6' && [43, 44, 51, 60].includes(p.proto) && !(p.invflags & INV_PROTO))
          sink.stderr += `Warning: never matched protocol: ${text}. use extension match instead.\n`;
        break;
      }
      case 's':
        setOption(OPT_SOURCE);
        p.srcText = wholeWord();
        break;
      case 'd':
        setOption(OPT_DESTINATION);
        p.dstText = wholeWord();
        break;
      case 'g':
        setOption(OPT_JUMP);
        p.goto = true;
        p.jumpto = parseTargetName(arg ?? '');
        break;
      case 'j': {
        setOption(OPT_JUMP);
        const name = parseTargetName(wholeWord());
        p.jumpto = name;
        if (['ACCEPT', 'DROP', 'RETURN', 'QUEUE'].includes(name)) break;
        const ext = findTarget(name, family);
        if (ext) {
          p.target = { ext, data: ext.init(family), seen: 0 };
          g.merge(`t:${ext.name}:`, ext.options);
        } else if (isUnmodelledTarget(name, family)) {
          throw new OtherError(`target \`${name}' is not supported by this simulator`);
        }
        break;
      }
      case 'i':
      case 'o': {
        if (arg === '') throw new ParamError('Empty interface is likely to be undesired');
        setOption(r.val === 'i' ? OPT_VIANAMEIN : OPT_VIANAMEOUT);
        const name = parseInterface(wholeWord(), (t) => {
          sink.stderr += t;
        });
        if (r.val === 'i') p.inIface = name;
        else p.outIface = name;
        break;
      }
      case 'f':
        if (family === 'ipv6')
          throw new ParamError("`-f' is not supported in IPv6, use -m frag instead");
        setOption(OPT_FRAGMENT);
        p.fragment = true;
        break;
      case 'v':
        if (!p.verbose) setOption(OPT_VERBOSE);
        p.verbose++;
        break;
      case 'm': {
        if (invert) throw new ParamError('unexpected ! flag before --match');
        const name = arg ?? '';
        const ext = findMatch(name, family);
        if (!ext) {
          if (isUnmodelledMatch(name))
            throw new OtherError(`match \`${name}' is not supported by this simulator`);
          throw new ParamError(`Couldn't load match \`${name}':No such file or directory\n`);
        }
        loadMatch(ext);
        break;
      }
      case 'n':
        setOption(OPT_NUMERIC);
        break;
      case 't':
        if (invert) throw new ParamError('unexpected ! flag before --table');
        p.table = arg ?? '';
        break;
      case 'x':
        setOption(OPT_EXPANDED);
        break;
      case 'V':
        p.stdout = invert ? 'Not 1.8.9 (nf_tables) ;-)\n' : `${prog} v1.8.9 (nf_tables)\n`;
        p.early = 'version';
        return p;
      case 'w': {
        let text = arg;
        if (text === undefined && g.hasArg()) text = argv[g.optind++];
        if (text !== undefined && scanInt(text) === undefined)
          throw new ParamError('wait seconds not numeric');
        waitSet = true;
        break;
      }
      case 'W': {
        if (arg === undefined) {
          if (g.hasArg()) g.optind++;
          else throw new ParamError('wait interval value required');
        }
        sink.stderr += 'Ignoring deprecated --wait-interval option.\n';
        waitIntervalSet = true;
        break;
      }
      case '0':
        setOption(OPT_LINENUMBERS);
        break;
      case 'M':
        break;
      case 'c': {
        setOption(OPT_COUNTERS);
        const pcnt = arg ?? '';
        const comma = pcnt.indexOf(',', 1);
        let bcnt: string | undefined = comma >= 0 ? pcnt.slice(comma + 1) : undefined;
        if (bcnt === undefined && g.hasArg()) bcnt = argv[g.optind++];
        if (bcnt === undefined) throw new ParamError('-c requires packet and byte counter');
        if (!scanLlu(pcnt)) throw new ParamError('-c packet counter not numeric');
        if (!scanLlu(bcnt)) throw new ParamError('-c byte counter not numeric');
        p.counters = { packets: llu(pcnt), bytes: llu(bcnt) };
        break;
      }
      case '4':
        if (family !== 'ipv4') throw new TryHelpError('');
        break;
      case '6':
        if (family !== 'ipv6') throw new TryHelpError('');
        break;
    }
    invert = false;
  }

  if (waitIntervalSet && !waitSet)
    throw new ParamError('--wait-interval only makes sense with --wait\n');
  if (p.table === 'nat' && (p.policy === 'DROP' || p.jumpto === 'DROP'))
    throw new ParamError(
      '\nThe "nat" table is not intended for filtering, the use of DROP is therefore inhibited.\n\n',
    );
  for (const m of p.matches) {
    m.ext.finalCheck?.(m.data, m.seen, family);
    if (m.ext.xtopt) xtoptFinalCheck(m.ext, m.seen);
  }
  if (p.target) {
    p.target.ext.finalCheck?.(p.target.data, p.target.seen, family);
    if (p.target.ext.xtopt) xtoptFinalCheck(p.target.ext, p.target.seen);
  }
  if (g.optind < argv.length) throw new ParamError('unknown arguments found on commandline');
  if (!p.command) throw new ParamError('no command specified');
  if (invert) throw new ParamError('nothing appropriate following !');
  return p;
}

/** Checks of do_parse() after the option loop that need the parsed addresses (see rule.ts). */
export function genericOptCheck(command: number, options: number): void {
  for (let i = 0; i < OPT_CHARS.length; i++) {
    let legal = 0;
    for (let j = 0; j < CMD_V_OPT.length; j++) {
      if (!(command & (1 << j))) continue;
      if (options & (1 << i)) {
        if (CMD_V_OPT[j]![i] !== 'x') legal = 1;
        else if (legal === 0) legal = -1;
      }
    }
    if (legal === -1) throw new ParamError(`Illegal option \`-${OPT_CHARS[i]}' with this command`);
  }
}

function cmdChar(cmd: number): string {
  let i = 0;
  for (let c = cmd; c > 1; c >>= 1) i++;
  return CMD_CHARS[i] ?? '?';
}

function optChar(opt: number): string {
  let i = 0;
  for (let c = opt; c > 1; c >>= 1) i++;
  return OPT_CHARS[i] ?? '?';
}

/** parse_chain() of -N. */
function parseNewChainName(name: string, family: Family): void {
  if (name.length >= 29)
    throw new ParamError(`chain name \`${name}' too long (must be under 29 chars)`);
  if (name.startsWith('-') || name.startsWith('!'))
    throw new ParamError(`chain name not allowed to start with \`${name[0]}'`);
  if (isTargetName(name, family)) throw new ParamError('chain name may not clash with target name');
  if (/[ \t\n\v\f\r]/.test(name)) throw new ParamError(`Invalid chain name \`${name}'`);
}

/** sscanf("%llu") as an exact decimal string (wrapping negative values modulo 2^64). */
function llu(text: string): string {
  const m = /^[ \t\n\v\f\r]*([+-]?)([0-9]+)/.exec(text);
  if (!m) return '0';
  let v = BigInt(m[2]!);
  if (v > 0xffffffffffffffffn) v = 0xffffffffffffffffn;
  if (m[1] === '-' && v !== 0n) v = 0x10000000000000000n - v;
  return v.toString();
}
