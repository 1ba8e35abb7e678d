/**
 * json.Unmarshal emulation (Go 1.19 decode.go): generic decoding into interface{} and typed
 * decoding driven by the GoType DSL (types.ts).
 */
import { jsonSyntaxError } from './scanner';
import { goQuote, parseGoFloat, parseGoInt } from './strconv';
import {
  cachedTypeFields,
  isBoxedPtr,
  setProp,
  structName,
  typeString,
  zeroValue,
  type GoCustomType,
  type GoError,
  type GoPtrType,
  type GoStructType,
  type GoType,
  type ResolvedField,
  type UnmarshalTypeError,
} from './types';

export interface DecodeResult<T = unknown> {
  /** the zero (or initial) value, filled in as far as decoding got */
  value: T;
  /** exactly the Error() string of the error json.Unmarshal returns, or null */
  error: string | null;
  /** the structured error when it is an *UnmarshalTypeError (for custom unmarshalers) */
  typeError: UnmarshalTypeError | null;
}

/** Go's (*UnmarshalTypeError).Error(). */
export function unmarshalTypeErrorMessage(e: UnmarshalTypeError): string {
  if (e.struct !== '' || e.field !== '') {
    return (
      'json: cannot unmarshal ' +
      e.value +
      ' into Go struct field ' +
      e.struct +
      '.' +
      e.field +
      ' of type ' +
      e.type
    );
  }
  return 'json: cannot unmarshal ' + e.value + ' into Go value of type ' + e.type;
}

export function goErrorMessage(e: GoError): string {
  return typeof e === 'string' ? e : unmarshalTypeErrorMessage(e);
}

/**
 * An error that stops decoding (returned by a custom unmarshaler, or a bad ",string" value). It
 * carries the partially decoded value of the slot being decoded; each enclosing container stores it
 * and substitutes its own partial value, so the result mirrors Go's partially filled value.
 */
class Abort {
  constructor(
    readonly err: GoError,
    public partial: unknown,
  ) {}
}

/** Slices whose backing array holds elements beyond their length (from an earlier decode). */
const sliceExtra = new WeakMap<unknown[], unknown[]>();
/** How many slices have been given hidden elements: a decode that adds one is not memoized. */
let sliceExtraWrites = 0;

const CH_QUOTE = 0x22;
const CH_BACKSLASH = 0x5c;

function isWS(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** getu4: the value of \uXXXX at s[i:], or -1. */
function getu4(s: string, i: number, end: number): number {
  if (i + 6 > end || s.charCodeAt(i) !== CH_BACKSLASH || s.charCodeAt(i + 1) !== 0x75) return -1;
  let r = 0;
  for (let k = 2; k < 6; k++) {
    const h = hexVal(s.charCodeAt(i + k));
    if (h < 0) return -1;
    r = r * 16 + h;
  }
  return r;
}

/**
 * Go's unquoteBytes on s[start:end] (which must include the quotes): the string, or null when
 * s is not a valid quoted string by Go's rules.
 */
export function goUnquote(s: string, start = 0, end = s.length): string | null {
  if (end - start < 2 || s.charCodeAt(start) !== CH_QUOTE || s.charCodeAt(end - 1) !== CH_QUOTE) {
    return null;
  }
  const b = start + 1;
  const e = end - 1;
  let r = b;
  for (; r < e; r++) {
    const c = s.charCodeAt(r);
    if (c === CH_BACKSLASH || c === CH_QUOTE || c < 0x20 || (c >= 0xd800 && c < 0xe000)) break;
  }
  if (r === e) return s.slice(b, e);
  let out = s.slice(b, r);
  while (r < e) {
    const c = s.charCodeAt(r);
    if (c === CH_BACKSLASH) {
      r++;
      if (r >= e) return null;
      const d = s.charCodeAt(r);
      switch (d) {
        case 0x22:
        case 0x5c:
        case 0x2f:
        case 0x27:
          out += String.fromCharCode(d);
          r++;
          break;
        case 0x62:
          out += '\b';
          r++;
          break;
        case 0x66:
          out += '\f';
          r++;
          break;
        case 0x6e:
          out += '\n';
          r++;
          break;
        case 0x72:
          out += '\r';
          r++;
          break;
        case 0x74:
          out += '\t';
          r++;
          break;
        case 0x75: {
          r--;
          let rr = getu4(s, r, e);
          if (rr < 0) return null;
          r += 6;
          if (rr >= 0xd800 && rr < 0xe000) {
            const rr1 = getu4(s, r, e);
            if (rr < 0xdc00 && rr1 >= 0xdc00 && rr1 < 0xe000) {
              r += 6;
              out += String.fromCharCode(rr, rr1);
              break;
            }
            rr = 0xfffd;
          }
          out += String.fromCharCode(rr);
          break;
        }
        default:
          return null;
      }
    } else if (c === CH_QUOTE || c < 0x20) {
      return null;
    } else if (c >= 0xd800 && c < 0xe000) {
      const d = r + 1 < e ? s.charCodeAt(r + 1) : 0;
      if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
        out += s.slice(r, r + 2);
        r += 2;
      } else {
        out += '\ufffd';
        r++;
      }
    } else {
      let k = r + 1;
      while (k < e) {
        const x = s.charCodeAt(k);
        if (x === CH_BACKSLASH || x === CH_QUOTE || x < 0x20 || (x >= 0xd800 && x < 0xe000)) break;
        k++;
      }
      out += s.slice(r, k);
      r = k;
    }
  }
  return out;
}

