/**
 * Shell arithmetic, as bash 5.2's `expr.c` evaluates `$(( ... ))`: 64-bit signed integers that
 * wrap, C's operators and precedence (unary minus binding tighter than `**`), `base#digits`,
 * 0x and leading-0 octal constants, variables whose values are themselves evaluated,
 * assignments (`=`, `+=`, ...), `++`/`--`, and `&&`, `||` and `?:` that skip the side effects
 * and errors of the branch they do not take.
 *
 * Like bash it evaluates while it parses, one token of look-ahead, and its errors quote the
 * expression and the text from the last token read ("error token is"), which is what a user
 * sees: `1/0: division by 0 (error token is "0")`.
 */
import { ShellSyntaxError } from './parse';

/** What arithmetic reads and writes: the shell's variables. */
export interface ArithVars {
  getVar(name: string): string | undefined;
  setVar(name: string, value: string): void;
}

const MAX_DEPTH = 1024;

type Tok =
  | 0 // end
  | 'NUM'
  | 'STR'
  | 'EQ' // =
  | 'OP=' // *=, +=, ...
  | 'PREINC'
  | 'PREDEC'
  | 'POSTINC'
  | 'POSTDEC'
  | '**'
  | '<<'
  | '>>'
  | '<='
  | '>='
  | '=='
  | '!='
  | '&&'
  | '||'
  | '('
  | ')'
  | ','
  | '?'
  | ':'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '<'
  | '>'
  | '&'
  | '|'
  | '^'
  | '!'
  | '~'
  | 'BAD'; // a character that is no operator

/** Tokens after which an operator is due. */
const OPERAND_ENDS: ReadonlySet<Tok> = new Set<Tok>(['NUM', 'STR', ')', 'POSTINC', 'POSTDEC']);

const wrap = (v: bigint): bigint => BigInt.asIntN(64, v);
const INT_MIN = -(1n << 63n);

const isStarter = (c: string) => /[A-Za-z_]/.test(c);
const isVarChar = (c: string) => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';
const isWhite = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

class ArithError extends Error {}

/** One evaluation of one expression text (bash's per-call expression context). */
class Evaluator {
  private tp = 0;
  private lasttp = 0;
  private curtok: Tok = 0;
  private lasttok: Tok = 0;
  private tokval = 0n;
  private tokstr: string | null = null;
  private assigntok: Tok = 0;
  private noeval = 0;

  constructor(
    private readonly expr: string,
    private readonly vars: ArithVars,
    private readonly depth: number,
  ) {}

  run(): bigint {
    this.readtok();
    if (this.tok() === 0) return 0n;
    const v = this.expcomma();
    if (this.tok() !== 0) this.error('syntax error in expression');
    return v;
  }

  /** The current token (a method, so that TypeScript does not narrow it across readtok). */
  private tok(): Tok {
    return this.curtok;
  }

  /**
   * bash's evalerror. `end`: where the text it quotes ends; bash cuts the expression after a
   * constant while it reads one, so an error in a constant quotes only up to its end.
   */
  private error(msg: string, end = this.expr.length): never {
    const tok = this.expr.slice(this.lasttp, end);
    throw new ArithError(`${this.expr.slice(0, end)}: ${msg} (error token is "${tok}")`);
  }

  /** A variable's value: empty or unset is 0, anything else is evaluated as an expression. */
  private varValue(name: string): bigint {
    if (this.noeval) return 0n;
    const v = this.vars.getVar(name);
    if (v === undefined || v === '') return 0n;
    return evaluate(v, this.vars, this.depth + 1);
  }

  private bind(name: string, v: bigint): void {
    if (this.noeval === 0) this.vars.setVar(name, v.toString());
  }

