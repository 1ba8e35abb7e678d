/**
 * A subset of GNU sed 4.9, with its messages.
 *
 * Options: -n, -e SCRIPT (repeatable), -f FILE, -E / -r, -i[SUFFIX] / --in-place[=SUFFIX], -s.
 * Script: commands separated by `;` or newlines, each with an optional address or range
 * (N, $, /RE/ with optional I, ADDR1,ADDR2) and optional `!`:
 *   s/RE/REPLACEMENT/FLAGS  (any delimiter; flags g, p, N, Ng, I/i; replacement: & \1..\9 \n \t \&
 *   and GNU's \U \L \u \l \E)
 *   d  p  q  =  y/abc/xyz/  h H g G x (hold space)  n N  { ... } (blocks)
 * Regular expressions: POSIX BRE (default) or ERE (-E) translated to JavaScript: . [...] [^...]
 * [[:alpha:]]-style classes, * ^ $, \( \) \{m,n\} (BRE), ( ) {m,n} + ? | (ERE), GNU's \+ \? \|
 * in BRE, \n \t \w \W \s \S \b \B \< \> \` \'. An empty RE reuses the last one. Differences: JS
 * matching is leftmost-first where POSIX is leftmost-longest (they differ only for alternations
 * like a\|ab); back-references in the RE (\1) are supported as in JS.
 */
import * as vfs from '../../fs/vfs';
import { POSIX_CLASSES } from '../expand';
import type { CommandContext, CommandSpec } from '../types';
import { quoteIfNeeded } from './coreutils';
import { SED_USAGE } from './usage';

class SedError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

type Address = { kind: 'line'; n: number } | { kind: 'last' } | { kind: 're'; re: RegExp | null };

interface SedCmd {
  a1: Address | null;
  a2: Address | null;
  negate: boolean;
  name: string;
  // s
  re?: RegExp | null;
  replacement?: ReplPart[];
  global?: boolean;
  nth?: number;
  print?: boolean;
  // y
  from?: string[];
  to?: string[];
  /** `{`: the block's commands. */
  children?: SedCmd[];
  /** s///e: not supported (an error when it runs). */
  exec?: boolean;
  /** Range state. */
  inRange?: boolean;
  rangeEnd?: number;
}

type ReplPart =
  | { t: 'lit'; v: string }
  | { t: 'group'; n: number }
  | { t: 'case'; op: 'U' | 'L' | 'u' | 'l' | 'E' };