function ute(value: string, type: string): UnmarshalTypeError {
  return { value, type, struct: '', field: '' };
}

interface ObjFrame {
  obj: Record<string, unknown>;
  key: string;
  arr: null;
}
interface ArrFrame {
  obj: null;
  key: string;
  arr: unknown[];
}

type Indirect =
  | { kind: 'json'; custom: GoCustomType; cur: unknown }
  | { kind: 'text'; custom: GoCustomType; cur: unknown }
  | { kind: 'plain'; t: GoType; cur: unknown };

const INVALID_STRING_TAG = 'json: invalid use of ,string struct tag, trying to unmarshal ';

class Decoder {
  pos = 0;
  saved: GoError | null = null;
  ctxStruct: string | null = null;
  fieldStack: string[] = [];

  constructor(readonly text: string) {}

  // -------------------------------------------------------------------------------------------
  // errors

  private withContext(err: GoError): GoError {
    if (typeof err !== 'string' && (this.ctxStruct !== null || this.fieldStack.length > 0)) {
      return { ...err, struct: this.ctxStruct ?? '', field: this.fieldStack.join('.') };
    }
    return err;
  }

  saveError(err: GoError): void {
    if (this.saved === null) this.saved = this.withContext(err);
  }

  abortContext(err: GoError): GoError {
    return this.withContext(err);
  }

  // -------------------------------------------------------------------------------------------
  // lexical helpers (the text is known to be valid JSON)

  ws(): void {
    const t = this.text;
    let p = this.pos;
    while (isWS(t.charCodeAt(p))) p++;
    this.pos = p;
  }

