/**
 * Word expansion as bash does it, in its order: tilde, parameter and command substitution, field
 * splitting of unquoted expansion results (default IFS: space, tab, newline), pathname expansion
 * (*, ?, [...] against the node's filesystem; a pattern without matches stays as it is) and quote
 * removal; arithmetic expansion `$((...))` (arith.ts) is done with parameter expansion. Brace
 * expansion comes first, on command words only. Not done: IFS other than the default.
 */
import * as vfs from '../fs/vfs';
import type { CommandList, Word, WordPart } from './parse';
import { ShellSyntaxError, parseWordText } from './parse';
import { arith } from './arith';

export interface ExpandEnv {
  /** A variable or special parameter ($?, $$, $#, $0, ...); undefined when unset. */
  getVar(name: string): string | undefined;
  setVar(name: string, value: string): void;
  /** Runs a command substitution and returns its output. */
  commandSubst(list: CommandList): string;
  home(): string;
  cwd(): string;
  fs(): vfs.FsState;
}

/** A piece of a field: its text and whether glob characters in it are active. */
interface Seg {
  text: string;
  glob: boolean;
}

class FieldBuilder {
  readonly fields: Seg[][] = [];
  private cur: Seg[] = [];
  private started = false;

  add(text: string, glob: boolean, marks = true): void {
    if (text) this.cur.push({ text, glob });
    if (marks) this.started = true;
  }

  end(): void {
    if (this.started || this.cur.length) this.fields.push(this.cur);
    this.cur = [];
    this.started = false;
  }

  /** Adds an unquoted expansion result: it is split into fields at blanks. */
  addSplit(value: string): void {
    if (value === '') return;
    const pieces = value.split(/[ \t\n]+/);
    pieces.forEach((piece, i) => {
      if (i > 0) this.end();
      if (piece) this.add(piece, true);
    });
  }
}

function paramValue(p: Extract<WordPart, { t: 'param' }>, env: ExpandEnv): string {
  if (p.bad) throw new ShellSyntaxError(p.error ?? `${p.raw}: bad substitution`, 1);
  const v = env.getVar(p.name);
  if (p.length) return String([...(v ?? '')].length);
  if (!p.op) return v ?? '';
  const colon = p.op.startsWith(':');
  const unset = v === undefined || (colon && v === '');
  const arg = () => expandWordNoSplit(p.arg ?? { parts: [], raw: '' }, env);
  switch (p.op.replace(':', '')) {
    case '-':
      return unset ? arg() : v!;
    case '=':
      if (unset) {
        const a = arg();
        env.setVar(p.name, a);
        return a;
      }
      return v!;
    case '+':
      return unset ? '' : arg();
    case '?':
      if (unset) {
        const a = arg();
        const e = new ShellSyntaxError(
          `${p.name}: ${a || (colon ? 'parameter null or not set' : 'parameter not set')}`,
          1,
        );
        e.scriptExit = 127;
        throw e;
      }
      return v!;
  }
  return v ?? '';
}

function tildeValue(user: string, env: ExpandEnv): string {
  if (user === '') return env.home();
  if (user === 'root') return '/root';
  return `~${user}`;
}

/**
 * The fields of `words`. `split`: unquoted expansions are split into fields and their glob
 * characters are active (command words); `pattern`: no splitting, but unquoted glob characters,
 * expanded or not, stay active (a `case` pattern).
 */
