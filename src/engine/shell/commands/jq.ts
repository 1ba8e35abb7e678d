/**
 * A subset of jq 1.6 (Debian bookworm's): its JSON reader (jv_parse, with its error messages and
 * positions), its output (2-space pretty or -c compact, number formatting, string escaping, key
 * order kept) and exit codes (2 file errors, 3 compile errors, 4 parse errors, 5 runtime errors).
 *
 * Filters: paths only — `.`, `.a`, `.a.b`, `."a"`, `.["a"]`, `.[N]` (negative from the end),
 * `.[]`, an optional `?` after any step, and `|` between paths. Anything else is refused
 * ("cnisim supports only path filters"), even when jq would accept it.
 * Options: -c -r -j -a -S -s -n -e -M -C --tab --indent N, files or stdin.
 */
import * as vfs from '../../fs/vfs';
import type { CommandContext, CommandSpec } from '../types';

export type JV = null | boolean | number | string | JV[] | JObject;
export class JObject {
  readonly entries = new Map<string, JV>();
}

function kindName(v: JV): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

// -----------------------------------------------------------------------------------------------
// Reader: jq 1.6's jv_parse, character by character.

type Frame =
  | { kind: 'array'; value: JV[] }
  | { kind: 'object'; value: JObject }
  | { kind: 'key'; key: string };

export class JqParser {
  private stack: Frame[] = [];
  private next: JV | undefined = undefined;
  private token = '';
  private inString = false;
  private escape = false;
  line = 1;
  column = 0;

  /** Feeds the whole text; returns values and the error (jq stops at the first one). */
  static parseAll(text: string): { values: JV[]; error: string | null } {
    const p = new JqParser();
    const values: JV[] = [];
    for (const ch of text) {
      const r = p.scan(ch);
      if (r.error) return { values, error: `${r.error} at line ${p.line}, column ${p.column}` };
      if (r.value !== undefined) values.push(r.value);
    }
    const end = p.finish();
    if (end.error)
      return { values, error: `${end.error} at EOF at line ${p.line}, column ${p.column}` };
    if (end.value !== undefined) values.push(end.value);
    return { values, error: null };
  }

  private value(v: JV): string | null {
    if (this.next !== undefined) return 'Expected separator between values';
    this.next = v;
    return null;
  }

