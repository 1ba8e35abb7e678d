/**
 * bash's `printf` and `echo` builtins.
 *
 * printf: the format is reused while arguments remain; escapes \a \b \c \e \E \f \n \r \t \v \\
 * \" \' \? \NNN (octal) \xHH \uHHHH \UHHHHHHHH; conversions %d %i %o %u %x %X %c %s %b %q %f %F
 * %e %E %g %G %% with flags (-+ #0), width and precision (also `*`), length modifiers ignored;
 * `-v VAR`. Numbers: decimal, 0x hex, 0 octal, 'c (a character's code); an invalid number prints
 * its valid prefix (or 0) with "invalid number" and status 1; 64-bit range as bash.
 * echo: -n -e -E (combined too, e.g. -ne); with -e the escapes above plus \0NNN and \c.
 */
import type { CommandContext, CommandSpec } from '../types';

const SIMPLE_ESC: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/**
 * Expands backslash escapes. `mode`: 'format' (printf's format: \NNN with 1-3 digits, \" \' \?,
 * \c literal), 'b' (printf %b: \0NNN or \NNN, \c stops), 'echo' (echo -e: \0NNN only, \c stops).
 * Returns the text and whether \c was met (stop all output).
 */
export function expandEscapes(
  s: string,
  mode: 'format' | 'b' | 'echo',
): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[i + 1]!;
    if (SIMPLE_ESC[n] !== undefined) {
      out += SIMPLE_ESC[n];
      i++;
    } else if (mode === 'format' && (n === '"' || n === "'" || n === '?')) {
      out += n;
      i++;
    } else if (n === 'c' && mode !== 'format') {
      return { text: out, stop: true };
    } else if (/[0-7]/.test(n) && (mode !== 'echo' || n === '0')) {
      // format: \NNN (the digits include a leading 0); %b and echo: \0NNN (3 digits after the 0).
      let j = i + 1;
      const max = 3;
      if (mode !== 'format' && n === '0') j++;
      let digits = '';
      while (digits.length < max && j < s.length && /[0-7]/.test(s[j]!)) digits += s[j++];
      out += String.fromCharCode(parseInt(digits || '0', 8) & 0xff);
      i = j - 1;
    } else if (n === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 2));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += 1 + m[0].length;
      } else {
        out += '\\x';
        i++;
      }
    } else if (n === 'u' || n === 'U') {
      const m = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(s.slice(i + 2));
      if (m) {
        out += String.fromCodePoint(Math.min(parseInt(m[0], 16), 0x10ffff));
        i += 1 + m[0].length;
      } else {
        out += '\\' + n;
        i++;
      }
    } else {
      out += '\\' + n;
      i++;
    }
  }
  return { text: out, stop: false };
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/** bash's number parsing for printf: value, and an error when the text is not all a number. */
function parseNumber(arg: string): {
  value: bigint;
  error: 'invalid' | 'octal' | 'hex' | 'range' | null;
} {
  if (arg === '') return { value: 0n, error: null };
  if (arg[0] === "'" || arg[0] === '"') {
    return { value: arg.length > 1 ? BigInt(arg.codePointAt(1)!) : 0n, error: null };
  }
  const m = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(arg);
  if (!m) return { value: 0n, error: 'invalid' };
  if (/^\s*[+-]?0[0-7]*[89]/.test(arg)) return { value: 0n, error: 'octal' };
  if (/^\s*[+-]?0[xX]([^0-9a-fA-F]|$)/.test(arg)) return { value: 0n, error: 'hex' };
  const body = m[2]!;
  let v =
    body.startsWith('0x') || body.startsWith('0X')
      ? BigInt(body)
      : body.length > 1 && body[0] === '0'
        ? BigInt('0o' + body.slice(1))
        : BigInt(body);
  if (m[1] === '-') v = -v;
  let error: 'invalid' | 'octal' | 'hex' | 'range' | null =
    m[0].length === arg.length ? null : 'invalid';
  if (v > INT64_MAX) {
    v = INT64_MAX;
    error ??= 'range';
  } else if (v < INT64_MIN) {
    v = INT64_MIN;
    error ??= 'range';
  }
  return { value: v, error };
}

function parseFloatArg(arg: string): { value: number; ok: boolean } {
  if (arg === '') return { value: 0, ok: true };
  if (arg[0] === "'" || arg[0] === '"')
    return { value: arg.length > 1 ? arg.codePointAt(1)! : 0, ok: true };
  const m = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(arg);
  if (!m) {
    const n = parseNumber(arg);
    return { value: Number(n.value), ok: n.error === null };
  }
  return { value: Number(m[0]), ok: m[0].length === arg.length };
}

function pad(s: string, width: number, left: boolean, zero: boolean): string {
  if (s.length >= width) return s;
  if (left) return s + ' '.repeat(width - s.length);
  if (zero) {
    const sign = /^[+ -]/.test(s) ? s[0]! : '';
    const prefix = /^[+ -]?0[xX]/.test(s) ? s.slice(0, sign.length + 2) : sign;
    return prefix + '0'.repeat(width - s.length) + s.slice(prefix.length);
  }
  return ' '.repeat(width - s.length) + s;
}

