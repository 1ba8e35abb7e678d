/**
 * A small DSL describing Go types for typed decoding / encoding (see index.ts for an overview).
 *
 * Value representation (what decode produces and typedMarshal consumes):
 *   string -> string, bool -> boolean, all integer and float kinds -> number,
 *   interface{} -> any JSON-ish JS value (null for nil), ptr -> null (nil) or the pointee's value
 *   (or a box {elem: value} when the pointee itself can be null, see isBoxedPtr),
 *   slice -> null (nil) or an array, map -> null (nil) or a plain object,
 *   struct -> a plain object with one property per Go field (embedded structs are nested under
 *   their own property), custom -> whatever its callbacks produce.
 */
import { goQuote } from './strconv';

export type GoIntKind =
  | 'int'
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'uint'
  | 'uint8'
  | 'uint16'
  | 'uint32'
  | 'uint64'
  | 'uintptr';

export type GoBasicKind = 'string' | 'bool' | GoIntKind | 'float32' | 'float64';

export interface GoBasicType {
  kind: GoBasicKind;
  /** package-qualified name for a named type, e.g. "main.Mode" */
  name?: string;
}

export interface GoInterfaceType {
  kind: 'interface';
  /** set for a non-empty (method-carrying) interface such as "types.Result": only null decodes */
  name?: string;
}

export interface GoPtrType {
  kind: 'ptr';
  elem: GoType;
}

export interface GoSliceType {
  kind: 'slice';
  elem: GoType;
  name?: string;
}

export interface GoMapType {
  kind: 'map';
  /**
   * the key type: a string or integer kind (default: string), or a custom type whose
   * UnmarshalText makes the key (encoding.TextUnmarshaler keys; only decoding uses it)
   */
  key?: GoBasicType | GoCustomType<string>;
  elem: GoType;
  name?: string;
}

export interface GoField {
  /** Go field name, e.g. "CNIVersion" (for an embedded field: the type's name) */
  goName: string;
  type: GoType;
  /** the json struct tag value, e.g. "cniVersion,omitempty" or "-" (undefined: no tag) */
  tag?: string;
  /** TS property holding the value (default: the JSON name, or goName if untagged/embedded) */
  prop?: string;
  embedded?: boolean;
  /** unexported fields are ignored by encoding/json (embedded unexported structs still promote) */
  unexported?: boolean;
  /** the whole raw struct tag for type strings, if it has more than the json key */
  rawTag?: string;
}

export interface GoStructType {
  kind: 'struct';
  /** package-qualified name ("types.NetConf"), or undefined for an anonymous struct type */
  name?: string;
  fields: GoField[] | (() => GoField[]);
}

/**
 * The error a custom unmarshaler may return: either a plain message (returned as is by decode), or
 * an *UnmarshalTypeError (the outer decode then fills in Struct/Field from its own context, as Go's
 * addErrorContext does).
 */
export interface UnmarshalTypeError {
  /** "string", "number", "number 1.5", "array", "object", "bool" */
  value: string;
  /** Go type string, e.g. "int", "net.IP" */
  type: string;
  struct: string;
  field: string;
}

export type GoError = string | UnmarshalTypeError;

export type CustomResult<T> = { value: T; error?: undefined } | { error: GoError; value?: T };

/** A type with its own UnmarshalJSON / UnmarshalText (pointer receiver) and optional marshalers. */
export interface GoCustomType<T = unknown> {
  kind: 'custom';
  /** Go type string, e.g. "net.IP", "types.IPNet" */
  name: string;
  zero(): T;
  /**
   * true when the underlying kind is a pointer, slice, map or interface: JSON null then resets the
   * value to zero (only matters for TextUnmarshaler types; UnmarshalJSON always receives null).
   */
  nullable?: boolean;
  /** UnmarshalJSON: receives the raw JSON text of the value (including "null") */
  unmarshalJSON?(raw: string, current: T): CustomResult<T>;
  /** UnmarshalText: receives the unquoted string (only JSON strings reach it) */
  unmarshalText?(text: string, current: T): CustomResult<T>;
  /** MarshalJSON: returns raw JSON text (compacted by the encoder) */
  marshalJSON?(value: T): CustomResult<string>;
  /** MarshalText: returns the text, encoded as a JSON string */
  marshalText?(value: T): CustomResult<string>;
  /** omitempty test (Go's isEmptyValue on the underlying kind); default: never empty */
  isEmpty?(value: T): boolean;
}

