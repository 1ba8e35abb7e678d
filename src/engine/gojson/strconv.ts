/**
 * Emulation of the parts of Go's strconv and fmt used for messages: Quote / %q, %v of []string,
 * IsPrint, FormatFloat and the float64 text parsers.
 *
 * Strings are JS strings standing for Go strings (their UTF-8 bytes). A lone surrogate stands for
 * U+FFFD (what TextEncoder would produce). Byte-exact quoting of invalid UTF-8 is available through
 * goQuoteBytes.
 */
import { IS_PRINT_RANGES_DELTA_HEX } from './isprint-table';

let printRanges: Uint32Array | null = null;

function ranges(): Uint32Array {
  if (printRanges === null) {
    const parts = IS_PRINT_RANGES_DELTA_HEX.split(',');
    const out = new Uint32Array(parts.length);
    let acc = 0;
    for (let i = 0; i < parts.length; i++) {
      acc += parseInt(parts[i] ?? '0', 16);
      out[i] = acc;
    }
    printRanges = out;
  }
  return printRanges;
}

/** Go's strconv.IsPrint(r). */
export function goIsPrint(r: number): boolean {
  if (r < 0x7f) return r >= 0x20;
  const t = ranges();
  // binary search for the last range start <= r
  let lo = 0;
  let hi = (t.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = t[mid * 2] ?? 0;
    if (start <= r) lo = mid + 1;
    else hi = mid - 1;
  }
  if (hi < 0) return false;
  return r <= (t[hi * 2 + 1] ?? -1);
}

const HEX = '0123456789abcdef';

function hex2(b: number): string {
  return (HEX[(b >> 4) & 15] ?? '0') + (HEX[b & 15] ?? '0');
}

function appendEscapedRune(r: number, quote: number): string {
  if (r === quote || r === 0x5c) return '\\' + String.fromCharCode(r);
  if (goIsPrint(r)) return String.fromCodePoint(r);
  switch (r) {
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 12:
      return '\\f';
    case 10:
      return '\\n';
    case 13:
      return '\\r';
    case 9:
      return '\\t';
    case 11:
      return '\\v';
  }
  if (r < 0x20 || r === 0x7f) return '\\x' + hex2(r);
  if (r > 0x10ffff || (r >= 0xd800 && r < 0xe000)) r = 0xfffd;
  if (r < 0x10000) return '\\u' + r.toString(16).padStart(4, '0');
  return '\\U' + r.toString(16).padStart(8, '0');
}

/** Go's strconv.Quote(s) (also fmt's %q of a string). */
export function goQuote(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    if (start < i) out += s.slice(start, i);
    let r = c;
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        r = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (r >= 0xd800 && r < 0xe000) r = 0xfffd; // lone surrogate: U+FFFD
    out += appendEscapedRune(r, 0x22);
    start = i + 1;
  }
  if (start < s.length) out += s.slice(start);
  return out + '"';
}

/**
 * Decodes one UTF-8 sequence from bytes at i like Go's utf8.DecodeRune: returns [rune, width];
 * an invalid sequence gives [0xFFFD, 1].
 */
export function decodeRuneBytes(b: Uint8Array, i: number): [number, number] {
  const c0 = b[i] ?? 0;
  if (c0 < 0x80) return [c0, 1];
  const n = b.length - i;
  const cont = (k: number): number => {
    const x = b[i + k];
    return x !== undefined && (x & 0xc0) === 0x80 ? x & 0x3f : -1;
  };
  if (c0 >= 0xc2 && c0 <= 0xdf && n >= 2) {
    const c1 = cont(1);
    if (c1 >= 0) return [((c0 & 0x1f) << 6) | c1, 2];
  } else if (c0 >= 0xe0 && c0 <= 0xef && n >= 3) {
    const b1 = b[i + 1] ?? 0;
    const lo = c0 === 0xe0 ? 0xa0 : 0x80;
    const hi = c0 === 0xed ? 0x9f : 0xbf;
    const c2 = cont(2);
    if (b1 >= lo && b1 <= hi && c2 >= 0) return [((c0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | c2, 3];
  } else if (c0 >= 0xf0 && c0 <= 0xf4 && n >= 4) {
    const b1 = b[i + 1] ?? 0;
    const lo = c0 === 0xf0 ? 0x90 : 0x80;
    const hi = c0 === 0xf4 ? 0x8f : 0xbf;
    const c2 = cont(2);
    const c3 = cont(3);
    if (b1 >= lo && b1 <= hi && c2 >= 0 && c3 >= 0)
      return [((c0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | (c2 << 6) | c3, 4];
  }
  return [0xfffd, 1];
}

/** Go's strconv.Quote of a byte string (invalid UTF-8 bytes come out as \xNN). */
export function goQuoteBytes(b: Uint8Array): string {
  let out = '"';
  for (let i = 0; i < b.length;) {
    const [r, w] = decodeRuneBytes(b, i);
    if (w === 1 && r === 0xfffd) out += '\\x' + hex2(b[i] ?? 0);
    else out += appendEscapedRune(r, 0x22);
    i += w;
  }
  return out + '"';
}

/** Encodes a JS string as UTF-8 (lone surrogates become U+FFFD, like TextEncoder). */
export function utf8Bytes(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out.push(c);
      continue;
    }
    if (c >= 0xd800 && c < 0xe000) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      } else c = 0xfffd;
    }
    if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else
      out.push(
        0xf0 | (c >> 18),
        0x80 | ((c >> 12) & 0x3f),
        0x80 | ((c >> 6) & 0x3f),
        0x80 | (c & 0x3f),
      );
  }
  return Uint8Array.from(out);
}