  /** Reads a string literal at pos (validated) and returns its Go-decoded value. */
  readString(): string {
    const t = this.text;
    const start = this.pos;
    let i = start + 1;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === CH_QUOTE) {
        this.pos = i + 1;
        return t.slice(start + 1, i);
      }
      if (c === CH_BACKSLASH || (c >= 0xd800 && c < 0xe000)) break;
      i++;
    }
    const end = this.literalEndString(start);
    this.pos = end;
    return goUnquote(t, start, end) ?? '';
  }

  private literalEndString(start: number): number {
    const t = this.text;
    let i = start + 1;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === CH_BACKSLASH) i += 2;
      else if (c === CH_QUOTE) return i + 1;
      else if (Number.isNaN(c)) return i;
      else i++;
    }
  }

  /** End index of the literal starting at pos. */
  literalEnd(): number {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === CH_QUOTE) return this.literalEndString(this.pos);
    let i = this.pos + 1;
    for (;;) {
      const d = t.charCodeAt(i);
      if (
        (d >= 0x30 && d <= 0x39) ||
        (d >= 0x61 && d <= 0x7a) ||
        d === 0x2e ||
        d === 0x2b ||
        d === 0x2d ||
        d === 0x45
      ) {
        i++;
      } else return i;
    }
  }

  /** Skips the value at pos; returns its raw text. */
  skipValue(): string {
    const t = this.text;
    const start = this.pos;
    const c = t.charCodeAt(start);
    if (c !== 0x7b && c !== 0x5b) {
      this.pos = this.literalEnd();
      return t.slice(start, this.pos);
    }
    let depth = 0;
    let i = start;
    for (;;) {
      const d = t.charCodeAt(i);
      if (d === CH_QUOTE) {
        i = this.literalEndString(i);
        continue;
      }
      i++;
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) break;
      } else if (Number.isNaN(d)) break;
    }
    this.pos = i;
    return t.slice(start, i);
  }

  // -------------------------------------------------------------------------------------------
  // interface{} decoding (iterative: nesting may reach 10000)

  private convertNumber(s: string): number | null {
    const f = Number(s);
    if (!Number.isFinite(f)) {
      this.saveError(ute('number ' + s, 'float64'));
      return null;
    }
    return f;
  }

  private literalInterface(): unknown {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === CH_QUOTE) return this.readString();
    if (c === 0x6e) {
      this.pos += 4;
      return null;
    }
    if (c === 0x74) {
      this.pos += 4;
      return true;
    }
    if (c === 0x66) {
      this.pos += 5;
      return false;
    }
    const start = this.pos;
    this.pos = this.literalEnd();
    return this.convertNumber(t.slice(start, this.pos));
  }

  /** Reads `"key" :` (with surrounding space) at pos. */
  private readKey(): string {
    this.ws();
    const k = this.readString();
    this.ws();
    this.pos++; // ':'
    return k;
  }

  valueInterface(): unknown {
    const t = this.text;
    const stack: (ObjFrame | ArrFrame)[] = [];
    for (;;) {
      this.ws();
      let v: unknown;
      const c = t.charCodeAt(this.pos);
      if (c === 0x7b) {
        this.pos++;
        this.ws();
        if (t.charCodeAt(this.pos) === 0x7d) {
          this.pos++;
          v = {};
        } else {
          stack.push({ obj: {}, key: this.readKey(), arr: null });
          continue;
        }
      } else if (c === 0x5b) {
        this.pos++;
        this.ws();
        if (t.charCodeAt(this.pos) === 0x5d) {
          this.pos++;
          v = [];
        } else {
          stack.push({ obj: null, key: '', arr: [] });
          continue;
        }
      } else {
        v = this.literalInterface();
      }
      // complete v into the enclosing containers
      let more = false;
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as ObjFrame | ArrFrame;
        if (top.obj !== null) setProp(top.obj, top.key, v);
        else top.arr.push(v);
        this.ws();
        const d = t.charCodeAt(this.pos);
        this.pos++;
        if (d === 0x2c) {
          if (top.obj !== null) top.key = this.readKey();
          more = true;
          break;
        }
        v = top.obj ?? top.arr;
        stack.pop();
      }
      if (!more) return v;
    }
  }

  // -------------------------------------------------------------------------------------------
  // typed decoding

  /** Go's indirect() for a non-pointer t: finds the (pointer-receiver) unmarshalers. */
  private indirect(t: GoType, cur: unknown, decodingNull: boolean): Indirect {
    if (t.kind === 'custom') {
      if (t.unmarshalJSON !== undefined) return { kind: 'json', custom: t, cur };
      if (t.unmarshalText !== undefined && !decodingNull) return { kind: 'text', custom: t, cur };
    }
    return { kind: 'plain', t, cur };
  }

  private callJSON(c: GoCustomType, raw: string, cur: unknown): unknown {
    let r;
    try {
      r = c.unmarshalJSON?.(raw, cur) ?? { value: cur };
    } catch (e) {
      r = { error: e instanceof Error ? e.message : String(e) };
    }
    if (r.error !== undefined) throw new Abort(r.error, r.value === undefined ? cur : r.value);
    return r.value;
  }

  private callText(c: GoCustomType, s: string, cur: unknown): unknown {
    let r;
    try {
      r = c.unmarshalText?.(s, cur) ?? { value: cur };
    } catch (e) {
      r = { error: e instanceof Error ? e.message : String(e) };
    }
    if (r.error !== undefined) throw new Abort(r.error, r.value === undefined ? cur : r.value);
    return r.value;
  }

  /**
   * Follows pointer t (allocating it when nil) and decodes into its element with `f`; returns the
   * new pointer value (the element, or a box {elem} when the element itself can be nil).
   */
  private throughPtr(t: GoPtrType, cur: unknown, f: (elem: unknown) => unknown): unknown {
    if (!isBoxedPtr(t)) {
      return f(cur === null || cur === undefined ? zeroValue(t.elem) : cur);
    }
    const box = cur as { elem: unknown } | null | undefined;
    const elem = box === null || box === undefined ? zeroValue(t.elem) : box.elem;
    try {
      return { elem: f(elem) };
    } catch (e) {
      if (e instanceof Abort) e.partial = { elem: e.partial };
      throw e;
    }
  }

  /**
   * d.value: decodes the value at pos into (t, cur) and returns the new value. `prefix` holds one
   * "*" per pointer followed so far (plus one for Unmarshal's own argument): Go reports
   * text-unmarshaler mismatches with the original (pointer) type.
   */
  value(t: GoType, cur: unknown, prefix = ''): unknown {
    const c = this.text.charCodeAt(this.pos);
    if (t.kind === 'ptr') {
      if (c === 0x6e) {
        // decoding null stops at the first settable pointer and sets it to nil
        this.pos += 4;
        return null;
      }
      return this.throughPtr(t, cur, (elem) => this.value(t.elem, elem, prefix + '*'));
    }
    if (c === 0x5b) return this.array(t, cur, prefix);
    if (c === 0x7b) return this.object(t, cur, prefix);
    const start = this.pos;
    this.pos = this.literalEnd();
    return this.literalStore(this.text.slice(start, this.pos), t, cur, false, prefix);
  }

  private array(t: GoType, cur: unknown, prefix: string): unknown {
    const ind = this.indirect(t, cur, false);
    if (ind.kind === 'json') return this.callJSON(ind.custom, this.skipValue(), ind.cur);
    if (ind.kind === 'text') {
      this.saveError(ute('array', prefix + typeString(t)));
      this.skipValue();
      return ind.cur;
    }
    const pt = ind.t;
    if (pt.kind === 'interface' && pt.name === undefined) return this.valueInterface();
    if (pt.kind !== 'slice') {
      this.saveError(ute('array', typeString(pt)));
      this.skipValue();
      return ind.cur;
    }
    const old = ind.cur as unknown[] | null;
    let backing: unknown[];
    let len: number;
    if (old === null || old === undefined) {
      backing = [];
      len = 0;
    } else {
      const extra = sliceExtra.get(old);
      backing = extra === undefined ? old.slice() : old.concat(extra);
      len = old.length;
    }
    const text = this.text;
    this.pos++; // [
    let i = 0;
    this.ws();
    if (text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
    } else {
      for (;;) {
        if (i >= len) {
          len = i + 1;
          if (i >= backing.length) backing.push(zeroValue(pt.elem));
        }
        try {
          backing[i] = this.value(pt.elem, backing[i]);
        } catch (e) {
          if (e instanceof Abort) {
            backing[i] = e.partial;
            e.partial = backing.slice(0, len);
          }
          throw e;
        }
        i++;
        this.ws();
        const d = text.charCodeAt(this.pos);
        this.pos++;
        if (d !== 0x2c) break;
        this.ws();
      }
    }
    if (i === 0) return [];
    if (i < len) len = i;
    if (len === backing.length) return backing;
    const result = backing.slice(0, len);
    sliceExtra.set(result, backing.slice(len));
    sliceExtraWrites++;
    return result;
  }

  private object(t: GoType, cur: unknown, prefix: string): unknown {
    const ind = this.indirect(t, cur, false);
    if (ind.kind === 'json') return this.callJSON(ind.custom, this.skipValue(), ind.cur);
    if (ind.kind === 'text') {
      this.saveError(ute('object', prefix + typeString(t)));
      this.skipValue();
      return ind.cur;
    }
    const pt = ind.t;
    if (pt.kind === 'interface' && pt.name === undefined) return this.valueInterface();
    let fields: ResolvedField[] | null = null;
    let nameIndex: Map<string, number> | null = null;
    let obj: Record<string, unknown>;
    if (pt.kind === 'map') {
      const kk = pt.key?.kind ?? 'string';
      if (kk === 'bool' || kk === 'float32' || kk === 'float64') {
        this.saveError(ute('object', typeString(pt)));
        this.skipValue();
        return ind.cur;
      }
      obj = (ind.cur as Record<string, unknown> | null) ?? {};
    } else if (pt.kind === 'struct') {
      const sf = cachedTypeFields(pt);
      fields = sf.list;
      nameIndex = sf.nameIndex;
      obj = ind.cur as Record<string, unknown>;
      if (obj === null || typeof obj !== 'object') obj = zeroValue(pt) as Record<string, unknown>;
    } else {
      this.saveError(ute('object', typeString(pt)));
      this.skipValue();
      return ind.cur;
    }

    const origStruct = this.ctxStruct;
    const origLen = this.fieldStack.length;
    const text = this.text;
    this.pos++; // {
    this.ws();
    if (text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return obj;
    }
    for (;;) {
      this.ws();
      const key = this.readString();
      this.ws();
      this.pos++; // :
      this.ws();

      if (pt.kind === 'map') {
        let v: unknown;
        try {
          v = this.value(pt.elem, zeroValue(pt.elem));
        } catch (e) {
          if (e instanceof Abort) e.partial = obj;
          throw e;
        }
        const kt = pt.key;
        if (kt === undefined || kt.kind === 'string') {
          setProp(obj, key, v);
        } else if (kt.kind === 'custom') {
          // A TextUnmarshaler key is made after its value, as Go does; its error stops decoding.
          let k: unknown;
          try {
            k = this.callText(kt, key, kt.zero());
          } catch (e) {
            if (e instanceof Abort) e.partial = obj;
            throw e;
          }
          setProp(obj, String(k), v);
        } else {
          const n = parseGoInt(key, kt.kind);
          if (n === null) this.saveError(ute('number ' + key, typeString(kt)));
          else setProp(obj, String(n), v);
        }
      } else {
        let f: ResolvedField | undefined;
        const idx = nameIndex?.get(key);
        if (idx !== undefined) f = fields?.[idx];
        else if (fields !== null) {
          for (const ff of fields) {
            if (ff.equalFold(key)) {
              f = ff;
              break;
            }
          }
        }
        if (f === undefined) {
          this.skipValue();
        } else {
          // walk the index path, allocating embedded pointers
          let holder: Record<string, unknown> | null = obj;
          const steps = f.path;
          for (let s = 0; s < steps.length - 1; s++) {
            const step = steps[s];
            if (step === undefined || holder === null) break;
            let next = holder[step.prop];
            if (step.field.type.kind === 'ptr' && (next === null || next === undefined)) {
              if (step.field.unexported) {
                this.saveError(
                  'json: cannot set embedded pointer to unexported struct: ' +
                    typeString(step.field.type.elem),
                );
                holder = null;
                break;
              }
              next = zeroValue(step.field.type.elem);
              setProp(holder, step.prop, next);
            }
            holder = next as Record<string, unknown>;
          }
          this.fieldStack.push(f.name);
          this.ctxStruct = structName(pt);
          const last = steps[steps.length - 1];
          if (holder === null || last === undefined) {
            this.skipValue();
          } else {
            try {
              if (f.quoted) this.destring(holder, last.prop, f.declType);
              else setProp(holder, last.prop, this.value(f.declType, holder[last.prop]));
            } catch (e) {
              if (e instanceof Abort) {
                setProp(holder, last.prop, e.partial);
                e.partial = obj;
              }
              throw e;
            }
          }
        }
      }

      this.ws();
      this.fieldStack.length = origLen;
      this.ctxStruct = origStruct;
      const d = text.charCodeAt(this.pos);
      this.pos++;
      if (d !== 0x2c) break;
    }
    return obj;
  }

  /** The ",string" option: valueQuoted + literalStore(fromQuoted). */
  private destring(holder: Record<string, unknown>, prop: string, t: GoType): void {
    const text = this.text;
    const c = text.charCodeAt(this.pos);
    let qv: string | null | undefined;
    if (c === 0x5b || c === 0x7b) {
      this.skipValue();
    } else if (c === CH_QUOTE) {
      qv = this.readString();
    } else if (c === 0x6e) {
      this.pos += 4;
      qv = null;
    } else if (c === 0x74 || c === 0x66) {
      this.pos = this.literalEnd();
    } else {
      const start = this.pos;
      this.pos = this.literalEnd();
      this.convertNumber(text.slice(start, this.pos));
    }
    if (qv === null) {
      setProp(holder, prop, this.literalStore('null', t, holder[prop], false));
    } else if (typeof qv === 'string') {
      setProp(holder, prop, this.literalStore(qv, t, holder[prop], true));
    } else {
      this.saveError(INVALID_STRING_TAG + 'unquoted value into ' + typeString(t));
    }
  }

  private literalStore(
    item: string,
    t: GoType,
    cur: unknown,
    fromQuoted: boolean,
    prefix = '',
  ): unknown {
    if (item.length === 0) {
      this.saveError(INVALID_STRING_TAG + goQuote(item) + ' into ' + prefix + typeString(t));
      return cur;
    }
    const c = item.charCodeAt(0);
    const isNull = c === 0x6e;
    if (t.kind === 'ptr') {
      if (isNull) {
        if (fromQuoted && item !== 'null') {
          this.saveError(INVALID_STRING_TAG + goQuote(item) + ' into ' + typeString(t));
          return cur;
        }
        return null;
      }
      return this.throughPtr(t, cur, (elem) =>
        this.literalStore(item, t.elem, elem, fromQuoted, prefix + '*'),
      );
    }
    const ind = this.indirect(t, cur, isNull);
    if (ind.kind === 'json') return this.callJSON(ind.custom, item, ind.cur);
    if (ind.kind === 'text') {
      if (c !== CH_QUOTE) {
        if (fromQuoted) {
          this.saveError(INVALID_STRING_TAG + goQuote(item) + ' into ' + prefix + typeString(t));
          return ind.cur;
        }
        const val = c === 0x6e ? 'null' : c === 0x74 || c === 0x66 ? 'bool' : 'number';
        this.saveError(ute(val, prefix + typeString(t)));
        return ind.cur;
      }
      const s = goUnquote(item);
      if (s === null) {
        throw new Abort(
          INVALID_STRING_TAG + goQuote(item) + ' into ' + prefix + typeString(t),
          ind.cur,
        );
      }
      return this.callText(ind.custom, s, ind.cur);
    }
    const pt = ind.t;
    const v = ind.cur;
    const kind = pt.kind;
    switch (c) {
      case 0x6e: // null
        if (fromQuoted && item !== 'null') {
          this.saveError(INVALID_STRING_TAG + goQuote(item) + ' into ' + typeString(pt));
          return v;
        }
        if (kind === 'interface' || kind === 'ptr' || kind === 'map' || kind === 'slice')
          return null;
        if (kind === 'custom' && pt.nullable) return pt.zero();
        return v;
      case 0x74: // true
      case 0x66: {
        if (fromQuoted && item !== 'true' && item !== 'false') {
          this.saveError(INVALID_STRING_TAG + goQuote(item) + ' into ' + typeString(pt));
          return v;
        }
        const value = c === 0x74;
        if (kind === 'bool') return value;
        if (kind === 'interface' && pt.name === undefined) return value;
        if (kind === 'interface') this.saveError(ute('bool', typeString(pt)));
        else if (fromQuoted) {
          this.saveError(INVALID_STRING_TAG + goQuote(item) + ' into ' + typeString(pt));
        } else this.saveError(ute('bool', typeString(pt)));
        return v;
      }
      case CH_QUOTE: {
        const s = goUnquote(item);
        if (s === null) {
          throw new Abort(INVALID_STRING_TAG + goQuote(item) + ' into ' + typeString(pt), v);
        }
        if (kind === 'string') return s;
        if (kind === 'interface' && pt.name === undefined) return s;
        this.saveError(ute('string', typeString(pt)));
        return v;
      }
    }
    // number
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) {
      throw new Abort(INVALID_STRING_TAG + goQuote(item) + ' into ' + typeString(pt), v);
    }
    switch (kind) {
      case 'interface': {
        const n = this.convertNumber(item);
        if (n === null) return v;
        if (pt.name !== undefined) {
          this.saveError(ute('number', typeString(pt)));
          return v;
        }
        return n;
      }
      case 'int':
      case 'int8':
      case 'int16':
      case 'int32':
      case 'int64':
      case 'uint':
      case 'uint8':
      case 'uint16':
      case 'uint32':
      case 'uint64':
      case 'uintptr': {
        const n = parseGoInt(item, kind);
        if (n === null) {
          this.saveError(ute('number ' + item, typeString(pt)));
          return v;
        }
        return n;
      }
      case 'float32':
      case 'float64': {
        const n = parseGoFloat(item, kind === 'float32' ? 32 : 64);
        if (n === null) {
          this.saveError(ute('number ' + item, typeString(pt)));
          return v;
        }
        return n;
      }
      default:
        if (fromQuoted) {
          throw new Abort(INVALID_STRING_TAG + goQuote(item) + ' into ' + typeString(pt), v);
        }
        this.saveError(ute('number', typeString(pt)));
        return v;
    }
  }
}

