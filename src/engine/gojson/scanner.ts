/**
 * A port of Go 1.19's encoding/json scanner (scanner.go): a byte-at-a-time state machine that
 * reports syntax errors with exactly Go's messages.
 *
 * The input is a JS string standing for its UTF-8 bytes. All JSON syntax is ASCII, so the scanner
 * steps over UTF-16 code units; a code unit >= 0x80 stands for a non-ASCII byte. When such a byte
 * causes an error, the message quotes the first UTF-8 byte of that character the way Go does
 * (quoteChar(byte) formats the byte as the rune U+00XX). Lone surrogates stand for U+FFFD.
 */
import { goQuote } from './strconv';

export const SCAN_CONTINUE = 0;
export const SCAN_BEGIN_LITERAL = 1;
export const SCAN_BEGIN_OBJECT = 2;
export const SCAN_OBJECT_KEY = 3;
export const SCAN_OBJECT_VALUE = 4;
export const SCAN_END_OBJECT = 5;
export const SCAN_BEGIN_ARRAY = 6;
export const SCAN_ARRAY_VALUE = 7;
export const SCAN_END_ARRAY = 8;
export const SCAN_SKIP_SPACE = 9;
export const SCAN_END = 10;
export const SCAN_ERROR = 11;

const PARSE_OBJECT_KEY = 0;
const PARSE_OBJECT_VALUE = 1;
const PARSE_ARRAY_VALUE = 2;

const MAX_NESTING_DEPTH = 10000;

// step states
const S_BEGIN_VALUE = 0;
const S_BEGIN_VALUE_OR_EMPTY = 1;
const S_BEGIN_STRING_OR_EMPTY = 2;
const S_BEGIN_STRING = 3;
const S_END_VALUE = 4;
const S_END_TOP = 5;
const S_IN_STRING = 6;
const S_IN_STRING_ESC = 7;
const S_IN_STRING_ESC_U = 8;
const S_IN_STRING_ESC_U1 = 9;
const S_IN_STRING_ESC_U12 = 10;
const S_IN_STRING_ESC_U123 = 11;
const S_NEG = 12;
const S_1 = 13;
const S_0 = 14;
const S_DOT = 15;
const S_DOT0 = 16;
const S_E = 17;
const S_E_SIGN = 18;
const S_E0 = 19;
const S_T = 20;
const S_TR = 21;
const S_TRU = 22;
const S_F = 23;
const S_FA = 24;
const S_FAL = 25;
const S_FALS = 26;
const S_N = 27;
const S_NU = 28;
const S_NUL = 29;
const S_ERROR = 30;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Go's quoteChar(c) for a byte value. */
export function quoteByte(b: number): string {
  if (b === 0x27) return "'\\''";
  if (b === 0x22) return `'"'`;
  const s = goQuote(String.fromCharCode(b));
  return "'" + s.slice(1, -1) + "'";
}

/** The first UTF-8 byte of the character whose first UTF-16 code unit is at text[i]. */
export function firstUtf8Byte(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return c;
  if (c < 0x800) return 0xc0 | (c >> 6);
  if (c >= 0xd800 && c < 0xdc00) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d < 0xe000) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      return 0xf0 | (cp >> 18);
    }
    return 0xef; // lone surrogate = U+FFFD = EF BF BD
  }
  if (c >= 0xdc00 && c < 0xe000) return 0xef;
  return 0xe0 | (c >> 12);
}

export class Scanner {
  state = S_BEGIN_VALUE;
  endTop = false;
  parseState: number[] = [];
  /** error context ("looking for beginning of value", ...) or null */
  errContext: string | null = null;
  /** the code unit that caused the error (or -1 for end of input) */
  errChar = -1;
  /** index in the text of errChar */
  errIndex = -1;
  /** index of the code unit being stepped */
  private at = -1;
  /** the error message once known (set by the driver) */
  errMsg: string | null = null;

  reset(): void {
    this.state = S_BEGIN_VALUE;
    this.parseState.length = 0;
    this.errContext = null;
    this.errChar = -1;
    this.errIndex = -1;
    this.errMsg = null;
    this.endTop = false;
  }

  private error(c: number, context: string): number {
    this.state = S_ERROR;
    this.errContext = context;
    this.errChar = c;
    this.errIndex = this.at;
    return SCAN_ERROR;
  }

  private push(c: number, ps: number, success: number): number {
    this.parseState.push(ps);
    if (this.parseState.length <= MAX_NESTING_DEPTH) return success;
    return this.error(c, 'exceeded max depth');
  }

  private pop(): void {
    this.parseState.pop();
    if (this.parseState.length === 0) {
      this.state = S_END_TOP;
      this.endTop = true;
    } else {
      this.state = S_END_VALUE;
    }
  }