/** Decodes UTF-8 bytes to a JS string the way Go's string->[]rune does (invalid bytes -> U+FFFD). */
export function utf8Decode(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length;) {
    const [r, w] = decodeRuneBytes(b, i);
    out += String.fromCodePoint(r);
    i += w;
  }
  return out;
}

/** fmt's %q of a []string: ["a" "b"]. */
export function goQuoteList(xs: readonly string[]): string {
  return '[' + xs.map(goQuote).join(' ') + ']';
}

/** fmt's %v (and %s) of a []string: [a b]. */
export function goList(xs: readonly string[]): string {
  return '[' + xs.join(' ') + ']';
}

// ---------------------------------------------------------------------------------------------
// Float formatting (strconv.FormatFloat with bitSize 64)

interface Digits {
  /** decimal digits without leading/trailing zeros ('' for zero) */
  d: string;
  /** decimal point position: value = 0.d × 10^dp */
  dp: number;
}

/** Shortest digits that round-trip (what Go's shortest formatting produces). */
function shortestDigits(abs: number): Digits {
  if (abs === 0) return { d: '', dp: 0 };
  const s = abs.toExponential(); // shortest round-trip digits, e.g. "1.2345e+2"
  const e = s.indexOf('e');
  const mant = s.slice(0, e).replace('.', '');
  const exp = parseInt(s.slice(e + 1), 10);
  return { d: mant.replace(/0+$/, ''), dp: exp + 1 };
}

/** The exact decimal expansion of a finite non-negative double. */
function exactDigits(abs: number): Digits {
  if (abs === 0) return { d: '', dp: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, abs);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e2: number;
  if (bexp === 0) e2 = -1074;
  else {
    mant |= 1n << 52n;
    e2 = bexp - 1075;
  }
  let digits: string;
  let dp: number;
  if (e2 >= 0) {
    digits = (mant << BigInt(e2)).toString();
    dp = digits.length;
  } else {
    // mant / 2^-e2 = mant * 5^-e2 / 10^-e2
    digits = (mant * 5n ** BigInt(-e2)).toString();
    dp = digits.length + e2;
  }
  const trimmed = digits.replace(/0+$/, '');
  const lead = trimmed.length - trimmed.replace(/^0+/, '').length;
  return { d: trimmed.slice(lead), dp: dp - lead };
}

/** Rounds digits to nd digits (round half to even on exact ties, as Go's decimal does). */
function roundDigits(x: Digits, nd: number): Digits {
  if (nd < 0) return { d: '', dp: x.dp };
  if (nd >= x.d.length) return x;
  const next = x.d.charCodeAt(nd) - 48;
  let up: boolean;
  if (next > 5) up = true;
  else if (next < 5) up = false;
  else if (nd + 1 < x.d.length) up = true;
  else up = nd > 0 && (x.d.charCodeAt(nd - 1) - 48) % 2 === 1;
  let d = x.d.slice(0, nd);
  let dp = x.dp;
  if (up) {
    let i = d.length - 1;
    while (i >= 0 && d[i] === '9') i--;
    if (i < 0) {
      d = '1';
      dp++;
    } else {
      d = d.slice(0, i) + String.fromCharCode(d.charCodeAt(i) + 1);
    }
  }
  return { d: d.replace(/0+$/, ''), dp };
}

function fmtE(neg: boolean, x: Digits, prec: number, e: string): string {
  let out = neg ? '-' : '';
  out += x.d.length !== 0 ? x.d[0] : '0';
  if (prec > 0) {
    out += '.';
    const m = Math.min(x.d.length, prec + 1);
    let i = 1;
    if (i < m) {
      out += x.d.slice(i, m);
      i = m;
    }
    for (; i <= prec; i++) out += '0';
  }
  out += e;
  let exp = x.d.length === 0 ? 0 : x.dp - 1;
  if (exp < 0) {
    out += '-';
    exp = -exp;
  } else out += '+';
  out += exp < 10 ? '0' + exp : String(exp);
  return out;
}