export type GoType =
  GoBasicType | GoInterfaceType | GoPtrType | GoSliceType | GoMapType | GoStructType | GoCustomType;

// ---------------------------------------------------------------------------------------------
// Builders

export const goString: GoBasicType = { kind: 'string' };
export const goBool: GoBasicType = { kind: 'bool' };
export const goInt: GoBasicType = { kind: 'int' };
export const goInt64: GoBasicType = { kind: 'int64' };
export const goUint: GoBasicType = { kind: 'uint' };
export const goFloat64: GoBasicType = { kind: 'float64' };
export const goAny: GoInterfaceType = { kind: 'interface' };

export function basic(kind: GoBasicKind, name?: string): GoBasicType {
  return name === undefined ? { kind } : { kind, name };
}
export function ptr(elem: GoType): GoPtrType {
  return { kind: 'ptr', elem };
}
export function slice(elem: GoType, name?: string): GoSliceType {
  return name === undefined ? { kind: 'slice', elem } : { kind: 'slice', elem, name };
}
export function map(
  elem: GoType,
  name?: string,
  key?: GoBasicType | GoCustomType<string>,
): GoMapType {
  const t: GoMapType = { kind: 'map', elem };
  if (name !== undefined) t.name = name;
  if (key !== undefined) t.key = key;
  return t;
}
export function struct(
  name: string | undefined,
  fields: GoField[] | (() => GoField[]),
): GoStructType {
  return name === undefined ? { kind: 'struct', fields } : { kind: 'struct', name, fields };
}
/** A struct field: field('CNIVersion', goString, 'cniVersion,omitempty'). */
export function field(
  goName: string,
  type: GoType,
  tag?: string,
  opts: { prop?: string; unexported?: boolean; rawTag?: string } = {},
): GoField {
  const f: GoField = { goName, type };
  if (tag !== undefined) f.tag = tag;
  if (opts.prop !== undefined) f.prop = opts.prop;
  if (opts.unexported) f.unexported = true;
  if (opts.rawTag !== undefined) f.rawTag = opts.rawTag;
  return f;
}
/** An embedded field: embed(types.NetConf) or embed(ptr(Range)). */
export function embed(
  type: GoType,
  opts: { tag?: string; prop?: string; unexported?: boolean } = {},
): GoField {
  const f: GoField = { goName: shortName(embeddedTypeName(type)), type, embedded: true };
  if (opts.tag !== undefined) f.tag = opts.tag;
  if (opts.prop !== undefined) f.prop = opts.prop;
  if (opts.unexported) f.unexported = true;
  return f;
}

function embeddedTypeName(t: GoType): string {
  const e = t.kind === 'ptr' ? t.elem : t;
  return 'name' in e && e.name !== undefined ? e.name : '';
}

/** "types.NetConf" -> "NetConf" (reflect.Type.Name()). */
export function shortName(qualified: string): string {
  const i = qualified.lastIndexOf('.');
  return i < 0 ? qualified : qualified.slice(i + 1);
}

export function structFieldsOf(t: GoStructType): GoField[] {
  return typeof t.fields === 'function' ? t.fields() : t.fields;
}

/** The TS property name used for a field's value. */
export function propOf(f: GoField): string {
  if (f.prop !== undefined) return f.prop;
  if (!f.embedded && f.tag !== undefined) {
    const name = f.tag.split(',')[0] ?? '';
    if (name !== '-' && isValidTag(name)) return name;
  }
  return f.goName;
}