  private readtok(): void {
    const s = this.expr;
    let cp = this.tp;
    while (cp < s.length && isWhite(s[cp]!)) cp++;
    if (cp >= s.length) {
      this.lasttok = this.curtok;
      this.curtok = 0;
      this.tp = cp;
      return;
    }
    this.lasttp = cp;
    const c = s[cp]!;
    const c1 = s[cp + 1] ?? '';
    let tok: Tok;
    if (isStarter(c)) {
      let e = cp;
      while (e < s.length && isVarChar(s[e]!)) e++;
      const name = s.slice(cp, e);
      this.tokstr = name;
      this.tp = e;
      this.lasttok = this.curtok;
      // The value is read as the token is (as bash does), so a bad value is an error here.
      this.tokval = this.varValue(name);
      this.curtok = 'STR';
      return;
    }
    if (isDigit(c)) {
      let e = cp;
      while (
        e < s.length &&
        (/[A-Za-z0-9]/.test(s[e]!) || s[e] === '#' || s[e] === '@' || s[e] === '_')
      )
        e++;
      this.tokval = this.constant(s.slice(cp, e), e);
      this.tp = e;
      this.lasttok = this.curtok;
      this.curtok = 'NUM';
      return;
    }
    let len = 1;
    const two = c + c1;
    if (two === '**' || two === '<<' || two === '>>') {
      tok = two;
      len = 2;
      if (s[cp + 2] === '=' && two !== '**') {
        this.assigntok = two;
        tok = 'OP=';
        len = 3;
      }
    } else if (two === '<=' || two === '>=' || two === '==' || two === '!=') {
      tok = two;
      len = 2;
    } else if (two === '&&' || two === '||') {
      tok = two;
      len = 2;
    } else if ((c === '+' || c === '-') && c1 === c) {
      if (this.tok() === 'STR') {
        tok = c === '+' ? 'POSTINC' : 'POSTDEC';
        len = 2;
      } else {
        let x = cp + 2;
        while (x < s.length && isWhite(s[x]!)) x++;
        if (x < s.length && isStarter(s[x]!)) {
          tok = c === '+' ? 'PREINC' : 'PREDEC';
          len = 2;
        } else tok = c;
      }
    } else if (c1 === '=' && '*/%+-&^|'.includes(c)) {
      this.assigntok = c as Tok;
      tok = 'OP=';
      len = 2;
    } else if (c === '=') tok = 'EQ';
    else if ('()+-*/%<>&|^!~?:,'.includes(c)) tok = c as Tok;
    // A character that is no operator: after an operand bash says so; where an operand should
    // be, the operand is what it expected.
    else if (OPERAND_ENDS.has(this.curtok)) this.error('syntax error: invalid arithmetic operator');
    else tok = 'BAD';
    this.tp = cp + len;
    this.lasttok = this.curtok;
    this.curtok = tok;
  }