  private checkLiteral(): string | null {
    if (this.token === '') return null;
    const t = this.token;
    let pattern: string | null = null;
    let v: JV = null;
    if (t[0] === 't') {
      pattern = 'true';
      v = true;
    } else if (t[0] === 'f') {
      pattern = 'false';
      v = false;
    } else if (t[0] === 'n' && t.length !== 3) {
      pattern = 'null';
      v = null;
    }
    if (pattern !== null) {
      if (t !== pattern) return 'Invalid literal';
      const e = this.value(v);
      if (e) return e;
    } else {
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) && t !== 'nan')
        return 'Invalid numeric literal';
      const e = this.value(t === 'nan' ? NaN : Number(t));
      if (e) return e;
    }
    this.token = '';
    return null;
  }

  private done(): JV | undefined {
    if (this.stack.length === 0 && this.next !== undefined) {
      const v = this.next;
      this.next = undefined;
      return v;
    }
    return undefined;
  }

  private structural(ch: string): string | null {
    const top = this.stack[this.stack.length - 1];
    switch (ch) {
      case '[':
        if (this.next !== undefined) return 'Expected separator between values';
        this.stack.push({ kind: 'array', value: [] });
        return null;
      case '{':
        if (this.next !== undefined) return 'Expected separator between values';
        this.stack.push({ kind: 'object', value: new JObject() });
        return null;
      case ':':
        if (this.next === undefined) return "Expected string key before ':'";
        if (!top || top.kind !== 'object') return "':' not as part of an object";
        if (typeof this.next !== 'string') return 'Object keys must be strings';
        this.stack.push({ kind: 'key', key: this.next });
        this.next = undefined;
        return null;
      case ',':
        if (this.next === undefined) return "Expected value before ','";
        if (!top) return "',' not as part of an object or array";
        if (top.kind === 'array') {
          top.value.push(this.next);
          this.next = undefined;
        } else if (top.kind === 'key') {
          this.stack.pop();
          (this.stack[this.stack.length - 1] as { value: JObject }).value.entries.set(
            top.key,
            this.next,
          );
          this.next = undefined;
        } else return 'Objects must consist of key:value pairs';
        return null;
      case ']':
        if (!top || top.kind !== 'array') return "Unmatched ']'";
        if (this.next !== undefined) {
          top.value.push(this.next);
          this.next = undefined;
        } else if (top.value.length !== 0) return 'Expected another array element';
        this.stack.pop();
        this.next = top.value;
        return null;
      case '}':
        if (!top) return "Unmatched '}'";
        if (this.next !== undefined) {
          if (top.kind !== 'key') return 'Objects must consist of key:value pairs';
          this.stack.pop();
          const obj = this.stack[this.stack.length - 1] as { kind: 'object'; value: JObject };
          obj.value.entries.set(top.key, this.next);
          this.next = undefined;
          this.stack.pop();
          this.next = obj.value;
        } else {
          if (top.kind !== 'object') return "Unmatched '}'";
          if (top.value.entries.size !== 0) return 'Expected another key-value pair';
          this.stack.pop();
          this.next = top.value;
        }
        return null;
    }
    return null;
  }

  private foundString(): string | null {
    const t = this.token;
    let out = '';
    for (let i = 0; i < t.length; i++) {
      const c = t[i]!;
      if (c === '\\') {
        const n = t[++i];
        if (n === undefined) return 'Expected escape character at end of string';
        switch (n) {
          case '\\':
          case '"':
          case '/':
            out += n;
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 't':
            out += '\t';
            break;
          case 'n':
            out += '\n';
            break;
          case 'r':
            out += '\r';
            break;
          case 'u': {
            const hex = t.slice(i + 1, i + 5);
            if (hex.length < 4) return 'Invalid \\uXXXX escape';
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) return 'Invalid characters in \\uXXXX escape';
            let cp = parseInt(hex, 16);
            i += 4;
            if (cp >= 0xd800 && cp <= 0xdbff) {
              const lo = t.slice(i + 1, i + 7);
              if (!/^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(lo))
                return 'Invalid \\uXXXX\\uXXXX surrogate pair escape';
              cp = 0x10000 + ((cp - 0xd800) << 10) + (parseInt(lo.slice(2), 16) - 0xdc00);
              i += 6;
            }
            out += cp >= 0xdc00 && cp <= 0xdfff ? '\ufffd' : String.fromCodePoint(cp);
            break;
          }
          default:
            return 'Invalid escape';
        }
      } else {
        if (c.charCodeAt(0) < 0x20)
          return 'Invalid string: control characters from U+0000 through U+001F must be escaped';
        out += c;
      }
    }
    const e = this.value(out);
    if (e) return e;
    this.token = '';
    return null;
  }

  scan(ch: string): { value?: JV; error?: string } {
    this.column++;
    if (ch === '\n') {
      this.line++;
      this.column = 0;
    }
    let value: JV | undefined;
    if (!this.inString) {
      const cls =
        ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n'
          ? 'ws'
          : ch === '"'
            ? 'quote'
            : '[,]{:}'.includes(ch)
              ? 'struct'
              : 'lit';
      if (cls !== 'lit') {
        const e = this.checkLiteral();
        if (e) return { error: e };
        const d = this.done();
        if (d !== undefined) value = d;
      }
      if (cls === 'lit') this.token += ch;
      else if (cls === 'quote') this.inString = true;
      else if (cls === 'struct') {
        const e = this.structural(ch);
        if (e) return { error: e };
      }
      const d = this.done();
      if (d !== undefined) value = d;
    } else if (ch === '"' && !this.escape) {
      const e = this.foundString();
      if (e) return { error: e };
      this.inString = false;
      const d = this.done();
      if (d !== undefined) value = d;
    } else {
      this.token += ch;
      this.escape = ch === '\\' && !this.escape;
    }
    return value === undefined ? {} : { value };
  }

  finish(): { value?: JV; error?: string } {
    if (this.inString) return { error: 'Unfinished string' };
    const e = this.checkLiteral();
    if (e) return { error: e };
    if (this.stack.length !== 0) return { error: 'Unfinished JSON term' };
    const v = this.next;
    this.next = undefined;
    return v === undefined ? {} : { value: v };
  }
}