// ---------------------------------------------------------------------------------------------
// Type strings (reflect.Type.String())

const typeStringCache = new WeakMap<GoType, string>();

export function typeString(t: GoType): string {
  const cached = typeStringCache.get(t);
  if (cached !== undefined) return cached;
  let s: string;
  switch (t.kind) {
    case 'ptr':
      s = '*' + typeString(t.elem);
      break;
    case 'slice':
      s = t.name ?? '[]' + typeString(t.elem);
      break;
    case 'map':
      s = t.name ?? 'map[' + typeString(t.key ?? goString) + ']' + typeString(t.elem);
      break;
    case 'interface':
      s = t.name ?? 'interface {}';
      break;
    case 'struct': {
      if (t.name !== undefined) {
        s = t.name;
        break;
      }
      const fs = structFieldsOf(t);
      if (fs.length === 0) {
        s = 'struct {}';
        break;
      }
      const parts = fs.map((f) => {
        let p = f.embedded ? typeString(f.type) : f.goName + ' ' + typeString(f.type);
        const raw = f.rawTag ?? (f.tag !== undefined ? 'json:' + goQuote(f.tag) : undefined);
        if (raw !== undefined) p += ' ' + goQuote(raw);
        return p;
      });
      s = 'struct { ' + parts.join('; ') + ' }';
      break;
    }
    case 'custom':
      s = t.name;
      break;
    default:
      s = t.name ?? t.kind;
  }
  typeStringCache.set(t, s);
  return s;
}

/** reflect.Type.Name() of a struct ("" when anonymous). */
export function structName(t: GoStructType): string {
  return t.name === undefined ? '' : shortName(t.name);
}

// ---------------------------------------------------------------------------------------------
// Zero values

export function zeroValue(t: GoType): unknown {
  switch (t.kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'interface':
    case 'ptr':
    case 'slice':
    case 'map':
      return null;
    case 'struct': {
      const o: Record<string, unknown> = {};
      for (const f of structFieldsOf(t)) setProp(o, propOf(f), zeroValue(f.type));
      return o;
    }
    case 'custom':
      return t.zero();
    default:
      return 0;
  }
}

const boxedCache = new WeakMap<GoPtrType, boolean>();

/**
 * Whether values of pointer type t are boxed as {elem}: when the element's own value can be null
 * (pointer, slice, map, interface, nullable custom types), so that a nil pointer (null) and a
 * pointer to a nil value ({elem: null}) stay distinct. Other pointers are just their element.
 */
export function isBoxedPtr(t: GoPtrType): boolean {
  let b = boxedCache.get(t);
  if (b === undefined) {
    b = zeroValue(t.elem) === null;
    boxedCache.set(t, b);
  }
  return b;
}

/** Sets o[k] as an own data property, also for "__proto__". */
export function setProp(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') {
    Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  } else {
    o[k] = v;
  }
}

// ---------------------------------------------------------------------------------------------
// Struct field resolution (encoding/json typeFields)

const TAG_PUNCT = '!#$%&()*+-./:;<=>?@[]^_{|}~ ';
const LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u;

export function isValidTag(s: string): boolean {
  if (s === '') return false;
  for (const ch of s) {
    if (TAG_PUNCT.includes(ch)) continue;
    if (!LETTER_OR_DIGIT.test(ch)) return false;
  }
  return true;
}

/** One step of a field's index path: the field of `owner` at `fieldIndex`. */
export interface FieldStep {
  owner: GoStructType;
  field: GoField;
  prop: string;
}

export interface ResolvedField {
  name: string;
  tagged: boolean;
  /** indexes of the path through embedded structs */
  index: number[];
  path: FieldStep[];
  /** the field's type (with an unnamed pointer followed, as Go's field.typ) */
  typ: GoType;
  /** the declared type of the final field */
  declType: GoType;
  omitEmpty: boolean;
  quoted: boolean;
  equalFold: (key: string) => boolean;
}