/** Translates a POSIX BRE/ERE to a JS RegExp source; throws SedError (message without position). */
export function posixToJs(re: string, extended: boolean): { source: string; groups: number } {
  let out = '';
  let groups = 0;
  let open = 0;
  let i = 0;
  // Whether a `*` here is literal (start of RE / after a group open or alternation), in BRE.
  let atStart = true;
  while (i < re.length) {
    const c = re[i]!;
    if (c === '[') {
      const { src, end } = bracket(re, i);
      out += src;
      i = end;
      atStart = false;
      continue;
    }
    if (c === '\\') {
      const n = re[i + 1];
      if (n === undefined) throw new SedError('Trailing backslash');
      i += 2;
      if (!extended && n === '(') {
        out += '(';
        groups++;
        open++;
        atStart = true;
        continue;
      }
      if (!extended && n === ')') {
        if (open === 0) throw new SedError('Unmatched ) or \\)');
        open--;
        out += ')';
        atStart = false;
        continue;
      }
      if (!extended && n === '{') {
        const m = /^(\d*)(,(\d*))?\\\}/.exec(re.slice(i));
        if (!m) throw new SedError('Unmatched \\{');
        out += `{${m[1] || '0'}${m[2] ? ',' + (m[3] ?? '') : ''}}`;
        i += m[0].length;
        continue;
      }
      if (!extended && (n === '+' || n === '?')) {
        out += n;
        continue;
      }
      if (!extended && n === '|') {
        out += '|';
        atStart = true;
        continue;
      }
      atStart = false;
      switch (n) {
        case 'n':
          out += '\\n';
          break;
        case 't':
          out += '\\t';
          break;
        case 'w':
        case 'W':
        case 's':
        case 'S':
        case 'b':
        case 'B':
          out += '\\' + n;
          break;
        case '<':
          out += '\\b(?=\\w)';
          break;
        case '>':
          out += '\\b(?<=\\w)';
          break;
        case '`':
          out += '^';
          break;
        case "'":
          out += '$';
          break;
        default:
          if (/[1-9]/.test(n)) {
            if (Number(n) > groups) throw new SedError('Invalid back reference');
            out += '\\' + n;
          } else out += escapeJs(n);
      }
      continue;
    }
    i++;
    if (extended) {
      if (c === '(') {
        groups++;
        open++;
        out += '(';
        atStart = true;
        continue;
      }
      if (c === ')') {
        if (open === 0) throw new SedError('Unmatched ) or \\)');
        open--;
        out += ')';
        atStart = false;
        continue;
      }
      if (c === '{') {
        const m = /^(\d*)(,(\d*))?\}/.exec(re.slice(i));
        if (!m) throw new SedError('Unmatched \\{');
        out += `{${m[1] || '0'}${m[2] ? ',' + (m[3] ?? '') : ''}}`;
        i += m[0].length;
        continue;
      }
      if (c === '|') {
        out += '|';
        atStart = true;
        continue;
      }
      if (c === '+' || c === '?' || c === '*') {
        out += atStart ? escapeJs(c) : c;
        continue;
      }
    } else {
      if (c === '*') {
        out += atStart ? '\\*' : '*';
        atStart = false;
        continue;
      }
      if ('+?(){}|'.includes(c)) {
        out += '\\' + c;
        atStart = false;
        continue;
      }
    }
    if (c === '^') {
      // An anchor at the start (of the RE, a group or an alternative); literal elsewhere in BRE.
      out += atStart || extended ? '^' : '\\^';
      continue;
    }
    if (c === '$') {
      const rest = re.slice(i);
      const anchor = extended || rest === '' || rest.startsWith('\\)') || rest.startsWith('\\|');
      out += anchor ? '$' : '\\$';
      atStart = false;
      continue;
    }
    if (c === '.') out += '.';
    else out += escapeJs(c);
    atStart = false;
  }
  if (open > 0) throw new SedError('Unmatched ( or \\(');
  return { source: out, groups };
}

function escapeJs(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? '\\' + c : c;
}

/** A POSIX bracket expression starting at re[i] === '[': its JS source and the index after it. */
function bracket(re: string, i: number): { src: string; end: number } {
  let j = i + 1;
  let neg = false;
  if (re[j] === '^') {
    neg = true;
    j++;
  }
  let body = '';
  let first = true;
  for (;;) {
    if (j >= re.length) throw new SedError('Unmatched [, [^, [:, [., or [=');
    const c = re[j]!;
    if (c === ']' && !first) {
      j++;
      break;
    }
    first = false;
    if (c === '[' && (re[j + 1] === ':' || re[j + 1] === '.' || re[j + 1] === '=')) {
      const close = re.indexOf(re[j + 1] + ']', j + 2);
      if (close < 0) throw new SedError('Unmatched [, [^, [:, [., or [=');
      const name = re.slice(j + 2, close);
      if (re[j + 1] === ':') {
        const cls = POSIX_CLASSES[name];
        if (cls === undefined) throw new SedError('Invalid character class name');
        body += cls;
      } else body += escapeClass(name);
      j = close + 2;
      continue;
    }
    if (c === '\\' && (re[j + 1] === 'n' || re[j + 1] === 't')) {
      body += re[j + 1] === 'n' ? '\\n' : '\\t';
      j += 2;
      continue;
    }
    body += c === '-' ? '-' : escapeClass(c);
    j++;
  }
  return { src: `[${neg ? '^' : ''}${body}]`, end: j };
}

function escapeClass(c: string): string {
  return /[\]\\^[]/.test(c) ? '\\' + c : c;
}

interface ParseState {
  src: string;
  pos: number;
  exprNo: number;
  extended: boolean;
}

function fail(st: ParseState, msg: string, at = st.pos): never {
  throw new SedError(`-e expression #${st.exprNo}, char ${at}: ${msg}`);
}

