/**
 * json.Marshal / MarshalIndent / Encoder.Encode emulation (Go 1.19 encode.go, indent.go).
 */
import {
  Scanner,
  SCAN_CONTINUE,
  SCAN_END_ARRAY,
  SCAN_END_OBJECT,
  SCAN_ERROR,
  SCAN_SKIP_SPACE,
} from './scanner';
import { goFormatFloat } from './strconv';
import {
  cachedTypeFields,
  isBoxedPtr,
  type GoCustomType,
  type GoError,
  type GoType,
} from './types';
import { goErrorMessage } from './decode';

export interface MarshalOptions {
  /**
   * Indentation per level. When `indent` or `prefix` is given the output is laid out like
   * json.MarshalIndent(v, prefix, indent) (even when both are "").
   */
  indent?: string;
  prefix?: string;
  /** escape <, > and & as \u003c, \u003e, \u0026 (default true, like Marshal; Encoder can disable) */
  escapeHTML?: boolean;
  /** append "\n" like Encoder.Encode */
  trailingNewline?: boolean;
  /** treat every plain object as a Go map: keys sorted by their UTF-8 bytes (default false) */
  sortMapKeys?: boolean;
}

export interface MarshalResult {
  /** the encoded JSON ("" on error) */
  text: string;
  /** the Error() string of the error Marshal returns, or null */
  error: string | null;
}

/**
 * Objects may carry a MarshalJSON method under this symbol: it returns raw JSON text (or a
 * CustomResult) which is validated and compacted like Go does for json.Marshaler values.
 */
export const goMarshalJSON: unique symbol = Symbol.for('cnisim.gojson.MarshalJSON');

class EncodeError {
  constructor(readonly message: string) {}
}

const HEX = '0123456789abcdef';

// Characters that need escaping (with HTML escaping / without): control characters among them.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE_HTML = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\u2028\u2029\ud800-\udfff]/;

/** Go's encodeState.string: a JSON string literal for s. */
export function goJSONString(s: string, escapeHTML = true): string {
  if (!(escapeHTML ? NEEDS_ESCAPE_HTML : NEEDS_ESCAPE).test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    let rep: string;
    if (c < 0x80) {
      if (
        c >= 0x20 &&
        c !== 0x22 &&
        c !== 0x5c &&
        !(escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26))
      ) {
        continue;
      }
      switch (c) {
        case 0x5c:
          rep = '\\\\';
          break;
        case 0x22:
          rep = '\\"';
          break;
        case 0x0a:
          rep = '\\n';
          break;
        case 0x0d:
          rep = '\\r';
          break;
        case 0x09:
          rep = '\\t';
          break;
        default:
          rep = '\\u00' + HEX[c >> 4] + HEX[c & 15];
      }
    } else if (c === 0x2028 || c === 0x2029) {
      rep = c === 0x2028 ? '\\u2028' : '\\u2029';
    } else if (c >= 0xd800 && c < 0xe000) {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
        i++;
        continue;
      }
      rep = '\\ufffd';
    } else continue;
    if (start < i) out += s.slice(start, i);
    out += rep;
    start = i + 1;
  }
  if (start < n) out += s.slice(start);
  return out + '"';
}

/** Go's float64 encoder; throws EncodeError for NaN/Inf (caught by the public functions). */
function floatJSON(f: number, bits: 32 | 64 = 64): string {
  if (!Number.isFinite(f)) {
    throw new EncodeError('json: unsupported value: ' + goFormatFloat(f, 'g'));
  }
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  if (bits === 32) return float32JSON(f);
  return String(f); // ES Number::toString uses the same cutoffs and shortest digits
}

function float32JSON(f: number): string {
  const f32 = Math.fround(f);
  if (!Number.isFinite(f32)) {
    throw new EncodeError('json: unsupported value: ' + goFormatFloat(f32, 'g'));
  }
  if (f32 === 0) return Object.is(f32, -0) ? '-0' : '0';
  // shortest digits that round-trip through float32
  let digits = '';
  for (let p = 1; p <= 9; p++) {
    const s = Math.abs(f32).toPrecision(p);
    if (Math.fround(Number(s)) === Math.abs(f32)) {
      digits = s;
      break;
    }
  }
  const abs = Number(digits);
  const neg = f32 < 0 ? '-' : '';
  if (abs < 1e-6 || abs >= 1e21) {
    let e = abs.toExponential();
    e = e.replace(/e([+-])(\d)$/, 'e$10$2');
    return neg + e.replace(/e-0(\d)$/, 'e-$1');
  }
  return neg + String(abs);
}