export interface StructFields {
  list: ResolvedField[];
  nameIndex: Map<string, number>;
}

const fieldsCache = new WeakMap<GoStructType, StructFields>();

function isQuotableKind(t: GoType): boolean {
  switch (t.kind) {
    case 'interface':
    case 'ptr':
    case 'slice':
    case 'map':
    case 'struct':
    case 'custom':
      return false;
    default:
      return true;
  }
}

interface Pending {
  typ: GoStructType;
  index: number[];
  path: FieldStep[];
}

function lessByIndex(a: number[], b: number[]): boolean {
  for (let k = 0; k < a.length; k++) {
    if (k >= b.length) return false;
    const x = a[k] ?? 0;
    const y = b[k] ?? 0;
    if (x !== y) return x < y;
  }
  return a.length < b.length;
}

export function cachedTypeFields(t: GoStructType): StructFields {
  const c = fieldsCache.get(t);
  if (c !== undefined) return c;
  const r = typeFields(t);
  fieldsCache.set(t, r);
  return r;
}

function typeFields(t: GoStructType): StructFields {
  let current: Pending[];
  let next: Pending[] = [{ typ: t, index: [], path: [] }];
  let count: Map<GoStructType, number>;
  let nextCount = new Map<GoStructType, number>();
  const visited = new Set<GoStructType>();
  const fields: ResolvedField[] = [];

  while (next.length > 0) {
    current = next;
    next = [];
    count = nextCount;
    nextCount = new Map();
    for (const f of current) {
      if (visited.has(f.typ)) continue;
      visited.add(f.typ);
      const sfs = structFieldsOf(f.typ);
      for (let i = 0; i < sfs.length; i++) {
        const sf = sfs[i];
        if (sf === undefined) continue;
        if (sf.embedded) {
          const et = sf.type.kind === 'ptr' ? sf.type.elem : sf.type;
          if (sf.unexported && et.kind !== 'struct') continue;
        } else if (sf.unexported) continue;
        const tag = sf.tag ?? '';
        if (tag === '-') continue;
        const comma = tag.indexOf(',');
        let name = comma < 0 ? tag : tag.slice(0, comma);
        const opts = comma < 0 ? [] : tag.slice(comma + 1).split(',');
        if (!isValidTag(name)) name = '';
        const index = [...f.index, i];
        const path = [...f.path, { owner: f.typ, field: sf, prop: propOf(sf) }];
        let ft = sf.type;
        if (ft.kind === 'ptr') ft = ft.elem;
        const quoted = opts.includes('string') && isQuotableKind(ft);
        if (name !== '' || !sf.embedded || ft.kind !== 'struct') {
          const tagged = name !== '';
          if (name === '') name = sf.goName;
          const rf: ResolvedField = {
            name,
            tagged,
            index,
            path,
            typ: ft,
            declType: sf.type,
            omitEmpty: opts.includes('omitempty'),
            quoted,
            equalFold: foldFunc(name),
          };
          fields.push(rf);
          if ((count.get(f.typ) ?? 0) > 1) fields.push(rf);
          continue;
        }
        const nc = (nextCount.get(ft) ?? 0) + 1;
        nextCount.set(ft, nc);
        if (nc === 1) next.push({ typ: ft, index, path });
      }
    }
  }

  fields.sort((a, b) => {
    if (a.name !== b.name) return a.name < b.name ? -1 : 1;
    if (a.index.length !== b.index.length) return a.index.length - b.index.length;
    if (a.tagged !== b.tagged) return a.tagged ? -1 : 1;
    return lessByIndex(a.index, b.index) ? -1 : lessByIndex(b.index, a.index) ? 1 : 0;
  });

  const out: ResolvedField[] = [];
  for (let i = 0; i < fields.length;) {
    const fi = fields[i] as ResolvedField;
    let advance = 1;
    while (i + advance < fields.length && fields[i + advance]?.name === fi.name) advance++;
    // dominantField: several fields at the shallowest depth with equal taggedness annihilate
    const f1 = advance > 1 ? fields[i + 1] : undefined;
    if (f1 === undefined || fi.index.length !== f1.index.length || fi.tagged !== f1.tagged) {
      out.push(fi);
    }
    i += advance;
  }
  out.sort((a, b) => (lessByIndex(a.index, b.index) ? -1 : lessByIndex(b.index, a.index) ? 1 : 0));
  const nameIndex = new Map<string, number>();
  out.forEach((f, i) => nameIndex.set(f.name, i));
  return { list: out, nameIndex };
}