  /** Processes one code unit (text[i]) and returns the scan opcode. */
  step(c: number, i = -1): number {
    this.at = i;
    switch (this.state) {
      case S_BEGIN_VALUE_OR_EMPTY:
        if (isSpace(c)) return SCAN_SKIP_SPACE;
        if (c === 0x5d) return this.endValue(c);
        return this.beginValue(c);
      case S_BEGIN_VALUE:
        return this.beginValue(c);
      case S_BEGIN_STRING_OR_EMPTY:
        if (isSpace(c)) return SCAN_SKIP_SPACE;
        if (c === 0x7d) {
          this.parseState[this.parseState.length - 1] = PARSE_OBJECT_VALUE;
          return this.endValue(c);
        }
        return this.beginString(c);
      case S_BEGIN_STRING:
        return this.beginString(c);
      case S_END_VALUE:
        return this.endValue(c);
      case S_END_TOP:
        return this.endTopStep(c);
      case S_IN_STRING:
        if (c === 0x22) {
          this.state = S_END_VALUE;
          return SCAN_CONTINUE;
        }
        if (c === 0x5c) {
          this.state = S_IN_STRING_ESC;
          return SCAN_CONTINUE;
        }
        if (c < 0x20) return this.error(c, 'in string literal');
        return SCAN_CONTINUE;
      case S_IN_STRING_ESC:
        switch (c) {
          case 0x62: // b
          case 0x66: // f
          case 0x6e: // n
          case 0x72: // r
          case 0x74: // t
          case 0x5c: // \
          case 0x2f: // /
          case 0x22: // "
            this.state = S_IN_STRING;
            return SCAN_CONTINUE;
          case 0x75: // u
            this.state = S_IN_STRING_ESC_U;
            return SCAN_CONTINUE;
        }
        return this.error(c, 'in string escape code');
      case S_IN_STRING_ESC_U:
      case S_IN_STRING_ESC_U1:
      case S_IN_STRING_ESC_U12:
      case S_IN_STRING_ESC_U123:
        if (isHex(c)) {
          this.state = this.state === S_IN_STRING_ESC_U123 ? S_IN_STRING : this.state + 1;
          return SCAN_CONTINUE;
        }
        return this.error(c, 'in \\u hexadecimal character escape');
      case S_NEG:
        if (c === 0x30) {
          this.state = S_0;
          return SCAN_CONTINUE;
        }
        if (c >= 0x31 && c <= 0x39) {
          this.state = S_1;
          return SCAN_CONTINUE;
        }
        return this.error(c, 'in numeric literal');
      case S_1:
        if (c >= 0x30 && c <= 0x39) return SCAN_CONTINUE;
        return this.state0(c);
      case S_0:
        return this.state0(c);
      case S_DOT:
        if (c >= 0x30 && c <= 0x39) {
          this.state = S_DOT0;
          return SCAN_CONTINUE;
        }
        return this.error(c, 'after decimal point in numeric literal');
      case S_DOT0:
        if (c >= 0x30 && c <= 0x39) return SCAN_CONTINUE;
        if (c === 0x65 || c === 0x45) {
          this.state = S_E;
          return SCAN_CONTINUE;
        }
        return this.endValue(c);
      case S_E:
        if (c === 0x2b || c === 0x2d) {
          this.state = S_E_SIGN;
          return SCAN_CONTINUE;
        }
        return this.eSign(c);
      case S_E_SIGN:
        return this.eSign(c);
      case S_E0:
        if (c >= 0x30 && c <= 0x39) return SCAN_CONTINUE;
        return this.endValue(c);
      case S_T:
        return this.lit(c, 0x72, S_TR, "in literal true (expecting 'r')");
      case S_TR:
        return this.lit(c, 0x75, S_TRU, "in literal true (expecting 'u')");
      case S_TRU:
        return this.lit(c, 0x65, S_END_VALUE, "in literal true (expecting 'e')");
      case S_F:
        return this.lit(c, 0x61, S_FA, "in literal false (expecting 'a')");
      case S_FA:
        return this.lit(c, 0x6c, S_FAL, "in literal false (expecting 'l')");
      case S_FAL:
        return this.lit(c, 0x73, S_FALS, "in literal false (expecting 's')");
      case S_FALS:
        return this.lit(c, 0x65, S_END_VALUE, "in literal false (expecting 'e')");
      case S_N:
        return this.lit(c, 0x75, S_NU, "in literal null (expecting 'u')");
      case S_NU:
        return this.lit(c, 0x6c, S_NUL, "in literal null (expecting 'l')");
      case S_NUL:
        return this.lit(c, 0x6c, S_END_VALUE, "in literal null (expecting 'l')");
      default:
        return SCAN_ERROR;
    }
  }

  private lit(c: number, want: number, next: number, msg: string): number {
    if (c === want) {
      this.state = next;
      return SCAN_CONTINUE;
    }
    return this.error(c, msg);
  }