function intJSON(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const t = Math.trunc(n);
  if (Number.isSafeInteger(t)) return t === 0 ? '0' : String(t);
  return BigInt(t).toString();
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** base64.StdEncoding.EncodeToString (how Go encodes []byte). */
export function base64Std(b: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = ((b[i] ?? 0) << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out +=
      (B64[n >> 18] ?? '') +
      (B64[(n >> 12) & 63] ?? '') +
      (B64[(n >> 6) & 63] ?? '') +
      (B64[n & 63] ?? '');
  }
  const rem = b.length - i;
  if (rem === 1) {
    const n = (b[i] ?? 0) << 16;
    out += (B64[n >> 18] ?? '') + (B64[(n >> 12) & 63] ?? '') + '==';
  } else if (rem === 2) {
    const n = ((b[i] ?? 0) << 16) | ((b[i + 1] ?? 0) << 8);
    out += (B64[n >> 18] ?? '') + (B64[(n >> 12) & 63] ?? '') + (B64[(n >> 6) & 63] ?? '') + '=';
  }
  return out;
}

/** Compares strings by their UTF-8 bytes (= code point order), like Go's string comparison. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // surrogates (supplementary planes) sort after U+E000..U+FFFF in code point order
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

function sortedKeys(keys: string[]): string[] {
  return keys.sort(compareGoStrings);
}

/** Go's compact(dst, src, escape): validates raw JSON and strips insignificant space. */
export function goCompact(src: string, escapeHTML = false): MarshalResult {
  const scan = new Scanner();
  let out = '';
  let start = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26)) {
      if (start < i) out += src.slice(start, i);
      out += '\\u00' + HEX[c >> 4] + HEX[c & 15];
      start = i + 1;
    }
    if (escapeHTML && (c === 0x2028 || c === 0x2029)) {
      if (start < i) out += src.slice(start, i);
      out += c === 0x2028 ? '\\u2028' : '\\u2029';
      start = i + 1;
    }
    const v = scan.step(c, i);
    if (v >= SCAN_SKIP_SPACE) {
      if (v === SCAN_ERROR) return { text: '', error: scan.message(src) };
      if (start < i) out += src.slice(start, i);
      start = i + 1;
    }
  }
  if (scan.eof() === SCAN_ERROR) return { text: '', error: scan.message(src) };
  if (start < src.length) out += src.slice(start);
  return { text: out, error: null };
}

function newline(prefix: string, indent: string, depth: number): string {
  return '\n' + prefix + (depth > 0 ? indent.repeat(depth) : '');
}

/** Go's json.Indent(dst, src, prefix, indent) for arbitrary JSON text. */
export function goIndent(src: string, prefix: string, indent: string): MarshalResult {
  const scan = new Scanner();
  let out = '';
  let needIndent = false;
  let depth = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    const v = scan.step(c, i);
    if (v === SCAN_SKIP_SPACE) continue;
    if (v === SCAN_ERROR) return { text: '', error: scan.message(src) };
    if (needIndent && v !== SCAN_END_OBJECT && v !== SCAN_END_ARRAY) {
      needIndent = false;
      depth++;
      out += newline(prefix, indent, depth);
    }
    if (v === SCAN_CONTINUE) {
      out += src[i];
      continue;
    }
    switch (c) {
      case 0x7b:
      case 0x5b:
        needIndent = true;
        out += src[i];
        break;
      case 0x2c:
        out += ',' + newline(prefix, indent, depth);
        break;
      case 0x3a:
        out += ': ';
        break;
      case 0x7d:
      case 0x5d:
        if (needIndent) needIndent = false;
        else {
          depth--;
          out += newline(prefix, indent, depth);
        }
        out += src[i];
        break;
      default:
        out += src[i];
    }
  }
  if (scan.eof() === SCAN_ERROR) return { text: '', error: scan.message(src) };
  return { text: out, error: null };
}