// ---------------------------------------------------------------------------------------------
// Case folding (encoding/json fold.go); keys are JS strings, compared as their UTF-8 bytes.

const KELVIN = 0x212a;
const SMALL_LONG_ESS = 0x17f;

function foldFunc(name: string): (key: string) => boolean {
  let nonLetter = false;
  let special = false;
  for (let i = 0; i < name.length; i++) {
    const b = name.charCodeAt(i);
    if (b >= 0x80) return (key) => unicodeEqualFold(name, key);
    const upper = b & 0xdf;
    if (upper < 0x41 || upper > 0x5a) nonLetter = true;
    else if (upper === 0x4b || upper === 0x53) special = true;
  }
  if (special) return (key) => equalFoldRight(name, key);
  if (nonLetter) return (key) => asciiEqualFold(name, key);
  return (key) => simpleLetterEqualFold(name, key);
}

function equalFoldRight(s: string, t: string): boolean {
  let j = 0;
  for (let i = 0; i < s.length; i++) {
    const sb = s.charCodeAt(i);
    if (j >= t.length) return false;
    const tb = t.charCodeAt(j);
    if (tb < 0x80) {
      if (sb !== tb) {
        const sbUpper = sb & 0xdf;
        if (sbUpper >= 0x41 && sbUpper <= 0x5a) {
          if (sbUpper !== (tb & 0xdf)) return false;
        } else return false;
      }
      j++;
      continue;
    }
    // tb is the start of a multi-byte rune
    switch (sb) {
      case 0x73:
      case 0x53:
        if (tb !== SMALL_LONG_ESS) return false;
        break;
      case 0x6b:
      case 0x4b:
        if (tb !== KELVIN) return false;
        break;
      default:
        return false;
    }
    j++;
  }
  return j >= t.length;
}

function asciiEqualFold(s: string, t: string): boolean {
  if (s.length !== t.length) return false;
  for (let i = 0; i < s.length; i++) {
    const sb = s.charCodeAt(i);
    const tb = t.charCodeAt(i);
    if (sb === tb) continue;
    if ((sb >= 0x61 && sb <= 0x7a) || (sb >= 0x41 && sb <= 0x5a)) {
      if ((sb & 0xdf) !== (tb & 0xdf)) return false;
    } else return false;
  }
  return true;
}

function simpleLetterEqualFold(s: string, t: string): boolean {
  if (s.length !== t.length) return false;
  for (let i = 0; i < s.length; i++) {
    const tb = t.charCodeAt(i);
    if (tb >= 0x80) return false; // a non-ASCII byte never folds to an ASCII letter
    if ((s.charCodeAt(i) & 0xdf) !== (tb & 0xdf)) return false;
  }
  return true;
}

/** bytes.EqualFold approximation for non-ASCII names: simple case folding per code point. */
function unicodeEqualFold(s: string, t: string): boolean {
  const a = Array.from(s);
  const b = Array.from(t);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x === y) continue;
    const xl = x.toLowerCase();
    const yl = y.toLowerCase();
    if (xl.length === x.length && xl === yl) continue;
    const xu = x.toUpperCase();
    const yu = y.toUpperCase();
    if (xu.length === x.length && xu === yu) continue;
    return false;
  }
  return true;
}