/** %g as C prints it. */
function formatG(v: number, prec: number, alt: boolean, upper: boolean): string {
  if (!Number.isFinite(v)) return fmtNonFinite(v, upper);
  const p = prec === 0 ? 1 : prec;
  if (v === 0) return alt ? (0).toFixed(p - 1) : '0';
  const exp = Math.floor(Math.log10(Math.abs(Number(v.toExponential(p - 1)))));
  let s: string;
  if (exp < -4 || exp >= p) {
    s = v.toExponential(p - 1);
    const [m0, e] = s.split('e') as [string, string];
    const mant = !alt && m0.includes('.') ? m0.replace(/\.?0+$/, '') : m0;
    const en = Number(e);
    s = `${mant}e${en < 0 ? '-' : '+'}${String(Math.abs(en)).padStart(2, '0')}`;
  } else {
    s = v.toFixed(Math.max(0, p - 1 - exp));
    if (!alt && s.includes('.')) s = s.replace(/\.?0+$/, '');
  }
  return upper ? s.toUpperCase() : s;
}

function fmtNonFinite(v: number, upper: boolean): string {
  const s = Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  return upper ? s.toUpperCase() : s;
}

function formatE(v: number, prec: number, upper: boolean): string {
  if (!Number.isFinite(v)) return fmtNonFinite(v, upper);
  const [mant, e] = v.toExponential(prec).split('e') as [string, string];
  const en = Number(e);
  const s = `${mant}e${en < 0 ? '-' : '+'}${String(Math.abs(en)).padStart(2, '0')}`;
  return upper ? s.toUpperCase() : s;
}

/** bash's printf %q. */
export function bashQuote(s: string): string {
  if (s === '') return "''";
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(s)) {
    let out = "$'";
    for (const ch of s) {
      const c = ch.charCodeAt(0);
      if (ch === "'" || ch === '\\') out += '\\' + ch;
      else if (ch === '\n') out += '\\n';
      else if (ch === '\t') out += '\\t';
      else if (ch === '\r') out += '\\r';
      else if (c === 0x1b) out += '\\E';
      else if (c < 0x20 || c === 0x7f) out += '\\' + c.toString(8).padStart(3, '0');
      else out += ch;
    }
    return out + "'";
  }
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (/[\s'"\\|&;()<>!$`*?[\]{}#^]/.test(ch) || (ch === '~' && i === 0) || (ch === '=' && false))
      out += '\\' + ch;
    else out += ch;
  }
  return out;
}

export interface PrintfResult {
  out: string;
  errors: string[];
  status: number;
}