  private beginValue(c: number): number {
    if (isSpace(c)) return SCAN_SKIP_SPACE;
    switch (c) {
      case 0x7b: // {
        this.state = S_BEGIN_STRING_OR_EMPTY;
        return this.push(c, PARSE_OBJECT_KEY, SCAN_BEGIN_OBJECT);
      case 0x5b: // [
        this.state = S_BEGIN_VALUE_OR_EMPTY;
        return this.push(c, PARSE_ARRAY_VALUE, SCAN_BEGIN_ARRAY);
      case 0x22:
        this.state = S_IN_STRING;
        return SCAN_BEGIN_LITERAL;
      case 0x2d:
        this.state = S_NEG;
        return SCAN_BEGIN_LITERAL;
      case 0x30:
        this.state = S_0;
        return SCAN_BEGIN_LITERAL;
      case 0x74:
        this.state = S_T;
        return SCAN_BEGIN_LITERAL;
      case 0x66:
        this.state = S_F;
        return SCAN_BEGIN_LITERAL;
      case 0x6e:
        this.state = S_N;
        return SCAN_BEGIN_LITERAL;
    }
    if (c >= 0x31 && c <= 0x39) {
      this.state = S_1;
      return SCAN_BEGIN_LITERAL;
    }
    return this.error(c, 'looking for beginning of value');
  }

  private beginString(c: number): number {
    if (isSpace(c)) return SCAN_SKIP_SPACE;
    if (c === 0x22) {
      this.state = S_IN_STRING;
      return SCAN_BEGIN_LITERAL;
    }
    return this.error(c, 'looking for beginning of object key string');
  }

  private endValue(c: number): number {
    const n = this.parseState.length;
    if (n === 0) {
      this.state = S_END_TOP;
      this.endTop = true;
      return this.endTopStep(c);
    }
    if (isSpace(c)) {
      this.state = S_END_VALUE;
      return SCAN_SKIP_SPACE;
    }
    const ps = this.parseState[n - 1];
    switch (ps) {
      case PARSE_OBJECT_KEY:
        if (c === 0x3a) {
          this.parseState[n - 1] = PARSE_OBJECT_VALUE;
          this.state = S_BEGIN_VALUE;
          return SCAN_OBJECT_KEY;
        }
        return this.error(c, 'after object key');
      case PARSE_OBJECT_VALUE:
        if (c === 0x2c) {
          this.parseState[n - 1] = PARSE_OBJECT_KEY;
          this.state = S_BEGIN_STRING;
          return SCAN_OBJECT_VALUE;
        }
        if (c === 0x7d) {
          this.pop();
          return SCAN_END_OBJECT;
        }
        return this.error(c, 'after object key:value pair');
      case PARSE_ARRAY_VALUE:
        if (c === 0x2c) {
          this.state = S_BEGIN_VALUE;
          return SCAN_ARRAY_VALUE;
        }
        if (c === 0x5d) {
          this.pop();
          return SCAN_END_ARRAY;
        }
        return this.error(c, 'after array element');
    }
    return this.error(c, '');
  }

  private endTopStep(c: number): number {
    if (!isSpace(c)) this.error(c, 'after top-level value');
    return SCAN_END;
  }

  private state0(c: number): number {
    if (c === 0x2e) {
      this.state = S_DOT;
      return SCAN_CONTINUE;
    }
    if (c === 0x65 || c === 0x45) {
      this.state = S_E;
      return SCAN_CONTINUE;
    }
    return this.endValue(c);
  }

  private eSign(c: number): number {
    if (c >= 0x30 && c <= 0x39) {
      this.state = S_E0;
      return SCAN_CONTINUE;
    }
    return this.error(c, 'in exponent of numeric literal');
  }

  /** Go's scanner.eof(): SCAN_END or SCAN_ERROR (then errMsg is set). */
  eof(): number {
    if (this.errContext !== null) return SCAN_ERROR;
    if (this.endTop) return SCAN_END;
    this.step(0x20);
    if (this.endTop) return SCAN_END;
    if (this.errContext === null) this.errMsg = 'unexpected end of JSON input';
    return SCAN_ERROR;
  }

  /** True while inside a string literal body (not in an escape). */
  inStringBody(): boolean {
    return this.state === S_IN_STRING;
  }

  /** Go's SyntaxError message once an error was raised (text: the scanned text). */
  message(text: string): string {
    if (this.errMsg !== null) return this.errMsg;
    const c = this.errChar;
    const b = c >= 0x80 && this.errIndex >= 0 ? firstUtf8Byte(text, this.errIndex) : c;
    this.errMsg = 'invalid character ' + quoteByte(b) + ' ' + (this.errContext ?? '');
    return this.errMsg;
  }
}

const shared = new Scanner();

/**
 * Go's checkValid: null when text is valid JSON, else exactly the message of the *SyntaxError
 * json.Unmarshal returns.
 */
export function jsonSyntaxError(text: string): string | null {
  const s = shared;
  s.reset();
  const n = text.length;
  for (let i = 0; i < n; i++) {
    if (s.inStringBody()) {
      // fast path over plain string content
      let c = text.charCodeAt(i);
      while (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
        i++;
        if (i >= n) break;
        c = text.charCodeAt(i);
      }
      if (i >= n) break;
    }
    if (s.step(text.charCodeAt(i), i) >= SCAN_END && s.errContext !== null) return s.message(text);
  }
  if (s.eof() === SCAN_ERROR) return s.message(text);
  return null;
}