/** Reads up to an unescaped delimiter (brackets protect it); returns the raw text. */
function readDelimited(st: ParseState, delim: string, what: string, isRe: boolean): string {
  let out = '';
  const s = st.src;
  while (st.pos < s.length) {
    const c = s[st.pos]!;
    if (c === '\\') {
      const n = s[st.pos + 1];
      if (n === undefined) break;
      // \<delim> is the delimiter itself; \n is a newline.
      if (n === delim) out += literalDelim(delim, isRe, st.extended);
      else out += c + n;
      st.pos += 2;
      continue;
    }
    if (c === delim) {
      st.pos++;
      return out;
    }
    if (isRe && c === '[') {
      // Copy a bracket expression as is.
      let j = st.pos + 1;
      if (s[j] === '^') j++;
      if (s[j] === ']') j++;
      while (j < s.length && s[j] !== ']') {
        if (s[j] === '[' && (s[j + 1] === ':' || s[j + 1] === '.' || s[j + 1] === '=')) {
          const close = s.indexOf(s[j + 1] + ']', j + 2);
          j = close < 0 ? s.length : close + 2;
        } else j++;
      }
      if (j >= s.length) {
        st.pos = s.length;
        break;
      }
      out += s.slice(st.pos, j + 1);
      st.pos = j + 1;
      continue;
    }
    if (c === '\n' && isRe) break;
    out += c;
    st.pos++;
  }
  st.pos = s.length;
  return fail(st, what);
}

/** An escaped delimiter stands for the character itself. */
function literalDelim(delim: string, isRe: boolean, extended: boolean): string {
  if (!isRe) return delim === '&' ? '\\&' : delim;
  const special = extended ? '.*[]^$\\+?(){}|' : '.*[]^$\\';
  return special.includes(delim) ? '\\' + delim : delim;
}

function compile(st: ParseState, raw: string, flags: string, at: number): RegExp | null {
  if (raw === '') return null;
  try {
    const { source } = posixToJs(raw, st.extended);
    return new RegExp(source, 'gs' + flags);
  } catch (e) {
    if (e instanceof SedError) fail(st, e.message, at);
    fail(st, 'Invalid regular expression', at);
  }
}

function parseReplacement(st: ParseState, raw: string, groups: number, at: number): ReplPart[] {
  const parts: ReplPart[] = [];
  const lit = (v: string) => {
    const last = parts[parts.length - 1];
    if (last && last.t === 'lit') last.v += v;
    else parts.push({ t: 'lit', v });
  };
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '&') {
      parts.push({ t: 'group', n: 0 });
    } else if (c === '\\' && i + 1 < raw.length) {
      const n = raw[++i]!;
      if (/[0-9]/.test(n)) {
        if (Number(n) > groups) fail(st, `invalid reference \\${n} on \`s' command's RHS`, at);
        parts.push({ t: 'group', n: Number(n) });
      } else if (n === 'U' || n === 'L' || n === 'u' || n === 'l' || n === 'E')
        parts.push({ t: 'case', op: n });
      else if (n === 'n') lit('\n');
      else if (n === 't') lit('\t');
      else lit(n);
    } else lit(c);
  }
  return parts;
}

function parseAddress(st: ParseState): Address | null {
  const s = st.src;
  const c = s[st.pos];
  if (c !== undefined && /[0-9]/.test(c)) {
    const m = /^[0-9]+/.exec(s.slice(st.pos))!;
    st.pos += m[0].length;
    return { kind: 'line', n: Number(m[0]) };
  }
  if (c === '$') {
    st.pos++;
    return { kind: 'last' };
  }
  if (c === '/' || c === '\\') {
    let delim = '/';
    if (c === '\\') {
      delim = s[st.pos + 1] ?? '';
      st.pos++;
    }
    st.pos++;
    const start = st.pos;
    const raw = readDelimited(st, delim, 'unterminated address regex', true);
    let flags = '';
    while (s[st.pos] === 'I' || s[st.pos] === 'M') {
      if (s[st.pos] === 'I') flags = 'i';
      st.pos++;
    }
    void start;
    return { kind: 're', re: compile(st, raw, flags, st.pos) };
  }
  return null;
}