function fmtF(neg: boolean, x: Digits, prec: number): string {
  let out = neg ? '-' : '';
  if (x.dp > 0) {
    const m = Math.min(x.d.length, x.dp);
    out += x.d.slice(0, m);
    for (let k = m; k < x.dp; k++) out += '0';
  } else out += '0';
  if (prec > 0) {
    out += '.';
    for (let i = 0; i < prec; i++) {
      const j = x.dp + i;
      out += j >= 0 && j < x.d.length ? x.d[j] : '0';
    }
  }
  return out;
}

/**
 * Go's strconv.FormatFloat(f, fmt, prec, 64) for fmt 'e', 'E', 'f', 'g', 'G' (prec -1 means the
 * shortest representation that round-trips).
 */
export function goFormatFloat(f: number, fmt: 'e' | 'E' | 'f' | 'g' | 'G', prec = -1): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  const neg = f < 0 || Object.is(f, -0);
  const abs = Math.abs(f);
  const shortest = prec < 0;
  let x: Digits;
  if (shortest) {
    x = shortestDigits(abs);
    switch (fmt) {
      case 'e':
      case 'E':
        prec = Math.max(x.d.length - 1, 0);
        break;
      case 'f':
        prec = Math.max(x.d.length - x.dp, 0);
        break;
      default:
        prec = x.d.length;
    }
  } else {
    const exact = exactDigits(abs);
    switch (fmt) {
      case 'e':
      case 'E':
        x = roundDigits(exact, prec + 1);
        break;
      case 'f':
        x = roundDigits(exact, exact.dp + prec);
        break;
      default:
        if (prec === 0) prec = 1;
        x = roundDigits(exact, prec);
    }
  }
  switch (fmt) {
    case 'e':
    case 'E':
      return fmtE(neg, x, prec, fmt);
    case 'f':
      return fmtF(neg, x, prec);
  }
  let eprec = prec;
  if (eprec > x.d.length && x.d.length >= x.dp) eprec = x.d.length;
  if (shortest) eprec = 6;
  const exp = x.dp - 1;
  if (exp < -4 || exp >= eprec) {
    if (prec > x.d.length) prec = x.d.length;
    return fmtE(neg, x, prec - 1, fmt === 'g' ? 'e' : 'E');
  }
  if (prec > x.dp) prec = x.d.length;
  return fmtF(neg, x, Math.max(prec - x.dp, 0));
}

/** fmt's %v of a float64 (same as strconv.FormatFloat(f, 'g', -1, 64)). */
export function goFormatFloatV(f: number): string {
  return goFormatFloat(f, 'g', -1);
}

// ---------------------------------------------------------------------------------------------
// Number parsing (as used by encoding/json)

/** strconv.ParseFloat(s, 64) for JSON number literals: the value, or null on range error. */
export function parseJSONFloat64(s: string): number | null {
  const f = Number(s);
  return Number.isFinite(f) ? f : null;
}

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int: [-(2n ** 63n), 2n ** 63n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int8: [-(2n ** 7n), 2n ** 7n - 1n],
  uint: [0n, 2n ** 64n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  uintptr: [0n, 2n ** 64n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint16: [0n, 2n ** 16n - 1n],
  uint8: [0n, 2n ** 8n - 1n],
};

const SIGNED_RE = /^[+-]?[0-9]+$/;
const UNSIGNED_RE = /^[0-9]+$/;

/**
 * strconv.ParseInt(s, 10, 64) / ParseUint(s, 10, 64) followed by reflect's Overflow check for the
 * given Go integer kind: the value as a JS number, or as an exact bigint when it is beyond
 * Number.MAX_SAFE_INTEGER; null on a syntax or range error.
 */
export function parseGoInt(s: string, kind: string): number | bigint | null {
  const range = INT_RANGES[kind];
  if (range === undefined) return null;
  const unsigned = range[0] === 0n;
  if (!(unsigned ? UNSIGNED_RE : SIGNED_RE).test(s)) return null;
  if (s.length <= 15) {
    const n = Number(s);
    if (n < Number(range[0]) || n > Number(range[1])) return null;
    return n === 0 ? 0 : n;
  }
  const b = BigInt(s);
  if (b < range[0] || b > range[1]) return null;
  const n = Number(b);
  return Number.isSafeInteger(n) ? n : b;
}

const FLOAT_RE = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const SPECIAL_RE = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * strconv.ParseFloat(s, bitSize) for arbitrary text (used by the ",string" tag option): the value,
 * or null on a syntax or range error. Hexadecimal and underscore forms are not supported.
 */
export function parseGoFloat(s: string, bitSize: 32 | 64): number | null {
  if (FLOAT_RE.test(s)) {
    let f = Number(s);
    if (bitSize === 32) f = Math.fround(f);
    return Number.isFinite(f) ? f : null;
  }
  const m = SPECIAL_RE.exec(s);
  if (m !== null) {
    const name = (m[2] ?? '').toLowerCase();
    if (name === 'nan') return m[1] === '' ? NaN : null;
    return m[1] === '-' ? -Infinity : Infinity;
  }
  return null;
}