// -----------------------------------------------------------------------------------------------
// Output

/** jq 1.6's number formatting (jvp_dtoa_fmt: shortest round-trip digits, %.17g-like layout). */
export function jqNumber(x: number): string {
  if (Number.isNaN(x)) return 'null';
  if (x === Infinity) x = Number.MAX_VALUE;
  if (x === -Infinity) x = -Number.MAX_VALUE;
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const sign = x < 0 ? '-' : '';
  const [mant, e] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const decpt = Number(e) + 1;
  const nd = digits.length;
  if (decpt <= -4 || decpt > nd + 15) {
    const exp = decpt - 1;
    const ad = String(Math.abs(exp)).padStart(2, '0');
    return `${sign}${digits[0]}${nd > 1 ? '.' + digits.slice(1) : ''}e${exp < 0 ? '-' : '+'}${ad}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= nd) return `${sign}${digits}${'0'.repeat(decpt - nd)}`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

function jqString(s: string, ascii: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || c === 0x7f) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (ascii && c > 0x7f) {
      if (c > 0xffff) {
        const v = c - 0x10000;
        out +=
          '\\u' + (0xd800 + (v >> 10)).toString(16) + '\\u' + (0xdc00 + (v & 0x3ff)).toString(16);
      } else out += '\\u' + c.toString(16).padStart(4, '0');
    } else out += ch;
  }
  return out + '"';
}

export interface DumpOptions {
  indent: string | null;
  sortKeys: boolean;
  ascii: boolean;
}

export function jqDump(v: JV, o: DumpOptions, level = 0): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return jqNumber(v);
  if (typeof v === 'string') return jqString(v, o.ascii);
  const nl = o.indent === null ? '' : '\n' + o.indent.repeat(level + 1);
  const close = o.indent === null ? '' : '\n' + o.indent.repeat(level);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${v.map((x) => nl + jqDump(x, o, level + 1)).join(',')}${close}]`;
  }
  let keys = [...v.entries.keys()];
  if (keys.length === 0) return '{}';
  if (o.sortKeys) keys = keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sep = o.indent === null ? ':' : ': ';
  return `{${keys.map((k) => nl + jqString(k, o.ascii) + sep + jqDump(v.entries.get(k)!, o, level + 1)).join(',')}${close}}`;
}

// -----------------------------------------------------------------------------------------------
// Filters

type Step =
  | { kind: 'key'; key: string; opt: boolean }
  | { kind: 'index'; n: number; opt: boolean }
  | { kind: 'iter'; opt: boolean }
  | { kind: 'identity' };

class JqCompileError extends Error {}
class JqRuntimeError extends Error {}

/** Parses a path filter into stages (separated by |) of steps; throws JqCompileError. */
export function parseFilter(src: string): Step[][] {
  const stages: Step[][] = [];
  for (const part of splitPipes(src)) {
    const s = part.trim();
    if (s === '') throw new JqCompileError('empty');
    stages.push(parsePath(s));
  }
  return stages;
}