/** Formats like bash's printf builtin; `errors` are messages without the "bash: printf: " prefix. */
export function bashPrintf(format: string, args: readonly string[]): PrintfResult {
  let out = '';
  const errors: string[] = [];
  let status = 0;
  let ai = 0;
  const nextArg = (): string | undefined => (ai < args.length ? args[ai++] : undefined);
  const intArg = (): bigint => {
    const a = nextArg();
    if (a === undefined) return 0n;
    const n = parseNumber(a);
    if (n.error === 'invalid' || n.error === 'octal' || n.error === 'hex') {
      errors.push(`${a}: invalid ${n.error === 'invalid' ? '' : n.error + ' '}number`);
      status = 1;
    } else if (n.error === 'range') {
      errors.push(`warning: ${a}: Numerical result out of range`);
    }
    return n.value;
  };
  for (;;) {
    const startAi = ai;
    for (let i = 0; i < format.length; i++) {
      const c = format[i]!;
      if (c === '\\') {
        // One escape at a time.
        const m = /^\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|.)?/s.exec(
          format.slice(i),
        )!;
        const e = expandEscapes(m[0], 'format');
        out += e.text;
        if (e.stop) return { out, errors, status };
        i += m[0].length - 1;
        continue;
      }
      if (c !== '%') {
        out += c;
        continue;
      }
      if (format[i + 1] === '%') {
        out += '%';
        i++;
        continue;
      }
      const m = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([hlLjzt]*)(.)?/s.exec(format.slice(i))!;
      const spec = m[0];
      const flags = m[1]!;
      const conv = m[5];
      if (conv === undefined) {
        errors.push(`\`${spec}': missing format character`);
        return { out, errors, status: 1 };
      }
      let width = 0;
      let left = flags.includes('-');
      if (m[2] === '*') {
        const w = Number(intArg());
        if (w < 0) {
          left = true;
          width = -w;
        } else width = w;
      } else if (m[2]) width = Number(m[2]);
      let prec: number | null = null;
      if (m[3] !== undefined) prec = m[3] === '*' ? Number(intArg()) : Number(m[3] || '0');
      if (prec !== null && prec < 0) prec = null;
      const zero = flags.includes('0') && !left;
      const plus = flags.includes('+');
      const space = flags.includes(' ');
      const alt = flags.includes('#');
      i += spec.length - 1;
      let s: string;
      switch (conv) {
        case 'd':
        case 'i': {
          const v = intArg();
          let digits = (v < 0n ? -v : v).toString();
          if (prec !== null) digits = digits.padStart(prec, '0');
          s = (v < 0n ? '-' : plus ? '+' : space ? ' ' : '') + digits;
          out += pad(s, width, left, zero && prec === null);
          break;
        }
        case 'o':
        case 'u':
        case 'x':
        case 'X': {
          let v = intArg();
          if (v < 0n) v += 1n << 64n;
          let digits = conv === 'o' ? v.toString(8) : conv === 'u' ? v.toString() : v.toString(16);
          if (conv === 'X') digits = digits.toUpperCase();
          if (prec !== null) digits = digits.padStart(prec, '0');
          if (alt && conv === 'o' && !digits.startsWith('0')) digits = '0' + digits;
          if (alt && (conv === 'x' || conv === 'X') && v !== 0n)
            digits = (conv === 'x' ? '0x' : '0X') + digits;
          out += pad(digits, width, left, zero && prec === null);
          break;
        }
        case 'c': {
          const a = nextArg();
          s = a === undefined ? '' : a === '' ? '\0' : [...a][0]!;
          out += pad(s, width, left, false);
          break;
        }
        case 's': {
          let a = nextArg() ?? '';
          if (prec !== null) a = a.slice(0, prec);
          out += pad(a, width, left, false);
          break;
        }
        case 'b': {
          const e = expandEscapes(nextArg() ?? '', 'b');
          let a = e.text;
          if (prec !== null) a = a.slice(0, prec);
          out += pad(a, width, left, false);
          if (e.stop) return { out, errors, status };
          break;
        }
        case 'q':
        case 'Q': {
          out += pad(bashQuote(nextArg() ?? ''), width, left, false);
          break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
          const a = nextArg();
          let v = 0;
          if (a !== undefined) {
            const f = parseFloatArg(a);
            v = f.value;
            if (!f.ok) {
              errors.push(`${a}: invalid number`);
              status = 1;
            }
          }
          const p = prec ?? 6;
          if (conv === 'f' || conv === 'F')
            s = Number.isFinite(v) ? v.toFixed(p) : fmtNonFinite(v, conv === 'F');
          else if (conv === 'e' || conv === 'E') s = formatE(v, p, conv === 'E');
          else s = formatG(v, p, alt, conv === 'G' || conv === 'A');
          if (v >= 0 && !s.startsWith('-')) s = (plus ? '+' : space ? ' ' : '') + s;
          out += pad(s, width, left, zero);
          break;
        }
        default:
          errors.push(`\`${conv}': invalid format character`);
          return { out, errors, status: 1 };
      }
    }
    // The format is reused while arguments remain (and it consumed some).
    if (ai >= args.length || ai === startAi) break;
  }
  return { out, errors, status };
}

function printf(ctx: CommandContext): number {
  const pfx = ctx.shell.errorPrefix();
  let args = ctx.argv.slice(1);
  let varName: string | null = null;
  if (args[0] === '-v') {
    if (args.length < 2) {
      ctx.err(
        `${pfx}printf: -v: option requires an argument\nprintf: usage: printf [-v var] format [arguments]\n`,
      );
      return 2;
    }
    varName = args[1]!;
    args = args.slice(2);
  } else if (args[0]?.startsWith('-v') && args[0].length > 2) {
    varName = args[0].slice(2);
    args = args.slice(1);
  }
  if (args[0] === '--') args = args.slice(1);
  else if (args[0] && args[0].startsWith('-') && args[0] !== '-' && !/^-[0-9]/.test(args[0])) {
    ctx.err(
      `${pfx}printf: ${args[0].slice(0, 2)}: invalid option\nprintf: usage: printf [-v var] format [arguments]\n`,
    );
    return 2;
  }
  if (args.length === 0) {
    ctx.err('printf: usage: printf [-v var] format [arguments]\n');
    return 2;
  }
  const r = bashPrintf(args[0]!, args.slice(1));
  for (const e of r.errors) ctx.err(`${pfx}printf: ${e}\n`);
  if (varName !== null) ctx.shell.setVar(varName, r.out);
  else ctx.out(r.out);
  return r.status;
}

function echo(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  let newline = true;
  let escapes = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!/^-[neE]+$/.test(a)) break;
    for (const f of a.slice(1)) {
      if (f === 'n') newline = false;
      else if (f === 'e') escapes = true;
      else escapes = false;
    }
  }
  let text = args.slice(i).join(' ');
  if (escapes) {
    const e = expandEscapes(text, 'echo');
    text = e.text;
    if (e.stop) {
      ctx.out(text);
      return 0;
    }
  }
  ctx.out(newline ? text + '\n' : text);
  return 0;
}

export const PRINTF_COMMANDS: CommandSpec[] = [
  { name: 'printf', dir: '/usr/bin', builtin: true, run: printf },
  { name: 'echo', dir: '/usr/bin', builtin: true, run: echo },
];