/** Indent for compact JSON produced by this encoder (no whitespace outside strings). */
function indentCompact(src: string, prefix: string, indent: string): string {
  let out = '';
  let needIndent = false;
  let depth = 0;
  let start = 0;
  const n = src.length;
  for (let i = 0; i < n; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x22) {
      // string literal: copy through
      if (needIndent) {
        needIndent = false;
        depth++;
        out += src.slice(start, i) + newline(prefix, indent, depth);
        start = i;
      }
      i++;
      while (i < n) {
        const d = src.charCodeAt(i);
        if (d === 0x5c) i += 2;
        else if (d === 0x22) break;
        else i++;
      }
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      out += src.slice(start, i);
      if (needIndent) needIndent = false;
      else {
        depth--;
        out += newline(prefix, indent, depth);
      }
      out += src[i];
      start = i + 1;
      continue;
    }
    if (needIndent) {
      needIndent = false;
      depth++;
      out += src.slice(start, i) + newline(prefix, indent, depth);
      start = i;
    }
    if (c === 0x7b || c === 0x5b) {
      needIndent = true;
    } else if (c === 0x2c) {
      out += src.slice(start, i + 1) + newline(prefix, indent, depth);
      start = i + 1;
    } else if (c === 0x3a) {
      out += src.slice(start, i + 1) + ' ';
      start = i + 1;
    }
  }
  return out + src.slice(start);
}

function finishMarshal(compact: string, opts: MarshalOptions): string {
  let text = compact;
  if (opts.indent !== undefined || opts.prefix !== undefined) {
    text = indentCompact(compact, opts.prefix ?? '', opts.indent ?? '');
  }
  return opts.trailingNewline ? text + '\n' : text;
}

function customResult(r: unknown): string {
  if (typeof r === 'string') return r;
  if (r !== null && typeof r === 'object') {
    const o = r as { value?: unknown; error?: GoError };
    if (o.error !== undefined) throw new EncodeError(goErrorMessage(o.error));
    if (typeof o.value === 'string') return o.value;
  }
  throw new EncodeError('json: MarshalJSON returned no value');
}

function marshalerOutput(raw: string, typeName: string, escapeHTML: boolean): string {
  const c = goCompact(raw, escapeHTML);
  if (c.error !== null) {
    throw new EncodeError('json: error calling MarshalJSON for type ' + typeName + ': ' + c.error);
  }
  return c.text;
}

// ---------------------------------------------------------------------------------------------
// Untyped values

interface ArrFrame {
  obj: object;
  arr: readonly unknown[];
  keys: null;
  vals: null;
  i: number;
}
interface ObjFrame {
  obj: object;
  arr: null;
  keys: string[];
  vals: unknown[] | Record<string, unknown>;
  i: number;
}

/** Encodes plain JS values iteratively (nesting may be deep). */
class PlainEncoder {
  private readonly path = new Set<object>();
  private readonly stack: (ArrFrame | ObjFrame)[] = [];
  private out = '';
  constructor(
    private readonly escapeHTML: boolean,
    private readonly sortMapKeys: boolean,
  ) {}

  value(root: unknown): string {
    this.out = '';
    this.emit(root);
    const stack = this.stack;
    while (stack.length > 0) {
      const f = stack[stack.length - 1] as ArrFrame | ObjFrame;
      if (f.arr !== null) {
        if (f.i < f.arr.length) {
          if (f.i > 0) this.out += ',';
          this.emit(f.arr[f.i++]);
          continue;
        }
        this.out += ']';
      } else {
        let emitted = false;
        while (f.i < f.keys.length) {
          const k = f.keys[f.i] as string;
          const x = Array.isArray(f.vals) ? f.vals[f.i] : f.vals[k];
          f.i++;
          if (x === undefined && !Array.isArray(f.vals)) continue;
          if (this.out.charCodeAt(this.out.length - 1) !== 0x7b) this.out += ',';
          this.out += goJSONString(k, this.escapeHTML) + ':';
          this.emit(x);
          emitted = true;
          break;
        }
        if (emitted) continue;
        this.out += '}';
      }
      this.path.delete(f.obj);
      stack.pop();
    }
    return this.out;
  }