export function parseSedScript(
  scripts: Array<{ src: string; exprNo: number }>,
  extended: boolean,
): SedCmd[] {
  const top: SedCmd[] = [];
  let cmds = top;
  const blocks: SedCmd[][] = [];
  let lastSt: ParseState | null = null;
  for (const { src, exprNo } of scripts) {
    const st: ParseState = { src, pos: 0, exprNo, extended };
    lastSt = st;
    const s = src;
    for (;;) {
      while (st.pos < s.length && /[\s;]/.test(s[st.pos]!)) st.pos++;
      if (st.pos >= s.length) break;
      if (s[st.pos] === '#') {
        while (st.pos < s.length && s[st.pos] !== '\n') st.pos++;
        continue;
      }
      if (s[st.pos] === '}') {
        st.pos++;
        const outer = blocks.pop();
        if (!outer) fail(st, "unexpected `}'");
        cmds = outer;
        continue;
      }
      const a1 = parseAddress(st);
      let a2: Address | null = null;
      if (a1 && s[st.pos] === ',') {
        st.pos++;
        a2 = parseAddress(st);
        if (!a2) fail(st, "unexpected `,'");
      }
      while (s[st.pos] === ' ' || s[st.pos] === '\t') st.pos++;
      let negate = false;
      while (s[st.pos] === '!') {
        negate = true;
        st.pos++;
        while (s[st.pos] === ' ' || s[st.pos] === '\t') st.pos++;
      }
      const name = s[st.pos];
      if (name === undefined || name === '\n' || name === ';') {
        if (a1) fail(st, 'missing command');
        break;
      }
      st.pos++;
      if (a1?.kind === 'line' && a1.n === 0 && !(a2 && a2.kind === 're'))
        fail(st, 'invalid usage of line address 0');
      const cmd: SedCmd = { a1, a2, negate, name };
      switch (name) {
        case '{':
          cmd.children = [];
          cmds.push(cmd);
          blocks.push(cmds);
          cmds = cmd.children;
          continue;
        case 's': {
          const delim = s[st.pos];
          if (delim === undefined || delim === '\n' || delim === '\\') {
            st.pos = s.length;
            fail(st, "unterminated `s' command");
          }
          st.pos++;
          const reRaw = readDelimited(st, delim, "unterminated `s' command", true);
          const replRaw = readDelimited(st, delim, "unterminated `s' command", false);
          let flags = '';
          let global = false;
          let print = false;
          let nth = 1;
          let nthSeen = false;
          for (;;) {
            const f = s[st.pos];
            if (f === undefined || f === ';' || f === '\n' || f === '}' || f === '#') break;
            if (f === ' ' || f === '\t') {
              st.pos++;
              continue;
            }
            st.pos++;
            if (f === 'g') {
              if (global) fail(st, "multiple `g' options to `s' command");
              global = true;
            } else if (f === 'p') {
              if (print) fail(st, "multiple `p' options to `s' command");
              print = true;
            } else if (f === 'I' || f === 'i') flags = 'i';
            else if (f === 'm' || f === 'M') flags += '';
            else if (/[0-9]/.test(f)) {
              if (nthSeen) fail(st, "multiple number options to `s' command");
              const m = /^[0-9]*/.exec(s.slice(st.pos))!;
              st.pos += m[0].length;
              nth = Number(f + m[0]);
              if (nth === 0) fail(st, "number option to `s' command may not be zero");
              nthSeen = true;
            } else if (f === 'w') {
              fail(st, 'missing filename in r/R/w/W commands');
            } else if (f === 'e') {
              cmd.exec = true;
            } else fail(st, "unknown option to `s'");
          }
          const at = st.pos;
          let groups = 0;
          if (reRaw !== '') {
            try {
              groups = posixToJs(reRaw, extended).groups;
            } catch (e) {
              if (e instanceof SedError) fail(st, e.message, at);
              throw e;
            }
          }
          cmd.re = compile(st, reRaw, flags, at);
          cmd.replacement = parseReplacement(st, replRaw, reRaw === '' ? 9 : groups, at);
          cmd.global = global;
          cmd.print = print;
          cmd.nth = nth;
          break;
        }
        case 'y': {
          const delim = s[st.pos];
          if (delim === undefined) fail(st, "unterminated `y' command");
          st.pos++;
          const un = (t: string) => [
            ...t.replace(/\\(.)/g, (_m, x: string) => (x === 'n' ? '\n' : x)),
          ];
          const from = un(readDelimited(st, delim, "unterminated `y' command", false));
          const to = un(readDelimited(st, delim, "unterminated `y' command", false));
          if (from.length !== to.length) fail(st, "strings for `y' command are different lengths");
          cmd.from = from;
          cmd.to = to;
          break;
        }
        case 'd':
        case 'p':
        case 'q':
        case '=':
        case 'h':
        case 'H':
        case 'g':
        case 'G':
        case 'x':
        case 'n':
        case 'N':
          break;
        default:
          fail(st, `unknown command: \`${name}'`);
      }
      while (s[st.pos] === ' ' || s[st.pos] === '\t') st.pos++;
      const after = s[st.pos];
      if (
        after !== undefined &&
        after !== ';' &&
        after !== '\n' &&
        after !== '#' &&
        after !== '}'
      ) {
        st.pos++;
        fail(st, 'extra characters after command');
      }
      cmds.push(cmd);
    }
  }
  if (blocks.length > 0 && lastSt) fail(lastSt, "unmatched `{'", 0);
  return top;
}