  /** An integer constant: decimal, 0x hex, 0 octal or base#digits (bash's strlong). */
  private constant(text: string, end: number): bigint {
    let i = 0;
    let base = 10n;
    let foundbase = false;
    if (text[0] === '0') {
      i = 1;
      if (text.length === 1) return 0n;
      if (text[1] === 'x' || text[1] === 'X') {
        base = 16n;
        i = 2;
      } else base = 8n;
      foundbase = true;
    }
    let val = 0n;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (c === '#') {
        if (foundbase) this.error('invalid number', end);
        if (val < 2n || val > 64n) this.error('invalid arithmetic base', end);
        base = val;
        val = 0n;
        foundbase = true;
        const n = text[i + 1] ?? '';
        if (!/[A-Za-z0-9@_]/.test(n)) this.error('invalid integer constant', end);
        continue;
      }
      let d: number;
      if (isDigit(c)) d = c.charCodeAt(0) - 48;
      else if (c >= 'a' && c <= 'z') d = c.charCodeAt(0) - 97 + 10;
      else if (c >= 'A' && c <= 'Z') d = c.charCodeAt(0) - 65 + (base <= 36n ? 10 : 36);
      else if (c === '@') d = 62;
      else d = 63; // '_'
      if (BigInt(d) >= base) this.error('value too great for base', end);
      val = wrap(val * base + BigInt(d));
    }
    return val;
  }

  private expcomma(): bigint {
    let v = this.expassign();
    while (this.tok() === ',') {
      this.readtok();
      v = this.expassign();
    }
    return v;
  }

  private expassign(): bigint {
    let value = this.expcond();
    if (this.tok() === 'EQ' || this.tok() === 'OP=') {
      const special = this.tok() === 'OP=';
      if (this.lasttok !== 'STR') this.error('attempted assignment to non-variable');
      const op = this.assigntok;
      const lvalue = value;
      const lhs = this.tokstr;
      if (lhs === null) this.error('syntax error in variable assignment');
      this.readtok();
      value = this.expassign();
      if (special) {
        if ((op === '/' || op === '%') && value === 0n) {
          if (this.noeval === 0) this.error('division by 0');
          value = 1n;
        }
        value = binary(op, lvalue, value);
      }
      this.bind(lhs, value);
      this.tokstr = null;
    }
    return value;
  }

  private expcond(): bigint {
    const cval = this.explor();
    if (this.tok() !== '?') return cval;
    this.readtok();
    if (this.tok() === 0 || this.tok() === ':') this.error('expression expected');
    if (cval === 0n) this.noeval++;
    const val1 = this.expcomma();
    if (cval === 0n) this.noeval--;
    if (this.tok() !== ':') this.error("`:' expected for conditional expression");
    this.readtok();
    if (this.tok() === 0) this.error('expression expected');
    if (cval !== 0n) this.noeval++;
    const val2 = this.expcond();
    if (cval !== 0n) this.noeval--;
    this.lasttok = 'NUM';
    return cval !== 0n ? val1 : val2;
  }

  private explor(): bigint {
    let v = this.expland();
    while (this.tok() === '||') {
      const set = v !== 0n;
      if (set) this.noeval++;
      this.readtok();
      const v2 = this.expland();
      if (set) this.noeval--;
      v = v !== 0n || v2 !== 0n ? 1n : 0n;
      this.lasttok = 'NUM';
    }
    return v;
  }

  private expland(): bigint {
    let v = this.level(0);
    while (this.tok() === '&&') {
      const zero = v === 0n;
      if (zero) this.noeval++;
      this.readtok();
      const v2 = this.level(0);
      if (zero) this.noeval--;
      v = v !== 0n && v2 !== 0n ? 1n : 0n;
      this.lasttok = 'NUM';
    }
    return v;
  }

  /** The left-associative binary levels from | down to * / %. */
  private level(i: number): bigint {
    const ops = LEVELS[i];
    if (!ops) return this.exppower();
    let v = this.level(i + 1);
    while (ops.includes(this.tok() as string)) {
      const op = this.tok();
      const stp = this.tp;
      this.readtok();
      const v2 = this.level(i + 1);
      if ((op === '/' || op === '%') && v2 === 0n) {
        if (this.noeval === 0) {
          let p = stp;
          while (p < this.expr.length && isWhite(this.expr[p]!)) p++;
          this.lasttp = p;
          this.error('division by 0');
        }
        v = op === '/' ? v : 0n;
        this.lasttok = 'NUM';
        continue;
      }
      v = binary(op, v, v2);
      this.lasttok = 'NUM';
    }
    return v;
  }

  private exppower(): bigint {
    const v = this.exp1();
    if (this.tok() !== '**') return v;
    this.readtok();
    const e = this.exppower();
    this.lasttok = 'NUM';
    if (e === 0n) return 1n;
    if (e < 0n) this.error('exponent less than 0');
    return power(v, e);
  }

  private exp1(): bigint {
    const t = this.tok();
    if (t === '!' || t === '~' || t === '-' || t === '+') {
      this.readtok();
      const v = this.exp1();
      this.lasttok = 'NUM';
      if (t === '!') return v === 0n ? 1n : 0n;
      if (t === '~') return wrap(~v);
      if (t === '-') return wrap(-v);
      return v;
    }
    return this.exp0();
  }

  private exp0(): bigint {
    if (this.tok() === 'PREINC' || this.tok() === 'PREDEC') {
      const stok = this.tok();
      this.lasttok = stok;
      this.readtok();
      if (this.tok() !== 'STR')
        this.error('identifier expected after pre-increment or pre-decrement');
      const v = wrap(this.tokval + (stok === 'PREINC' ? 1n : -1n));
      this.bind(this.tokstr!, v);
      this.curtok = 'NUM';
      this.readtok();
      return v;
    }
    if (this.tok() === '(') {
      this.readtok();
      const v = this.expcomma();
      if (this.tok() !== ')') this.error("missing `)'");
      this.readtok();
      return v;
    }
    if (this.tok() === 'NUM' || this.tok() === 'STR') {
      const val = this.tokval;
      if (this.tok() === 'STR') {
        const name = this.tokstr!;
        // One token of look-ahead for a postfix ++ / --, without reading a next variable.
        const saved = { tp: this.tp, lasttp: this.lasttp, tokval: this.tokval };
        this.noeval++;
        this.readtok();
        this.noeval--;
        const stok = this.tok();
        if (stok === 'POSTINC' || stok === 'POSTDEC') {
          this.tokstr = name;
          this.lasttok = 'STR';
          this.bind(name, wrap(val + (stok === 'POSTINC' ? 1n : -1n)));
          this.curtok = 'NUM';
        } else {
          Object.assign(this, saved);
          this.tokstr = name;
          this.curtok = 'STR';
        }
      }
      this.readtok();
      return val;
    }
    this.error('syntax error: operand expected');
  }
}