function finish<T>(value: T, err: GoError | null): DecodeResult<T> {
  if (err === null) return { value, error: null, typeError: null };
  if (typeof err === 'string') return { value, error: err, typeError: null };
  return { value, error: unmarshalTypeErrorMessage(err), typeError: err };
}

/**
 * json.Unmarshal(text, &v) where v has Go type t and starts as `init` (default: t's zero value).
 * Never throws.
 */
export function decode<T = unknown>(text: string, t: GoType, init?: T): DecodeResult<T> {
  if (init !== undefined || text.length > MEMO_MAX_TEXT) return decodeText(text, t, init);
  let memo = MEMO.get(t);
  if (!memo) MEMO.set(t, (memo = new Map()));
  const hit = memo.get(text);
  if (hit)
    return { value: copyDecoded(hit.value) as T, error: hit.error, typeError: hit.typeError };
  const writes = sliceExtraWrites;
  const r = decodeText<T>(text, t);
  if (memo.size >= MEMO_PER_TYPE) memo.delete(memo.keys().next().value!);
  // A text seen for the first time is only noted: most results are decoded once.
  if (hit === undefined || sliceExtraWrites !== writes) {
    memo.set(text, null);
    return r;
  }
  const kept = copyDecoded(r.value);
  if (kept !== UNCOPYABLE) memo.set(text, { value: kept, error: r.error, typeError: r.typeError });
  return r;
}