function build(words: readonly Word[], env: ExpandEnv, split: boolean, pattern = false): Seg[][] {
  const fb = new FieldBuilder();
  const glob = split || pattern;
  for (const w of words) {
    for (const p of w.parts) {
      switch (p.t) {
        case 'lit':
          fb.add(p.v, !p.q && glob, p.q || p.v !== '');
          break;
        case 'tilde':
          fb.add(tildeValue(p.user, env), false);
          break;
        case 'param': {
          // "$@" with no positional parameters makes no field at all.
          if ((p.name === '@' || p.name === '*') && !p.op && !p.length) {
            if (!p.q) break;
            if (p.name === '@') break;
          }
          const v = paramValue(p, env);
          if (p.q || !split) fb.add(v, !p.q && pattern);
          else fb.addSplit(v);
          break;
        }
        case 'arith': {
          const v = arith(expandWordNoSplit(p.expr, env), env);
          if (p.q || !split) fb.add(v, !p.q && pattern);
          else fb.addSplit(v);
          break;
        }
        case 'cmdsub': {
          const v = env.commandSubst(p.list).replace(/\n+$/, '');
          if (p.q || !split) fb.add(v, !p.q && pattern);
          else fb.addSplit(v);
          break;
        }
      }
    }
    fb.end();
  }
  return fb.fields;
}