function splitPipes(src: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inStr = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (inStr) {
      cur += c;
      if (c === '\\') cur += src[++i] ?? '';
      else if (c === '"') inStr = false;
    } else if (c === '"') {
      inStr = true;
      cur += c;
    } else if (c === '|') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function parsePath(s: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  const readString = (): string => {
    // s[i] === '"'
    let j = i + 1;
    let raw = '"';
    while (j < s.length && s[j] !== '"') {
      if (s[j] === '\\') raw += s[j++];
      raw += s[j++] ?? '';
    }
    if (j >= s.length) throw new JqCompileError('unterminated string');
    raw += '"';
    i = j + 1;
    const r = JqParser.parseAll(raw);
    if (r.error || typeof r.values[0] !== 'string') throw new JqCompileError('bad string');
    return r.values[0];
  };
  const opt = (): boolean => {
    if (s[i] === '?') {
      i++;
      return true;
    }
    return false;
  };
  if (s[0] !== '.') throw new JqCompileError('not a path');
  if (s === '.') return [{ kind: 'identity' }];
  while (i < s.length) {
    if (s[i] === '.') {
      i++;
      if (s[i] === '"') {
        const key = readString();
        steps.push({ kind: 'key', key, opt: opt() });
        continue;
      }
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i));
      if (m) {
        i += m[0].length;
        steps.push({ kind: 'key', key: m[0], opt: opt() });
        continue;
      }
      if (s[i] !== '[') {
        if (i === 1 && i >= s.length) return [{ kind: 'identity' }];
        throw new JqCompileError('bad path');
      }
    }
    if (s[i] === '[') {
      i++;
      while (s[i] === ' ') i++;
      if (s[i] === ']') {
        i++;
        steps.push({ kind: 'iter', opt: opt() });
        continue;
      }
      if (s[i] === '"') {
        const key = readString();
        while (s[i] === ' ') i++;
        if (s[i] !== ']') throw new JqCompileError('bad index');
        i++;
        steps.push({ kind: 'key', key, opt: opt() });
        continue;
      }
      const m = /^-?[0-9]+/.exec(s.slice(i));
      if (!m) throw new JqCompileError('bad index');
      i += m[0].length;
      while (s[i] === ' ') i++;
      if (s[i] !== ']') throw new JqCompileError('bad index');
      i++;
      steps.push({ kind: 'index', n: Number(m[0]), opt: opt() });
      continue;
    }
    throw new JqCompileError('bad path');
  }
  return steps;
}

function applyStep(v: JV, st: Step): JV[] {
  switch (st.kind) {
    case 'identity':
      return [v];
    case 'key':
      if (v === null) return [null];
      if (v instanceof JObject) return [v.entries.has(st.key) ? v.entries.get(st.key)! : null];
      throw new JqRuntimeError(`Cannot index ${kindName(v)} with string "${st.key}"`);
    case 'index':
      if (v === null) return [null];
      if (Array.isArray(v)) {
        const i = st.n < 0 ? v.length + st.n : st.n;
        return [i >= 0 && i < v.length ? v[i]! : null];
      }
      throw new JqRuntimeError(`Cannot index ${kindName(v)} with number`);
    case 'iter':
      if (Array.isArray(v)) return v;
      if (v instanceof JObject) return [...v.entries.values()];
      if (v === null) throw new JqRuntimeError('Cannot iterate over null');
      throw new JqRuntimeError(
        `Cannot iterate over ${kindName(v)} (${jqDump(v, { indent: null, sortKeys: false, ascii: false })})`,
      );
  }
}

/** Runs the filter on one input: its outputs, and the error that ended it (if any). */
function runFilter(stages: Step[][], input: JV): { outputs: JV[]; error: string | null } {
  const outputs: JV[] = [];
  const go = (v: JV, stage: number, step: number): void => {
    if (stage >= stages.length) {
      outputs.push(v);
      return;
    }
    const steps = stages[stage]!;
    if (step >= steps.length) return go(v, stage + 1, 0);
    const st = steps[step]!;
    let results: JV[];
    try {
      results = applyStep(v, st);
    } catch (e) {
      if (e instanceof JqRuntimeError && st.kind !== 'identity' && st.opt) return;
      throw e;
    }
    for (const r of results) go(r, stage, step + 1);
  };
  try {
    go(input, 0, 0);
    return { outputs, error: null };
  } catch (e) {
    if (e instanceof JqRuntimeError) return { outputs, error: e.message };
    throw e;
  }
}

// -----------------------------------------------------------------------------------------------
// The command