  private emit(v: unknown): void {
    switch (typeof v) {
      case 'string':
        this.out += goJSONString(v, this.escapeHTML);
        return;
      case 'number':
        this.out += floatJSON(v);
        return;
      case 'boolean':
        this.out += v ? 'true' : 'false';
        return;
      case 'bigint':
        this.out += v.toString();
        return;
      case 'undefined':
        this.out += 'null';
        return;
      case 'function':
        throw new EncodeError('json: unsupported type: func()');
      case 'symbol':
        throw new EncodeError('json: unsupported type: symbol');
    }
    if (v === null) {
      this.out += 'null';
      return;
    }
    const o = v as Record<string | symbol, unknown>;
    const m = o[goMarshalJSON];
    if (typeof m === 'function') {
      let raw: unknown;
      try {
        raw = (m as () => unknown).call(o);
      } catch (e) {
        throw new EncodeError(e instanceof Error ? e.message : String(e));
      }
      this.out += marshalerOutput(customResult(raw), 'object', this.escapeHTML);
      return;
    }
    if (v instanceof Uint8Array) {
      this.out += '"' + base64Std(v) + '"';
      return;
    }
    if (this.path.has(o)) {
      throw new EncodeError(
        'json: unsupported value: encountered a cycle via ' +
          (Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}'),
      );
    }
    this.path.add(o);
    if (Array.isArray(v)) {
      this.out += '[';
      this.stack.push({ obj: o, arr: v, keys: null, vals: null, i: 0 });
    } else if (v instanceof Map) {
      const entries: [string, unknown][] = Array.from(v, ([k, x]) => [String(k), x]);
      entries.sort((a, b) => compareGoStrings(a[0], b[0]));
      this.out += '{';
      this.stack.push({
        obj: o,
        arr: null,
        keys: entries.map((e) => e[0]),
        vals: entries.map((e) => e[1]),
        i: 0,
      });
    } else {
      let keys = Object.keys(o);
      if (this.sortMapKeys) keys = sortedKeys(keys);
      this.out += '{';
      this.stack.push({ obj: o, arr: null, keys, vals: o as Record<string, unknown>, i: 0 });
    }
  }
}

/**
 * json.Marshal / MarshalIndent / Encoder.Encode of a plain JS value: objects in insertion order
 * (like Go structs; use sortKeysDeep or sortMapKeys or a JS Map for Go maps), numbers as float64,
 * bigint as integers, Uint8Array as base64 ([]byte), undefined object properties skipped.
 * Never throws.
 */
export function marshal(value: unknown, opts: MarshalOptions = {}): MarshalResult {
  try {
    const enc = new PlainEncoder(opts.escapeHTML ?? true, opts.sortMapKeys ?? false);
    return { text: finishMarshal(enc.value(value), opts), error: null };
  } catch (e) {
    return { text: '', error: e instanceof EncodeError ? e.message : 'json: ' + String(e) };
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v) as unknown;
  return p === Object.prototype || p === null;
}

/**
 * A deep copy with every plain object's keys re-inserted in Go's map order (sorted by UTF-8
 * bytes). Caveat: JS always enumerates integer-like keys ("1", "10") first in numeric order; for
 * those use marshal's sortMapKeys option or a JS Map.
 */