/** The replacement for one match, with GNU's case conversions. */
function replacementText(repl: ReplPart[], m: RegExpExecArray): string {
  let out = '';
  let mode: 'U' | 'L' | null = null;
  let once: 'u' | 'l' | null = null;
  const add = (t: string) => {
    for (const ch of t) {
      let c = mode === 'U' ? ch.toUpperCase() : mode === 'L' ? ch.toLowerCase() : ch;
      if (once) {
        c = once === 'u' ? c.toUpperCase() : c.toLowerCase();
        once = null;
      }
      out += c;
    }
  };
  for (const p of repl) {
    if (p.t === 'lit') add(p.v);
    else if (p.t === 'group') add(m[p.n] ?? '');
    else if (p.op === 'U' || p.op === 'L') mode = p.op;
    else if (p.op === 'E') mode = null;
    else once = p.op;
  }
  return out;
}

/** s/// on one pattern space, GNU's way (no empty match right after a match). */
function substitute(
  ps: string,
  re: RegExp,
  repl: ReplPart[],
  global: boolean,
  nth: number,
): { out: string; did: boolean } {
  let out = '';
  let pos = 0;
  let count = 0;
  let did = false;
  let lastEnd = -1;
  while (pos <= ps.length) {
    re.lastIndex = pos;
    const m = re.exec(ps);
    if (!m) break;
    const start = m.index;
    const end = start + m[0].length;
    if (m[0] === '' && start === lastEnd) {
      if (start >= ps.length) break;
      out += ps.slice(pos, start + 1);
      pos = start + 1;
      continue;
    }
    count++;
    out += ps.slice(pos, start);
    if (count >= nth) {
      out += replacementText(repl, m);
      did = true;
    } else out += m[0];
    pos = end;
    lastEnd = end;
    if (m[0] === '') {
      if (start < ps.length) out += ps[start];
      pos = start + 1;
    }
    if (did && !global) break;
  }
  if (pos <= ps.length) out += ps.slice(pos);
  return { out, did };
}

interface RunState {
  lastRe: RegExp | null;
  quiet: boolean;
}

function reOf(re: RegExp | null, rs: RunState): RegExp {
  const r = re ?? rs.lastRe;
  if (!r) throw new SedError('no previous regular expression');
  rs.lastRe = r;
  return r;
}

function matchAddr(a: Address, line: string, n: number, last: boolean, rs: RunState): boolean {
  if (a.kind === 'line') return n === a.n;
  if (a.kind === 'last') return last;
  const r = reOf(a.re, rs);
  r.lastIndex = 0;
  return r.test(line);
}

function selected(c: SedCmd, line: string, n: number, last: boolean, rs: RunState): boolean {
  let sel: boolean;
  if (!c.a1) sel = true;
  else if (!c.a2) sel = matchAddr(c.a1, line, n, last, rs);
  else if (c.inRange) {
    sel = true;
    const a2 = c.a2;
    if (a2.kind === 'line' ? n >= a2.n : matchAddr(a2, line, n, last, rs)) c.inRange = false;
  } else if (
    matchAddr(c.a1, line, n, last, rs) ||
    (c.a1.kind === 'line' && c.a1.n === 0 && c.a2.kind === 're')
  ) {
    sel = true;
    const a2 = c.a2;
    if (a2.kind === 'line') c.inRange = a2.n > n;
    else if (a2.kind === 'last') c.inRange = !last;
    else c.inRange = true;
  } else sel = false;
  return c.negate ? !sel : sel;
}