const GLOB_CHARS = /[*?[]/;

/** A field's literal text, and its glob pattern when an active *, ? or [ is in it. */
function patternOf(segs: Seg[]): { text: string; pattern: string | null } {
  let text = '';
  let pattern = '';
  let active = false;
  for (const s of segs) {
    text += s.text;
    if (s.glob && GLOB_CHARS.test(s.text)) active = true;
    pattern += s.glob ? s.text : s.text.replace(/[*?[\\]/g, (c) => '\\' + c);
  }
  return { text, pattern: active ? pattern : null };
}

/** Converts one path component of a glob pattern to a RegExp (null when it has no glob chars). */
function componentRegex(comp: string): RegExp | null {
  let re = '';
  let magic = false;
  for (let i = 0; i < comp.length; i++) {
    const c = comp[i]!;
    if (c === '\\' && i + 1 < comp.length) {
      re += escapeRe(comp[++i]!);
    } else if (c === '*') {
      re += '.*';
      magic = true;
    } else if (c === '?') {
      re += '.';
      magic = true;
    } else if (c === '[') {
      const end = bracketEnd(comp, i);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      let body = comp.slice(i + 1, end);
      let neg = false;
      if (body[0] === '!' || body[0] === '^') {
        neg = true;
        body = body.slice(1);
      }
      body = body
        .replace(/\[:(\w+):\]/g, (_m, cls: string) => POSIX_CLASSES[cls] ?? '')
        .replace(/\\/g, '\\\\');
      re += `[${neg ? '^' : ''}${body.replace(/]/g, '\\]')}]`;
      magic = true;
      i = end;
    } else {
      re += escapeRe(c);
    }
  }
  return magic ? new RegExp(`^${re}$`, 's') : null;
}

/**
 * Where the bracket expression opened at `open` ends (its `]`), or -1: a `]` first (after `!` or
 * `^`) is a member, and a class `[:alpha:]` inside is skipped whole.
 */
function bracketEnd(p: string, open: number): number {
  let i = open + 1;
  if (p[i] === '!' || p[i] === '^') i++;
  if (p[i] === ']') i++;
  for (; i < p.length; i++) {
    if (p[i] === ']') return i;
    if (p[i] === '[' && p[i + 1] === ':') {
      const close = p.indexOf(':]', i + 2);
      if (close > 0) i = close + 1;
    }
  }
  return -1;
}

export const POSIX_CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  cntrl: '\\x00-\\x1f\\x7f',
  print: ' -~',
  graph: '!-~',
};

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function unescapeGlob(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/** fnmatch(3) of one name against a glob pattern (find -name). */
export function globMatch(pattern: string, name: string): boolean {
  const re = componentRegex(pattern);
  return re ? re.test(name) : unescapeGlob(pattern) === name;
}

/** Pathname expansion of `pattern` against the filesystem: sorted matches, or null. */
export function globPaths(pattern: string, env: Pick<ExpandEnv, 'cwd' | 'fs'>): string[] | null {
  const fs = env.fs();
  const absolute = pattern.startsWith('/');
  const comps = pattern.split('/').filter((c, i) => !(absolute && i === 0));
  let cands: Array<{ abs: string; shown: string }> = [
    { abs: absolute ? '/' : env.cwd(), shown: absolute ? '/' : '' },
  ];
  for (let ci = 0; ci < comps.length; ci++) {
    const comp = comps[ci]!;
    const last = ci === comps.length - 1;
    if (comp === '') {
      // a trailing slash: only directories
      cands = cands
        .filter((c) => vfs.stat(fs, c.abs)?.kind === 'dir')
        .map((c) => ({ abs: c.abs, shown: c.shown + '/' }));
      continue;
    }
    const re = componentRegex(comp);
    const next: typeof cands = [];
    for (const c of cands) {
      const join = (name: string) => ({
        abs: vfs.joinPath(c.abs, name),
        shown:
          c.shown === '' ? name : c.shown.endsWith('/') ? c.shown + name : `${c.shown}/${name}`,
      });
      if (!re) {
        const j = join(unescapeGlob(comp));
        if (last ? vfs.stat(fs, j.abs) : vfs.stat(fs, j.abs)?.kind === 'dir') next.push(j);
        continue;
      }
      const e = vfs.stat(fs, c.abs);
      if (!e || e.kind !== 'dir') continue;
      for (const name of vfs.readDir(fs, c.abs)) {
        if (name.startsWith('.') && !comp.startsWith('.')) continue;
        if (!re.test(name)) continue;
        const j = join(name);
        if (!last && vfs.stat(fs, j.abs)?.kind !== 'dir') continue;
        next.push(j);
      }
    }
    cands = next;
  }
  if (cands.length === 0) return null;
  return cands.map((c) => c.shown).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------
// Brace expansion: the first expansion, on a word's source text (bash's braces.c), whose results
// are then read again as words: `$v{1,2}` is `$v1 $v2`.

const braceBlank = (c: string | undefined) =>
  c === undefined || c === ' ' || c === '\t' || c === '\n';

/** The end of the `$(...)` or `<(...)` whose `(` is at `open` (quotes and nesting skipped). */
function parenEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') i++;
    else if (c === "'" || c === '"' || c === '`') {
      const e = text.indexOf(c, i + 1);
      if (e < 0) return text.length;
      i = e;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return text.length;
}

/**
 * From `i`, the index of the unquoted `satisfy` (`{`, `}` or `,`) at brace level 0, or -1. A
 * `}` counts only once a `,` or `..` was seen at that level; a `{` between blanks is no brace.
 */
function gobble(text: string, i: number, satisfy: '{' | '}' | ','): number {
  let level = 0;
  let quoted = '';
  let passNext = false;
  let commas = satisfy === '}' ? 0 : 1;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (passNext) {
      passNext = false;
      continue;
    }
    if (c === '\\' && (quoted === '' || quoted === '"' || quoted === '`')) {
      passNext = true;
      continue;
    }
    // ${...} is as good as \{...}
    if (c === '$' && text[i + 1] === '{' && quoted !== "'") {
      passNext = true;
      if (quoted === '') level++;
      continue;
    }
    if (quoted !== '') {
      if (quoted === '"' && c === '$' && text[i + 1] === '(') i = parenEnd(text, i + 1);
      else if (c === quoted) quoted = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      quoted = c;
      continue;
    }
    if ((c === '$' || c === '<' || c === '>') && text[i + 1] === '(') {
      i = parenEnd(text, i + 1);
      continue;
    }
    if (c === satisfy && level === 0 && commas > 0) {
      if (
        c === '{' &&
        (i === 0 || braceBlank(text[i - 1])) &&
        (braceBlank(text[i + 1]) || text[i + 1] === '}')
      )
        continue;
      return i;
    }
    if (c === '{') level++;
    else if (c === '}' && level > 0) level--;
    else if (
      satisfy === '}' &&
      level === 0 &&
      (c === ',' || (text.startsWith('..', i) && text[i + 2] !== '}'))
    )
      commas++;
  }
  return -1;
}

/** More words than this from one word is surely a mistake (`{1..100000000}`). */
const MAX_BRACE_WORDS = 100_000;
const TOO_MANY_WORDS = () =>
  new ShellSyntaxError(`cnisim: brace expansion makes more than ${MAX_BRACE_WORDS} words`, 1);

/** strtoimax's prefix of `s` (blanks, a sign, digits): its value and where it stops. */
function leadingInt(s: string): { n: number; end: number } | null {
  const m = /^[ \t\n]*[-+]?\d+/.exec(s);
  return m ? { n: Number(m[0].trim()), end: m[0].length } : null;
}

/** `1..10..2`, `01..10`, `a..e`: the words of a sequence expression (bash's expand_seqterm). */
function sequence(amble: string): string[] | null {
  const t = amble.indexOf('..');
  if (t < 0) return null;
  const lhs = amble.slice(0, t);
  const rhs = amble.slice(t + 2);
  if (lhs === '' || rhs === '') return null;
  const lhsInt = /^[ \t\n]*[-+]?\d+[ \t\n]*$/.test(lhs);
  const lhsType = lhsInt ? 'int' : /^[A-Za-z]$/.test(lhs) ? 'char' : null;
  let rhsType: 'int' | 'char' | null = null;
  let ep = 0;
  let rv = 0;
  if (/^[-+]?\d/.test(rhs)) {
    const r = leadingInt(rhs)!;
    rv = r.n;
    ep = r.end;
    rhsType = ep === rhs.length || rhs[ep] === '.' ? 'int' : null;
  } else if (/^[A-Za-z]$|^[A-Za-z]\./.test(rhs)) {
    rhsType = 'char';
    ep = 1;
  }
  let incr = 1;
  if (rhsType) {
    if (rhs.startsWith('..', ep) && ep + 2 < rhs.length) {
      const inc = leadingInt(rhs.slice(ep + 2));
      if (inc) {
        incr = inc.n;
        ep += 2 + inc.end;
      } else ep += 2;
    }
    if (ep !== rhs.length) rhsType = null;
  }
  if (!lhsType || lhsType !== rhsType) return null;
  const rhsNum = rhs.slice(0, rhsType === 'int' ? leadingInt(rhs)!.end : 1);
  let start: number;
  let end: number;
  let width = 0;
  if (lhsType === 'char') {
    start = lhs.charCodeAt(0);
    end = rhs.charCodeAt(0);
  } else {
    start = Number(lhs.trim());
    end = rv;
    // A leading 0 (or -0) pads every term to the widest end, as printf's %0*d does.
    for (const side of [lhs, rhsNum])
      if (/^-?0./.test(side) && side.length > (side[0] === '-' ? 2 : 1))
        width = Math.max(width, lhs.length, rhsNum.length);
  }
  if (incr === 0) incr = 1;
  if ((start > end && incr > 0) || (start < end && incr < 0)) incr = -incr;
  const out: string[] = [];
  for (let n = start; ; n += incr) {
    if (lhsType === 'char') {
      // A generated backslash quotes nothing and goes at quote removal: an empty word.
      const ch = String.fromCharCode(n);
      out.push(ch === '\\' ? "''" : /[A-Za-z0-9]/.test(ch) ? ch : `\\${ch}`);
    } else if (width > 0) {
      out.push((n < 0 ? '-' : '') + String(Math.abs(n)).padStart(width - (n < 0 ? 1 : 0), '0'));
    } else out.push(String(n));
    if (out.length > MAX_BRACE_WORDS) throw TOO_MANY_WORDS();
    if ((incr < 0 && n + incr < end) || (incr > 0 && n + incr > end)) break;
  }
  return out;
}

/** Every string of `a` followed by every string of `b` (bash's array_concat). */
function concat(a: string[], b: string[]): string[] {
  if (a.length === 1 && a[0] === '') return b;
  if (b.length === 1 && b[0] === '') return a;
  const out: string[] = [];
  for (const x of a)
    for (const y of b) {
      out.push(x + y);
      if (out.length > MAX_BRACE_WORDS) throw TOO_MANY_WORDS();
    }
  return out;
}

/** Brace expansion of a word's source text (bash's brace_expand). */
export function braceExpandText(text: string): string[] {
  let i = 0;
  for (;;) {
    i = gobble(text, i, '{');
    if (i < 0) return [text];
    if (gobble(text, i + 1, '}') >= 0) break;
    i++;
  }
  const start = i + 1;
  const close = gobble(text, start, '}');
  const amble = text.slice(start, close);
  let tack: string[];
  if (!/^(?:\\.|[^\\,])*,/s.test(amble)) {
    const seq = sequence(amble);
    if (seq) tack = seq;
    else if (close + 1 < text.length) tack = [text.slice(i, close + 1)];
    else return [text];
  } else {
    tack = [];
    let from = 0;
    for (;;) {
      const comma = gobble(amble, from, ',');
      tack.push(...braceExpandText(amble.slice(from, comma < 0 ? amble.length : comma)));
      if (comma < 0) break;
      from = comma + 1;
    }
  }
  let result = concat([text.slice(0, i)], tack);
  const post = text.slice(close + 1);
  if (post !== '') result = concat(result, braceExpandText(post));
  return result;
}

/** `a{b,c}d` → `abd acd`; `{1..3}` → `1 2 3`; a word without a valid brace stays as it is. */
export function braceExpand(w: Word): Word[] {
  if (!w.parts.some((p) => p.t === 'lit' && !p.q && p.v.includes('{'))) return [w];
  const texts = braceExpandText(w.raw);
  if (texts.length === 1 && texts[0] === w.raw) return [w];
  return texts.map(parseWordText);
}

/** Expands command words into argv: brace expansion, splitting and globbing included. */
export function expandWords(words: readonly Word[], env: ExpandEnv): string[] {
  const out: string[] = [];
  for (const segs of build(words.flatMap(braceExpand), env, true)) {
    const { text, pattern } = patternOf(segs);
    if (pattern !== null) {
      const matches = globPaths(pattern, env);
      if (matches) {
        out.push(...matches);
        continue;
      }
    }
    out.push(text);
  }
  return out;
}

/** Expands one word to one string (assignments, `case`-like contexts): no splitting, no globbing. */
export function expandWordNoSplit(word: Word, env: ExpandEnv): string {
  return build([word], env, false)
    .map((segs) => segs.map((s) => s.text).join(''))
    .join('');
}

/**
 * Expands a `case` pattern: one string, no splitting, in which the glob characters that were
 * quoted (or came from a quoted expansion) are escaped with a backslash, for `globMatch`.
 */
export function expandPattern(word: Word, env: ExpandEnv): string {
  return build([word], env, false, true)
    .map((segs) =>
      segs.map((s) => (s.glob ? s.text : s.text.replace(/[*?[\\]/g, (c) => '\\' + c))).join(''),
    )
    .join('');
}

/**
 * Expands the right side of `[[ x =~ RE ]]` to a JavaScript RegExp source: unquoted text is
 * the POSIX extended regular expression (its [:class:] names translated), quoted text and
 * quoted expansions match literally.
 */
export function expandRegex(word: Word, env: ExpandEnv): string {
  return build([word], env, false, true)
    .map((segs) =>
      segs
        .map((s) =>
          s.glob
            ? s.text.replace(/\[:(\w+):\]/g, (m, cls: string) => POSIX_CLASSES[cls] ?? m)
            : s.text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'),
        )
        .join(''),
    )
    .join('');
}

/** Whether a word contains any expansion (its expanded text can differ from its source). */
export function hasExpansion(w: Word): boolean {
  return w.parts.some((p) => p.t !== 'lit' || (!p.q && GLOB_CHARS.test(p.v)));
}

/** Quotes a string for display the way `set -x` / `printf %q`-like output would need it. */
export function shellQuote(s: string): string {
  if (s === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