export function sortKeysDeep<T>(value: T): T {
  const tasks: [unknown, unknown][] = [];
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const dst = new Array<unknown>(v.length);
      tasks.push([v, dst]);
      return dst;
    }
    if (!isPlainObject(v)) return v;
    const dst: Record<string, unknown> = {};
    tasks.push([v, dst]);
    return dst;
  };
  const result = copy(value);
  while (tasks.length > 0) {
    const [src, dst] = tasks.pop() as [unknown, unknown];
    if (Array.isArray(src)) {
      const d = dst as unknown[];
      for (let i = 0; i < src.length; i++) d[i] = copy(src[i]);
      continue;
    }
    const so = src as Record<string, unknown>;
    const d = dst as Record<string, unknown>;
    for (const k of sortedKeys(Object.keys(so))) {
      const x = copy(so[k]);
      if (k === '__proto__') {
        Object.defineProperty(d, k, {
          value: x,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else d[k] = x;
    }
  }
  return result as T;
}

// ---------------------------------------------------------------------------------------------
// Typed values

function isEmptyValue(v: unknown, t: GoType): boolean {
  switch (t.kind) {
    case 'string':
      return v === '' || v === undefined || v === null;
    case 'bool':
      return v !== true;
    case 'interface':
    case 'ptr':
      return v === null || v === undefined;
    case 'slice':
      return v === null || v === undefined || (Array.isArray(v) && v.length === 0);
    case 'map':
      return (
        v === null ||
        v === undefined ||
        (v instanceof Map ? v.size === 0 : typeof v === 'object' && Object.keys(v).length === 0)
      );
    case 'struct':
      return false;
    case 'custom':
      return t.isEmpty?.(v) ?? false;
    default:
      return v === 0 || v === undefined || v === null;
  }
}

class TypedEncoder {
  private readonly plain: PlainEncoder;
  private depth = 0;
  constructor(private readonly escapeHTML: boolean) {
    this.plain = new PlainEncoder(escapeHTML, true);
  }

  value(v: unknown, t: GoType, quoted = false): string {
    switch (t.kind) {
      case 'string': {
        const s = typeof v === 'string' ? v : '';
        if (quoted) return goJSONString(goJSONString(s, this.escapeHTML), false);
        return goJSONString(s, this.escapeHTML);
      }
      case 'bool': {
        const b = v === true ? 'true' : 'false';
        return quoted ? '"' + b + '"' : b;
      }
      case 'float32':
      case 'float64': {
        const f = floatJSON(typeof v === 'number' ? v : 0, t.kind === 'float32' ? 32 : 64);
        return quoted ? '"' + f + '"' : f;
      }
      case 'interface':
        if (v === null || v === undefined) return 'null';
        return this.plain.value(v);
      case 'ptr': {
        if (v === null || v === undefined) return 'null';
        const elem = isBoxedPtr(t) ? (v as { elem: unknown }).elem : v;
        return this.nested(() => this.value(elem, t.elem, quoted));
      }
      case 'slice': {
        if (v === null || v === undefined) return 'null';
        const elem = t.elem;
        if ((elem.kind === 'uint8' && elem.name === undefined) || v instanceof Uint8Array) {
          const bytes = v instanceof Uint8Array ? v : Uint8Array.from(v as number[]);
          return '"' + base64Std(bytes) + '"';
        }
        const arr = v as unknown[];
        return this.nested(() => '[' + arr.map((x) => this.value(x, elem)).join(',') + ']');
      }
      case 'map': {
        if (v === null || v === undefined) return 'null';
        const entries: [string, unknown][] =
          v instanceof Map
            ? Array.from(v, ([k, x]) => [String(k), x])
            : Object.keys(v as object).map((k) => [k, (v as Record<string, unknown>)[k]]);
        entries.sort((a, b) => compareGoStrings(a[0], b[0]));
        const elem = t.elem;
        return this.nested(
          () =>
            '{' +
            entries
              .map(([k, x]) => goJSONString(k, this.escapeHTML) + ':' + this.value(x, elem))
              .join(',') +
            '}',
        );
      }
      case 'struct':
        return this.nested(() => this.struct(v, t));
      case 'custom':
        return this.custom(v, t);
      default: {
        const s = intJSON(typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0);
        const text = typeof v === 'bigint' ? v.toString() : s;
        return quoted ? '"' + text + '"' : text;
      }
    }
  }

  private nested(f: () => string): string {
    if (++this.depth > 10000) {
      throw new EncodeError('json: unsupported value: encountered a cycle');
    }
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private custom(v: unknown, t: GoCustomType): string {
    if (t.marshalJSON !== undefined) {
      let r: unknown;
      try {
        r = t.marshalJSON(v);
      } catch (e) {
        throw new EncodeError(e instanceof Error ? e.message : String(e));
      }
      return marshalerOutput(customResult(r), t.name, this.escapeHTML);
    }
    if (t.marshalText !== undefined) {
      let r: unknown;
      try {
        r = t.marshalText(v);
      } catch (e) {
        throw new EncodeError(e instanceof Error ? e.message : String(e));
      }
      return goJSONString(customResult(r), this.escapeHTML);
    }
    if (v === null || v === undefined) return 'null';
    return this.plain.value(v);
  }

  private struct(v: unknown, t: GoType & { kind: 'struct' }): string {
    const obj = (v ?? {}) as Record<string, unknown>;
    const { list } = cachedTypeFields(t);
    let out = '{';
    let first = true;
    for (const f of list) {
      let holder: Record<string, unknown> | null = obj;
      const steps = f.path;
      for (let s = 0; s < steps.length - 1 && holder !== null; s++) {
        const step = steps[s];
        if (step === undefined) break;
        const next: unknown = holder[step.prop];
        holder = next === null || next === undefined ? null : (next as Record<string, unknown>);
      }
      if (holder === null) continue;
      const last = steps[steps.length - 1];
      if (last === undefined) continue;
      const fv = holder[last.prop];
      if (f.omitEmpty && isEmptyValue(fv, f.declType)) continue;
      if (!first) out += ',';
      first = false;
      out += goJSONString(f.name, this.escapeHTML) + ':' + this.value(fv, f.declType, f.quoted);
    }
    return out + '}';
  }
}

/**
 * json.Marshal of a value of Go type t (structs with omitempty / embedded promotion / ",string",
 * maps sorted, nil slices and maps as null, custom marshalers). Never throws.
 */
export function marshalTyped(value: unknown, t: GoType, opts: MarshalOptions = {}): MarshalResult {
  try {
    const enc = new TypedEncoder(opts.escapeHTML ?? true);
    return { text: finishMarshal(enc.value(value, t), opts), error: null };
  } catch (e) {
    return { text: '', error: e instanceof EncodeError ? e.message : 'json: ' + String(e) };
  }
}