interface Cursor {
  lines: string[];
  i: number;
  endsWithNl: boolean;
  out: string;
  hold: string;
}

type Flow = 'next' | 'delete' | 'quit' | 'end';

/** Runs a command list on the pattern space; returns what ends the cycle, if anything. */
function execCmds(cmds: SedCmd[], cur: Cursor, ps: { v: string }, rs: RunState): Flow {
  for (const c of cmds) {
    const n = cur.i + 1;
    const last = cur.i === cur.lines.length - 1;
    if (!selected(c, ps.v, n, last, rs)) continue;
    switch (c.name) {
      case '{': {
        const f = execCmds(c.children!, cur, ps, rs);
        if (f !== 'next') return f;
        break;
      }
      case 's': {
        if (c.exec) throw new SedError("cnisim: the `e' flag of `s' is not supported");
        const r = substitute(ps.v, reOf(c.re ?? null, rs), c.replacement!, !!c.global, c.nth!);
        if (r.did) {
          ps.v = r.out;
          if (c.print) cur.out += ps.v + '\n';
        }
        break;
      }
      case 'y':
        ps.v = [...ps.v]
          .map((ch) => {
            const k = c.from!.indexOf(ch);
            return k < 0 ? ch : c.to![k]!;
          })
          .join('');
        break;
      case 'd':
        return 'delete';
      case 'p':
        cur.out += ps.v + '\n';
        break;
      case '=':
        cur.out += `${n}\n`;
        break;
      case 'q':
        return 'quit';
      case 'h':
        cur.hold = ps.v;
        break;
      case 'H':
        cur.hold += '\n' + ps.v;
        break;
      case 'g':
        ps.v = cur.hold;
        break;
      case 'G':
        ps.v += '\n' + cur.hold;
        break;
      case 'x': {
        const t = cur.hold;
        cur.hold = ps.v;
        ps.v = t;
        break;
      }
      case 'n':
      case 'N':
        if (last) {
          // GNU: no next line -> print (unless -n) and exit.
          return 'end';
        }
        if (c.name === 'n') {
          if (!rs.quiet) cur.out += ps.v + '\n';
          cur.i++;
          ps.v = cur.lines[cur.i]!;
        } else {
          cur.i++;
          ps.v += '\n' + cur.lines[cur.i]!;
        }
        break;
    }
  }
  return 'next';
}

/** Runs the script over `text` (one stream); returns the output and whether `q` stopped it. */
function runSed(
  cmds: SedCmd[],
  text: string,
  rs: RunState,
  hold: { v: string },
): { out: string; quit: boolean } {
  if (text === '') return { out: '', quit: false };
  const endsWithNl = text.endsWith('\n');
  const cur: Cursor = {
    lines: (endsWithNl ? text.slice(0, -1) : text).split('\n'),
    i: 0,
    endsWithNl,
    out: '',
    hold: hold.v,
  };
  const reset = (list: SedCmd[]) => {
    for (const c of list) {
      c.inRange = false;
      if (c.children) reset(c.children);
    }
  };
  reset(cmds);
  for (; cur.i < cur.lines.length; cur.i++) {
    const ps = { v: cur.lines[cur.i]! };
    const flow = execCmds(cmds, cur, ps, rs);
    const last = cur.i === cur.lines.length - 1;
    const nl = last && !endsWithNl ? '' : '\n';
    if (flow !== 'delete' && !rs.quiet) cur.out += ps.v + nl;
    if (flow === 'quit') {
      hold.v = cur.hold;
      return { out: cur.out, quit: true };
    }
  }
  hold.v = cur.hold;
  return { out: cur.out, quit: false };
}