function jq(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  let compact = false;
  let raw = false;
  let join = false;
  let ascii = false;
  let sortKeys = false;
  let slurp = false;
  let nullInput = false;
  let exitStatus = false;
  let indent = '  ';
  let filter: string | null = null;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--')) {
      const name = a.slice(2);
      if (name === 'compact-output') compact = true;
      else if (name === 'raw-output') raw = true;
      else if (name === 'join-output') raw = join = true;
      else if (name === 'ascii-output') ascii = true;
      else if (name === 'sort-keys') sortKeys = true;
      else if (name === 'slurp') slurp = true;
      else if (name === 'null-input') nullInput = true;
      else if (name === 'exit-status') exitStatus = true;
      else if (name === 'tab') indent = '\t';
      else if (name === 'indent') {
        const n = Number(args[++i]);
        if (!Number.isInteger(n) || n < 0 || n > 7) {
          ctx.err('jq: Cannot indent more than 7 characters\n');
          return 2;
        }
        indent = ' '.repeat(n);
        if (n === 0) compact = true;
      } else if (name === 'monochrome-output' || name === 'color-output' || name === 'unbuffered')
        continue;
      else if (name === '' && filter === null) continue;
      else {
        ctx.err(
          `jq: Unknown option: ${a}\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n`,
        );
        return 2;
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (const f of a.slice(1)) {
        if (f === 'c') compact = true;
        else if (f === 'r') raw = true;
        else if (f === 'j') raw = join = true;
        else if (f === 'a') ascii = true;
        else if (f === 'S') sortKeys = true;
        else if (f === 's') slurp = true;
        else if (f === 'n') nullInput = true;
        else if (f === 'e') exitStatus = true;
        else if (f === 'M' || f === 'C') continue;
        else {
          ctx.err(
            `jq: Unknown option: ${a}\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n`,
          );
          return 2;
        }
      }
      continue;
    }
    if (filter === null) filter = a;
    else files.push(a);
  }
  if (filter === null) filter = '.';
  let stages: Step[][];
  try {
    stages = parseFilter(filter);
  } catch (e) {
    if (!(e instanceof JqCompileError)) throw e;
    ctx.err(
      `jq: error: cnisim supports only path filters (. .a .a.b ."a" .["a"] .[0] .[] ? |), not: ${filter}\njq: 1 compile error\n`,
    );
    return 3;
  }
  const dump: DumpOptions = { indent: compact ? null : indent, sortKeys, ascii };
  let status = 0;
  let lastOutput: JV | undefined;
  let produced = false;
  const emit = (v: JV) => {
    produced = true;
    lastOutput = v;
    const text = raw && typeof v === 'string' ? v : jqDump(v, dump);
    ctx.out(join ? text : text + '\n');
  };
  const process = (input: JV, where: string): void => {
    const r = runFilter(stages, input);
    for (const o of r.outputs) emit(o);
    if (r.error !== null) {
      ctx.err(`jq: error (at ${where}): ${r.error}\n`);
      status = 5;
    }
  };
  if (nullInput) {
    process(null, '<unknown>');
  } else {
    // The inputs, read as one stream; positions name the file being read.
    const sources: Array<{ name: string; text: string }> = [];
    let openFailed = false;
    if (files.length === 0) sources.push({ name: '<stdin>', text: ctx.stdin });
    for (const f of files) {
      const e = vfs.stat(ctx.fs(), ctx.resolve(f));
      if (!e) {
        ctx.err(`jq: error: Could not open file ${f}: No such file or directory\n`);
        openFailed = true;
      } else if (e.kind === 'dir' || e.nsfs) {
        // jq 1.6 counts a read error without a message.
        openFailed = true;
      } else sources.push({ name: f, text: e.data });
    }
    const text = sources.map((s) => s.text).join('');
    const parsed = JqParser.parseAll(text);
    const last = sources[sources.length - 1];
    const where = last ? `${last.name}:${(last.text.match(/\n/g) ?? []).length}` : '<unknown>';
    if (slurp) {
      if (!parsed.error) process(parsed.values, where);
    } else for (const v of parsed.values) process(v, where);
    if (parsed.error) {
      ctx.err(`parse error: ${parsed.error}\n`);
      return 4;
    }
    if (openFailed) return 2;
  }
  if (status !== 0) return status;
  if (exitStatus) {
    if (!produced) return 4;
    return lastOutput === null || lastOutput === false ? 1 : 0;
  }
  return 0;
}

export const JQ_COMMANDS: CommandSpec[] = [{ name: 'jq', dir: '/usr/bin', run: jq }];