const LEVELS: readonly (readonly string[])[] = [
  ['|'],
  ['^'],
  ['&'],
  ['==', '!='],
  ['<=', '>=', '<', '>'],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];

function power(b: bigint, e: bigint): bigint {
  let r = 1n;
  let base = b;
  let n = e;
  while (n > 0n) {
    if (n & 1n) r = wrap(r * base);
    base = wrap(base * base);
    n >>= 1n;
  }
  return r;
}

function binary(op: Tok, a: bigint, b: bigint): bigint {
  switch (op) {
    case '|':
      return a | b;
    case '^':
      return a ^ b;
    case '&':
      return a & b;
    case '==':
      return a === b ? 1n : 0n;
    case '!=':
      return a !== b ? 1n : 0n;
    case '<=':
      return a <= b ? 1n : 0n;
    case '>=':
      return a >= b ? 1n : 0n;
    case '<':
      return a < b ? 1n : 0n;
    case '>':
      return a > b ? 1n : 0n;
    // x86-64 masks a 64-bit shift's count to its low six bits.
    case '<<':
      return wrap(a << (b & 63n));
    case '>>':
      return a >> (b & 63n);
    case '+':
      return wrap(a + b);
    case '-':
      return wrap(a - b);
    case '*':
      return wrap(a * b);
    // bash answers INTMAX_MIN / -1 and INTMAX_MIN % -1 instead of trapping.
    case '/':
      return a === INT_MIN && b === -1n ? INT_MIN : a / b;
    case '%':
      return a === INT_MIN && b === -1n ? 0n : a % b;
    default:
      throw new Error(`arith: no binary operator ${String(op)}`);
  }
}

function evaluate(text: string, vars: ArithVars, depth: number): bigint {
  if (depth >= MAX_DEPTH)
    throw new ArithError(`${text}: expression recursion level exceeded (error token is "${text}")`);
  return new Evaluator(text.replace(/^[ \t\n\r]+/, ''), vars, depth).run();
}

/**
 * Evaluates an arithmetic expression (already expanded, as bash expands the text of `$((...))`
 * first). Throws ShellSyntaxError (status 1) with bash's message: an expansion error.
 */
export function arith(text: string, vars: ArithVars): string {
  try {
    return evaluate(text, vars, 0).toString();
  } catch (e) {
    if (e instanceof ArithError) throw new ShellSyntaxError(e.message, 1);
    throw e;
  }
}

/** An expression's value, or bash's message for it (for `for (( ... ))`). */
export function arithValue(
  text: string,
  vars: ArithVars,
): { ok: true; value: bigint } | { ok: false; message: string } {
  try {
    return { ok: true, value: evaluate(text, vars, 0) };
  } catch (e) {
    if (!(e instanceof ArithError)) throw e;
    return { ok: false, message: e.message };
  }
}

/**
 * `let EXPR...` and `(( EXPR ))` (`name` is then `((`): each expression in turn; status 0 when
 * the last is not 0. An error is the command's (`let: 1/0: division by 0 ...`, status 1), not
 * an expansion error: the line goes on.
 */
export function letCommand(
  name: string,
  args: readonly string[],
  vars: ArithVars,
  err: (line: string) => void,
): number {
  if (args.length === 0) {
    err(`${name}: expression expected`);
    return 1;
  }
  let last = 0n;
  for (const a of args) {
    try {
      last = evaluate(a, vars, 0);
    } catch (e) {
      if (!(e instanceof ArithError)) throw e;
      err(`${name}: ${e.message}`);
      return 1;
    }
  }
  return last === 0n ? 1 : 0;
}
