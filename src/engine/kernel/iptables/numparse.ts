/**
 * The C number parsers iptables relies on, reproduced exactly: strtoumax(3) with base 0,
 * libxtables' xtables_strtoui() and the sscanf(3) conversions used by the command line parser.
 */

const U64 = 2 ** 64;

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\v' || ch === '\f' || ch === '\r';
}

function digitValue(ch: string | undefined): number {
  if (ch === undefined) return 99;
  const c = ch.charCodeAt(0);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 87;
  if (c >= 65 && c <= 90) return c - 55;
  return 99;
}

export interface StrtoResult {
  /** The value (saturated when the text overflows 64 bits, as strtoumax does). */
  readonly value: number;
  /** Index of the first character not consumed (0 when nothing was converted). */
  readonly end: number;
  /** True when the value did not fit in 64 bits (errno = ERANGE). */
  readonly overflow: boolean;
  /** True when a leading '-' was consumed (strtoumax negates modulo 2^64). */
  readonly negative: boolean;
}

/** strtoumax(3). `base` is 0 (auto: 0x → 16, 0 → 8, else 10), 8, 10 or 16. */
export function strtoumax(s: string, base: number): StrtoResult {
  let i = 0;
  while (isSpace(s[i])) i++;
  let negative = false;
  if (s[i] === '+' || s[i] === '-') {
    negative = s[i] === '-';
    i++;
  }
  let b = base;
  if ((b === 0 || b === 16) && s[i] === '0' && (s[i + 1] === 'x' || s[i + 1] === 'X')) {
    if (digitValue(s[i + 2]) < 16) {
      i += 2;
      b = 16;
    } else {
      // "0x" with no hex digit: only the "0" is converted.
      return { value: 0, end: i + 1, overflow: false, negative };
    }
  } else if (b === 0) {
    b = s[i] === '0' ? 8 : 10;
  }
  const start = i;
  let value = 0;
  let overflow = false;
  while (digitValue(s[i]) < b) {
    value = value * b + digitValue(s[i]);
    if (value >= U64) overflow = true;
    i++;
  }
  if (i === start) return { value: 0, end: 0, overflow: false, negative: false };
  return { value: overflow ? U64 : value, end: i, overflow, negative };
}

/**
 * libxtables xtables_strtoul_base(): no leading minus, whole string consumed (the callers here
 * all pass end == NULL), min <= v <= max (max 0 = unbounded).
 */
export function xtStrtoui(s: string, min: number, max: number, base = 0): number | undefined {
  let p = 0;
  while (isSpace(s[p])) p++;
  if (s[p] === '-') return undefined;
  const r = strtoumax(s, base);
  if (r.end === 0) return undefined;
  if (r.overflow || r.value < min || (max !== 0 && r.value > max)) return undefined;
  if (r.end !== s.length) return undefined;
  return r.value;
}

/** Like xtStrtoui but also returns where parsing stopped (the caller inspects the rest). */
export function xtStrtouiEnd(
  s: string,
  min: number,
  max: number,
): { value: number; end: number } | undefined {
  let p = 0;
  while (isSpace(s[p])) p++;
  if (s[p] === '-') return undefined;
  const r = strtoumax(s, 0);
  if (r.end === 0) return undefined;
  if (r.overflow || r.value < min || (max !== 0 && r.value > max)) return undefined;
  return { value: r.value, end: r.end };
}

/** Whether sscanf(s, "%llu") converts something: blanks, optional sign, at least one digit. */
export function scanLlu(s: string): boolean {
  return /^[ \t\n\v\f\r]*[+-]?[0-9]/.test(s);
}

/** sscanf(s, "%i") success test (base auto-detected, optional sign). */
export function scanInt(s: string): number | undefined {
  let i = 0;
  while (isSpace(s[i])) i++;
  let neg = false;
  if (s[i] === '+' || s[i] === '-') {
    neg = s[i] === '-';
    i++;
  }
  const r = strtoumax(s.slice(i), 0);
  if (r.end === 0) return undefined;
  return neg ? -r.value : r.value;
}

/** Unsigned 32-bit value as C's "0x%x". */
export function hex32(v: number): string {
  return '0x' + (v >>> 0).toString(16);
}