/*
 * Memo of recent decodes from a type's zero value. A plugin's configuration, a result and a
 * cached result are decoded again and again with the same text (skel reads the name, the plugin
 * its whole config, libcni the result, the next plugin its prevResult): decoding is pure, so the
 * same text into the same type gives the same value. A text is kept from its second decode on,
 * and each caller gets its own copy (callers fill in defaults and normalise what they decoded, as
 * Go code does with its structs). null: seen once.
 */
const MEMO = new WeakMap<GoType, Map<string, DecodeResult<unknown> | null>>();
const MEMO_PER_TYPE = 32;
const MEMO_MAX_TEXT = 16 * 1024;
const UNCOPYABLE: unique symbol = Symbol('uncopyable');

/**
 * A deep copy of a decoded value: plain objects (symbol keys included: a custom type's
 * MarshalJSON), arrays, byte slices and primitives. Anything else (a class instance, a
 * non-enumerable property) is UNCOPYABLE and keeps the decode out of the memo.
 */
function copyDecoded(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const c = copyDecoded(v[i]);
      if (c === UNCOPYABLE) return UNCOPYABLE;
      out[i] = c;
    }
    return out;
  }
  if (v instanceof Uint8Array) return v.slice();
  const proto = Object.getPrototypeOf(v) as object | null;
  if (proto !== Object.prototype && proto !== null) return UNCOPYABLE;
  const src = v as Record<PropertyKey, unknown>;
  const out: Record<PropertyKey, unknown> = proto === null ? Object.create(null) : {};
  let n = 0;
  for (const k in src) {
    const c = copyDecoded(src[k]);
    if (c === UNCOPYABLE) return UNCOPYABLE;
    // An own "__proto__" key (a JSON object decoded into a map) must stay a key.
    if (k === '__proto__') Object.defineProperty(out, k, plainProp(c));
    else out[k] = c;
    n++;
  }
  for (const k of Object.getOwnPropertySymbols(src)) {
    const c = copyDecoded(src[k]);
    if (c === UNCOPYABLE) return UNCOPYABLE;
    Object.defineProperty(out, k, { ...Object.getOwnPropertyDescriptor(src, k), value: c });
  }
  // Only plain data: no hidden (non-enumerable) property.
  if (Object.getOwnPropertyNames(src).length !== n) return UNCOPYABLE;
  return out;
}