function sed(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const scripts: Array<{ src: string; exprNo: number }> = [];
  const files: string[] = [];
  let quiet = false;
  let extended = false;
  let inPlace: string | null = null;
  let separate = false;
  let exprNo = 0;
  const usage = () => {
    ctx.err(SED_USAGE);
    return 1;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, val] = a.slice(2).split(/=(.*)/s) as [string, string | undefined];
      if (name === 'quiet' || name === 'silent') quiet = true;
      else if (name === 'regexp-extended') extended = true;
      else if (name === 'in-place') inPlace = val ?? '';
      else if (name === 'separate') separate = true;
      else if (name === 'expression') {
        const v = val ?? args[++i];
        if (v === undefined) return usage();
        scripts.push({ src: v, exprNo: ++exprNo });
      } else if (
        name === 'posix' ||
        name === 'debug' ||
        name === 'sandbox' ||
        name === 'unbuffered' ||
        name === 'follow-symlinks'
      )
        continue;
      else {
        ctx.err(`sed: unrecognized option '${a}'\n`);
        return usage();
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a[j]!;
        if (f === 'n') quiet = true;
        else if (f === 'E' || f === 'r') extended = true;
        else if (f === 's') separate = true;
        else if (f === 'u') continue;
        else if (f === 'i') {
          inPlace = a.slice(j + 1);
          break;
        } else if (f === 'e' || f === 'f') {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined) {
            ctx.err(`sed: option requires an argument -- '${f}'\n`);
            return usage();
          }
          if (f === 'e') scripts.push({ src: v, exprNo: ++exprNo });
          else {
            const e = vfs.stat(ctx.fs(), ctx.resolve(v));
            if (!e || e.kind !== 'file') {
              ctx.err(
                `sed: couldn't open file ${v}: ${e ? 'Is a directory' : 'No such file or directory'}\n`,
              );
              return 1;
            }
            scripts.push({ src: e.data, exprNo: ++exprNo });
          }
          break;
        } else {
          ctx.err(`sed: invalid option -- '${f}'\n`);
          return usage();
        }
      }
      continue;
    }
    files.push(a);
  }
  if (scripts.length === 0) {
    const first = files.shift();
    if (first === undefined) return usage();
    scripts.push({ src: first, exprNo: 1 });
  }
  let cmds: SedCmd[];
  try {
    cmds = parseSedScript(scripts, extended);
  } catch (e) {
    if (e instanceof SedError) {
      ctx.err(`sed: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
  const rs: RunState = { lastRe: null, quiet };
  const hold = { v: '' };
  let status = 0;
  try {
    if (inPlace !== null) {
      if (files.length === 0) {
        ctx.err('sed: no input files\n');
        return 4;
      }
      for (const f of files) {
        const p = ctx.resolve(f);
        const e = vfs.stat(ctx.fs(), p);
        if (!e) {
          ctx.err(`sed: can't read ${quoteIfNeeded(f)}: No such file or directory\n`);
          status = 2;
          continue;
        }
        if (e.kind === 'dir' || e.nsfs) {
          ctx.err(`sed: couldn't edit ${quoteIfNeeded(f)}: not a regular file\n`);
          status = 4;
          continue;
        }
        const r = runSed(cmds, e.data, rs, hold);
        if (inPlace) ctx.changeFs((fs) => vfs.writeFile(fs, p + inPlace, e.data));
        if (r.out !== e.data) ctx.changeFs((fs) => vfs.writeFile(fs, p, r.out));
        if (r.quit) break;
      }
      return status;
    }
    // One stream (or one per file with -s).
    const inputs: string[] = [];
    let text = '';
    for (const f of files.length ? files : ['-']) {
      if (f === '-') {
        text += ctx.stdin;
      } else {
        const e = vfs.stat(ctx.fs(), ctx.resolve(f));
        if (!e) {
          ctx.err(`sed: can't read ${quoteIfNeeded(f)}: No such file or directory\n`);
          status = 2;
          continue;
        }
        if (e.kind === 'dir' || e.nsfs) {
          ctx.err(
            `sed: read error on ${quoteIfNeeded(f)}: ${e.kind === 'dir' ? 'Is a directory' : 'Invalid argument'}\n`,
          );
          status = 4;
          continue;
        }
        // Files are joined as one stream: a file without a final newline gets one before the next.
        if (text !== '' && !text.endsWith('\n') && !separate) text += '\n';
        text += e.data;
      }
      if (separate) {
        inputs.push(text);
        text = '';
      }
    }
    if (!separate) inputs.push(text);
    for (const t of inputs) {
      const r = runSed(cmds, t, rs, hold);
      ctx.out(r.out);
      if (r.quit) break;
    }
  } catch (e) {
    if (e instanceof SedError) {
      ctx.err(`sed: ${e.message}\n`);
      return 4;
    }
    throw e;
  }
  return status;
}

export const SED_COMMANDS: CommandSpec[] = [{ name: 'sed', dir: '/usr/bin', run: sed }];