function plainProp(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}

function decodeText<T>(text: string, t: GoType, init?: T): DecodeResult<T> {
  let value = (init === undefined ? zeroValue(t) : init) as T;
  try {
    const syntax = jsonSyntaxError(text);
    if (syntax !== null) return finish(value, syntax);
    const d = new Decoder(text);
    d.ws();
    try {
      value = d.value(t, value, '*') as T;
    } catch (e) {
      if (e instanceof Abort) return finish(e.partial as T, d.abortContext(e.err));
      throw e;
    }
    return finish(value, d.saved);
  } catch (e) {
    // Only reachable for pathological inputs (e.g. a stack overflow on very deep recursive types).
    return finish(value, 'json: ' + (e instanceof Error ? e.message : String(e)));
  }
}

/**
 * json.Unmarshal into an interface{}: objects become plain objects (last duplicate key wins),
 * numbers float64, strings with invalid surrogate escapes replaced by U+FFFD.
 */
export function parseGo(text: string): DecodeResult<unknown> {
  try {
    const syntax = jsonSyntaxError(text);
    if (syntax !== null) return finish(null, syntax);
    const d = new Decoder(text);
    d.ws();
    const value = d.valueInterface();
    return finish(value, d.saved);
  } catch (e) {
    return finish(null, 'json: ' + (e instanceof Error ? e.message : String(e)));
  }
}

/** A Go error value (string or *UnmarshalTypeError) for returning from custom unmarshalers. */
export function decodeErrorOf(r: DecodeResult<unknown>): GoError | null {
  return r.typeError ?? r.error;
}

export type { GoStructType };
