/**
 * A POSIX-ish shell parser with bash's error messages. It turns one input (a line, or a script of
 * several lines) into a syntax tree, one complete command (up to an unnested newline) at a time,
 * the way bash reads and runs a script: a syntax error on a later line does not stop the earlier
 * ones.
 *
 * Supported syntax:
 *   words with '...', "..." (with $ expansions, \$ \` \" \\ escapes), $'...' (ANSI-C escapes),
 *   backslash escapes, ~ and ~/... (tilde), $NAME ${NAME} $? $$ $# $! $0..$9 $@ $* ${#NAME}
 *   ${NAME:-w} ${NAME-w} ${NAME:=w} ${NAME=w} ${NAME:+w} ${NAME+w} ${NAME:?w} ${NAME?w},
 *   command substitution $(...) and `...`, comments (#), lists with ; & and newlines, && ||,
 *   pipelines | and |& with !, redirections [n]> [n]>> [n]< [n]>& [n]<& &> &>> >| <<< <>,
 *   here-documents <<WORD and <<-WORD (bodies read after the line's newline; a quoted WORD leaves
 *   the body unexpanded),
 *   assignments before a command (X=1 cmd), compound commands { ...; } ( ... ),
 *   for NAME [in WORDS]; do ...; done, if/elif/else/fi, while/until ... do ...; done.
 * Not supported (a clear error, exit status 2): select,
 *   functions, arrays, coprocesses.
 */

export type WordPart =
  /** Literal text; `q` when it came from quotes or escapes (no field splitting, no globbing). */
  | { t: 'lit'; v: string; q: boolean }
  | {
      t: 'param';
      name: string;
      q: boolean;
      op?: ParamOp;
      arg?: Word;
      length?: boolean;
      raw: string;
      bad?: boolean;
      /** With `bad`: the error expanding it gives, when not "bad substitution". */
      error?: string;
    }
  | { t: 'cmdsub'; list: CommandList; q: boolean; raw: string }
  /** $(( expr )): the expression's text, expanded as in double quotes, then evaluated. */
  | { t: 'arith'; expr: Word; q: boolean; raw: string }
  | { t: 'tilde'; user: string };

export type ParamOp = ':-' | '-' | ':=' | '=' | ':+' | '+' | ':?' | '?';

export interface Word {
  parts: WordPart[];
  /** Source text of the word. */
  raw: string;
}

export type RedirOp =
  '>' | '>>' | '<' | '>&' | '<&' | '&>' | '&>>' | '>|' | '<<<' | '<>' | '<<' | '<<-';

export interface Redirect {
  /** The file descriptor redirected (default 1 for output, 0 for input; -1 for &> / &>>). */
  fd: number;
  op: RedirOp;
  /**
   * What the redirection names; for a here-document (`<<`, `<<-`), its body as one word: quoted
   * throughout (it is expanded as in double quotes, never split or globbed), or a single quoted
   * literal when the delimiter was quoted.
   */
  target: Word;
  raw: string;
}

/** A here-document whose body is still to be read (after the newline ending its line). */
interface PendingHeredoc {
  redirect: Redirect;
  /** The delimiter after quote removal. */
  delim: string;
  /** The delimiter had quotes or backslashes: the body is not expanded. */
  quoted: boolean;
  /** `<<-`: leading tabs are stripped from the body's lines and the delimiter's. */
  strip: boolean;
  /** Line of the redirection (bash's warning names it). */
  line: number;
}

/** A warning bash prints while reading its input (a here-document ended by the end of it). */
export interface ParseWarning {
  /** The line bash was reading (its "line N:" prefix in a script). */
  line: number;
  message: string;
}

export interface Assignment {
  name: string;
  value: Word;
  raw: string;
}

export interface SimpleCommand {
  kind: 'simple';
  assigns: Assignment[];
  words: Word[];
  redirects: Redirect[];
  /** Source text of the command (assignments, words and redirections). */
  text: string;
  /** Line of the source it starts on (1-based). */
  line: number;
}

export interface ForCommand {
  kind: 'for';
  name: string;
  /** null: `for NAME; do` (the positional parameters, none in this shell). */
  items: Word[] | null;
  body: CommandList;
  redirects: Redirect[];
  text: string;
}

/** `for (( init; cond; step ))`: each part's text, expanded as in double quotes. */
export interface ArithForCommand {
  kind: 'arithfor';
  init: Word;
  cond: Word;
  step: Word;
  body: CommandList;
  redirects: Redirect[];
  text: string;
}

export interface IfCommand {
  kind: 'if';
  clauses: Array<{ cond: CommandList; body: CommandList }>;
  elseBody: CommandList | null;
  redirects: Redirect[];
  text: string;
}

export interface LoopCommand {
  kind: 'while' | 'until';
  cond: CommandList;
  body: CommandList;
  redirects: Redirect[];
  text: string;
}

/** `case WORD in PATTERN [| PATTERN]...) LIST ;; ... esac` */
export interface CaseCommand {
  kind: 'case';
  word: Word;
  items: Array<{
    patterns: Word[];
    body: CommandList;
    /** `;;` stops; `;&` runs the next item's list too; `;;&` goes on testing the patterns. */
    term: ';;' | ';&' | ';;&';
  }>;
  redirects: Redirect[];
  text: string;
}

/** An expression of `[[ … ]]`: its words are expanded when it is evaluated. */
export type CondExpr =
  | { t: 'and' | 'or'; a: CondExpr; b: CondExpr }
  | { t: 'not'; e: CondExpr }
  | { t: 'unary'; op: string; w: Word }
  | { t: 'binary'; op: string; a: Word; b: Word }
  | { t: 'word'; w: Word };

/** `[[ EXPR ]]` */
export interface CondCommand {
  kind: 'cond';
  expr: CondExpr;
  redirects: Redirect[];
  text: string;
}

export interface GroupCommand {
  kind: 'group' | 'subshell';
  body: CommandList;
  redirects: Redirect[];
  text: string;
}

export type Command =
  | SimpleCommand
  | ForCommand
  | ArithForCommand
  | IfCommand
  | LoopCommand
  | CaseCommand
  | CondCommand
  | GroupCommand;

export interface Pipeline {
  negate: boolean;
  commands: Command[];
  /** `|&` after command i: its stderr goes into the pipe too. */
  stderrToPipe: boolean[];
}

export interface AndOr {
  first: Pipeline;
  rest: Array<{ op: '&&' | '||'; pipeline: Pipeline }>;
  /** Followed by `&` (a background job: shell.ts execBackground). */
  background: boolean;
}

export type CommandList = AndOr[];

/** A syntax error: `message` is what bash prints after "bash: ". Exit status 2. */
export class ShellSyntaxError extends Error {
  readonly exitCode: number;
  /** Source offset of the offending token (-1: not known). */
  pos = -1;
  /** "unexpected end of file" (bash then does not echo the line). */
  eof = false;
  /** A second line bash prints after the message (`syntax error: \`((i=0; i<3))'`). */
  detail: string | undefined;
  /** The status a script exits with after this error, when not `exitCode` (`${x?}`: 127). */
  scriptExit: number | undefined;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

type Tok =
  | { k: 'word'; word: Word; start: number; end: number }
  | { k: 'op'; op: string; start: number; end: number }
  | { k: 'redir'; fd: number | null; op: RedirOp; start: number; end: number }
  | { k: 'eof'; start: number; end: number };

const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'select',
  'function',
  'time',
  'coproc',
  '{',
  '}',
  '!',
  '[[',
  'in',
]);

/** The operators of `[[ … ]]` (bash's test.c). */
const COND_UNARY = new Set(
  '-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S -n -z -v -o -R'.split(' '),
);
const COND_BINARY = new Set('= == != =~ < > -eq -ne -lt -le -gt -ge -nt -ot -ef'.split(' '));

/** What ends one item of a `case`. */
const CASE_TERMS = new Set([';;', ';&', ';;&']);
const ESAC = new Set(['esac']);

const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

export function isName(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s);
}

/** The plain text of a word if it has no quoting or expansion (for reserved-word checks). */
function plainText(w: Word): string | null {
  if (w.parts.length !== 1) return null;
  const p = w.parts[0]!;
  return p.t === 'lit' && !p.q ? p.v : null;
}

const ANSI_C: Record<string, string> = {
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
  "'": "'",
  '"': '"',
  '?': '?',
};

class Parser {
  private tok: Tok | null = null;
  /** The source ends with an implicit newline (a line typed at a prompt). */
  private sentNewline = false;
  /** Here-documents of the current line, whose bodies follow its newline. */
  private heredocs: PendingHeredoc[] = [];
  /** Warnings so far (a here-document delimited by the end of the input). */
  readonly warnings: ParseWarning[] = [];
  /**
   * The input ended where more was wanted without it being an error: a here-document without its
   * delimiter, or a backslash at the very end (a line continuation). At a prompt, bash then asks
   * for another line (PS2); a script goes on as if the input had ended there.
   */
  wantsMore = false;

  constructor(
    readonly src: string,
    public pos: number,
    /** Nesting: inside $( ... ) a `)` ends the list. */
    readonly inSubst: boolean,
  ) {}

  /** Line number (1-based) of a source offset. */
  lineAt(offset: number): number {
    let n = 1;
    for (let i = 0; i < offset && i < this.src.length; i++) if (this.src[i] === '\n') n++;
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Tokens

  private peek(): Tok {
    if (!this.tok) this.tok = this.lex();
    return this.tok;
  }

  private next(): Tok {
    const t = this.peek();
    this.tok = null;
    this.pos = t.end;
    return t;
  }

  private skipBlanks(): void {
    const s = this.src;
    for (;;) {
      const c = s[this.pos];
      if (c === ' ' || c === '\t') this.pos++;
      else if (c === '\\' && s[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#') {
        while (this.pos < s.length && s[this.pos] !== '\n') this.pos++;
      } else break;
    }
  }

  private lex(): Tok {
    this.skipBlanks();
    const s = this.src;
    const start = this.pos;
    if (start >= s.length) {
      this.readHeredocBodies(start);
      if (!this.sentNewline && !this.inSubst) {
        this.sentNewline = true;
        return { k: 'op', op: 'newline', start, end: start };
      }
      return { k: 'eof', start, end: start };
    }
    const c = s[start]!;
    const two = s.slice(start, start + 2);
    const three = s.slice(start, start + 3);
    if (c === '\n')
      return { k: 'op', op: 'newline', start, end: this.readHeredocBodies(start + 1) };
    // Redirections, optionally with a file descriptor number.
    const m = /^([0-9]+)?(&>>|&>|<<<|<<-|<<|<>|<&|>>|>&|>\||<|>)/.exec(s.slice(start, start + 24));
    if (m && !(m[1] && m[2]!.startsWith('&'))) {
      const op = m[2]!;
      return {
        k: 'redir',
        fd: m[1] ? Number(m[1]) : null,
        op: op as RedirOp,
        start,
        end: start + m[0].length,
      };
    }
    if (three === ';;&') return { k: 'op', op: ';;&', start, end: start + 3 };
    for (const op of ['&&', '||', ';;', ';&', '|&']) {
      if (two === op) return { k: 'op', op, start, end: start + 2 };
    }
    if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')')
      return { k: 'op', op: c, start, end: start + 1 };
    const word = this.readWord();
    return { k: 'word', word, start, end: this.pos };
  }

  // ---------------------------------------------------------------------------------------------
  // Words

  /** The operand of ${X:-word}: one word, blanks and operators included. */
  readOperand(): Word {
    const parts: WordPart[] = [];
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (META.has(c)) {
        const last = parts[parts.length - 1];
        if (last && last.t === 'lit' && !last.q) last.v += c;
        else parts.push({ t: 'lit', v: c, q: false });
        this.pos++;
        continue;
      }
      parts.push(...this.readWord().parts);
    }
    return { parts, raw: this.src };
  }

  private readWord(): Word {
    const s = this.src;
    const start = this.pos;
    const parts: WordPart[] = [];
    const lit = (v: string, q: boolean) => {
      const last = parts[parts.length - 1];
      if (last && last.t === 'lit' && last.q === q) last.v += v;
      else parts.push({ t: 'lit', v, q });
    };
    // Tilde prefix.
    if (s[this.pos] === '~') {
      let j = this.pos + 1;
      while (j < s.length && /[A-Za-z0-9_.-]/.test(s[j]!)) j++;
      if (j >= s.length || s[j] === '/' || META.has(s[j]!)) {
        parts.push({ t: 'tilde', user: s.slice(this.pos + 1, j) });
        this.pos = j;
      }
    }
    while (this.pos < s.length) {
      const c = s[this.pos]!;
      if (META.has(c)) break;
      if (c === "'") {
        const end = s.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError("unexpected EOF while looking for matching `''");
        lit(s.slice(this.pos + 1, end), true);
        this.pos = end + 1;
      } else if (c === '"') {
        this.pos++;
        this.readDoubleQuoted(parts, lit);
      } else if (c === '\\') {
        if (this.pos + 1 >= s.length) {
          // At a prompt, a line ending in a backslash continues on the next.
          if (!this.inSubst) this.wantsMore = true;
          lit('\\', false);
          this.pos++;
        } else if (s[this.pos + 1] === '\n') {
          this.pos += 2;
        } else {
          lit(s[this.pos + 1]!, true);
          this.pos += 2;
        }
      } else if (c === '$') {
        if (s[this.pos + 1] === "'") {
          this.pos += 2;
          lit(this.readAnsiC(), true);
        } else if (s[this.pos + 1] === '"') {
          this.pos++;
        } else {
          const p = this.readDollar(false);
          if (p) parts.push(p);
          else lit('$', false);
        }
      } else if (c === '`') {
        parts.push(this.readBackquote(false));
      } else {
        lit(c, false);
        this.pos++;
      }
    }
    return { parts, raw: s.slice(start, this.pos) };
  }

  /**
   * The inside of "…" after its opening quote, up to the closing one; or, for a here-document's
   * body (`heredoc`), the whole source, in which `"` is ordinary and `\"` keeps its backslash.
   */
  private readDoubleQuoted(
    parts: WordPart[],
    lit: (v: string, q: boolean) => void,
    heredoc = false,
  ): void {
    const s = this.src;
    // An empty "" still makes a (quoted, empty) literal.
    lit('', true);
    for (;;) {
      if (this.pos >= s.length) {
        if (heredoc) return;
        throw new ShellSyntaxError('unexpected EOF while looking for matching `"\'');
      }
      const c = s[this.pos]!;
      if (c === '"' && !heredoc) {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const n = s[this.pos + 1];
        if (n === '$' || n === '`' || (n === '"' && !heredoc) || n === '\\') {
          lit(n, true);
          this.pos += 2;
        } else if (n === '\n') {
          this.pos += 2;
        } else {
          lit('\\', true);
          this.pos++;
        }
      } else if (c === '$') {
        const p = this.readDollar(true);
        if (p) parts.push(p);
        else lit('$', true);
      } else if (c === '`') {
        parts.push(this.readBackquote(true));
      } else {
        lit(c, true);
        this.pos++;
      }
    }
  }

  private readAnsiC(): string {
    const s = this.src;
    let out = '';
    for (;;) {
      if (this.pos >= s.length)
        throw new ShellSyntaxError("unexpected EOF while looking for matching `''");
      const c = s[this.pos]!;
      if (c === "'") {
        this.pos++;
        return out;
      }
      if (c !== '\\') {
        out += c;
        this.pos++;
        continue;
      }
      const n = s[this.pos + 1] ?? '';
      if (ANSI_C[n] !== undefined) {
        out += ANSI_C[n];
        this.pos += 2;
      } else if (/[0-7]/.test(n)) {
        const m = /^[0-7]{1,3}/.exec(s.slice(this.pos + 1))![0];
        out += String.fromCharCode(parseInt(m, 8) & 0xff);
        this.pos += 1 + m.length;
      } else if (n === 'x') {
        const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(this.pos + 2));
        if (m) {
          out += String.fromCharCode(parseInt(m[0], 16));
          this.pos += 2 + m[0].length;
        } else {
          out += '\\x';
          this.pos += 2;
        }
      } else if (n === 'u' || n === 'U') {
        const m = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(s.slice(this.pos + 2));
        if (m) {
          out += String.fromCodePoint(Math.min(parseInt(m[0], 16), 0x10ffff));
          this.pos += 2 + m[0].length;
        } else {
          out += '\\' + n;
          this.pos += 2;
        }
      } else if (n === 'c' && this.pos + 2 < s.length) {
        out += String.fromCharCode(s.charCodeAt(this.pos + 2) & 0x1f);
        this.pos += 3;
      } else {
        out += '\\' + n;
        this.pos += 2;
      }
    }
  }

  /** After a `$`: an expansion, or null when the `$` is literal. */
  private readDollar(q: boolean): WordPart | null {
    const s = this.src;
    const start = this.pos;
    const n = s[this.pos + 1];
    if (n === '(') {
      if (s[this.pos + 2] === '(') {
        const end = this.arithEnd(this.pos + 3);
        if (end >= 0) {
          const expr = new Parser(s.slice(this.pos + 3, end), 0, true).readArith();
          this.pos = end + 2;
          return { t: 'arith', expr, q, raw: s.slice(start, this.pos) };
        }
        // `$((a); (b))`: a command substitution that starts with a subshell.
      }
      const sub = new Parser(s, this.pos + 2, true);
      const list = sub.parseList(new Set(), true);
      const t = sub.peek();
      if (t.k !== 'op' || t.op !== ')') {
        if (t.k === 'eof')
          throw new ShellSyntaxError("unexpected EOF while looking for matching `)'");
        throw new ShellSyntaxError(`syntax error near unexpected token \`${tokText(t)}'`);
      }
      sub.next();
      this.pos = sub.pos;
      return { t: 'cmdsub', list, q, raw: s.slice(start, this.pos) };
    }
    if (n === '{') {
      // Find the matching brace, allowing nested quotes/braces in the operand word.
      const close = this.matchBrace(this.pos + 2);
      const inner = s.slice(this.pos + 2, close);
      this.pos = close + 1;
      return parseBraced(inner, q, s.slice(start, this.pos));
    }
    if (n !== undefined && /[A-Za-z_]/.test(n)) {
      let j = this.pos + 1;
      while (j < s.length && /[A-Za-z0-9_]/.test(s[j]!)) j++;
      const name = s.slice(this.pos + 1, j);
      this.pos = j;
      return { t: 'param', name, q, raw: s.slice(start, j) };
    }
    if (n !== undefined && /[0-9?$#!@*-]/.test(n)) {
      this.pos += 2;
      return { t: 'param', name: n, q, raw: s.slice(start, this.pos) };
    }
    this.pos++;
    return null;
  }

  /**
   * Where the `))` of an arithmetic expansion starts, its parentheses balanced (quotes skipped);
   * -1 when a `)` closes first (then it is a command substitution, as bash decides).
   */
  private arithEnd(from: number): number {
    const s = this.src;
    let depth = 0;
    for (let i = from; i < s.length; i++) {
      const c = s[i]!;
      if (c === '\\') i++;
      else if (c === "'" || c === '"') {
        const e = s.indexOf(c, i + 1);
        if (e < 0) break;
        i = e;
      } else if (c === '(') depth++;
      else if (c === ')') {
        if (depth > 0) depth--;
        else return s[i + 1] === ')' ? i : -1;
      }
    }
    throw new ShellSyntaxError("unexpected EOF while looking for matching `)'");
  }

  /** The text of `$((...))`: expanded as in double quotes (quotes removed), then evaluated. */
  readArith(): Word {
    const s = this.src;
    const parts: WordPart[] = [];
    const lit = (v: string) => {
      const last = parts[parts.length - 1];
      if (last && last.t === 'lit') last.v += v;
      else parts.push({ t: 'lit', v, q: true });
    };
    while (this.pos < s.length) {
      const c = s[this.pos]!;
      if (c === '$') {
        const p = this.readDollar(true);
        if (p) parts.push(p);
        else lit('$');
      } else if (c === '`') parts.push(this.readBackquote(true));
      else if (c === '"') this.pos++;
      else if (c === '\\' && this.pos + 1 < s.length) {
        lit(s[this.pos + 1]!);
        this.pos += 2;
      } else {
        lit(c);
        this.pos++;
      }
    }
    return { parts, raw: s };
  }

  private matchBrace(from: number): number {
    const s = this.src;
    let depth = 1;
    let i = from;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') i += 2;
      else if (c === "'") {
        const e = s.indexOf("'", i + 1);
        if (e < 0) break;
        i = e + 1;
      } else if (c === '{') {
        depth++;
        i++;
      } else if (c === '}') {
        depth--;
        if (depth === 0) return i;
        i++;
      } else i++;
    }
    throw new ShellSyntaxError("unexpected EOF while looking for matching `}'");
  }

  private readBackquote(q: boolean): WordPart {
    const s = this.src;
    const start = this.pos;
    let i = this.pos + 1;
    let inner = '';
    for (;;) {
      if (i >= s.length)
        throw new ShellSyntaxError("unexpected EOF while looking for matching ``'");
      const c = s[i]!;
      if (c === '`') break;
      if (c === '\\' && (s[i + 1] === '`' || s[i + 1] === '\\' || s[i + 1] === '$')) {
        inner += s[i + 1];
        i += 2;
      } else {
        inner += c;
        i++;
      }
    }
    this.pos = i + 1;
    const list = parseScript(inner);
    return { t: 'cmdsub', list, q, raw: s.slice(start, this.pos) };
  }

  // ---------------------------------------------------------------------------------------------
  // Grammar

  private fail(t: Tok): never {
    if (t.k === 'eof') {
      const e = new ShellSyntaxError('syntax error: unexpected end of file');
      e.eof = true;
      throw e;
    }
    const e = new ShellSyntaxError(`syntax error near unexpected token \`${tokText(t)}'`);
    e.pos = t.start;
    throw e;
  }

  private skipNewlines(): void {
    for (;;) {
      const t = this.peek();
      if (t.k === 'op' && t.op === 'newline') this.next();
      else return;
    }
  }

  private isReserved(t: Tok, words?: Set<string>): string | null {
    if (t.k !== 'word') return null;
    const p = plainText(t.word);
    if (p === null || !RESERVED.has(p)) return null;
    if (words && !words.has(p)) return null;
    return p;
  }

  /**
   * A list of and-or lists separated by `;`, `&` or newlines, ending before one of `stops`
   * (reserved words), a `)` (inside a subshell or substitution) or the end of input.
   */
  parseList(stops: Set<string>, closeParen: boolean): CommandList {
    const out: CommandList = [];
    this.skipNewlines();
    for (;;) {
      const t = this.peek();
      if (t.k === 'eof') break;
      if (closeParen && t.k === 'op' && t.op === ')') break;
      if (t.k === 'op' && CASE_TERMS.has(t.op)) break;
      if (this.isReserved(t, stops)) break;
      const ao = this.parseAndOr();
      out.push(ao);
      const sep = this.peek();
      if (sep.k === 'op' && (sep.op === ';' || sep.op === '&' || sep.op === 'newline')) {
        this.next();
        if (sep.op === '&') ao.background = true;
        this.skipNewlines();
        continue;
      }
      break;
    }
    return out;
  }

  /** One complete command at the top level: a list up to an unnested newline. */
  parseCompleteCommand(): CommandList | null {
    this.skipNewlines();
    if (this.peek().k === 'eof') return null;
    const out: CommandList = [];
    for (;;) {
      const ao = this.parseAndOr();
      out.push(ao);
      const sep = this.peek();
      if (sep.k === 'op' && sep.op === 'newline') {
        this.next();
        return out;
      }
      if (sep.k === 'op' && (sep.op === ';' || sep.op === '&')) {
        this.next();
        if (sep.op === '&') ao.background = true;
        const after = this.peek();
        if (after.k === 'eof') return out;
        if (after.k === 'op' && after.op === 'newline') {
          this.next();
          return out;
        }
        continue;
      }
      if (sep.k === 'eof') return out;
      this.fail(sep);
    }
  }

  private parseAndOr(): AndOr {
    const first = this.parsePipeline();
    const rest: AndOr['rest'] = [];
    for (;;) {
      const t = this.peek();
      if (t.k === 'op' && (t.op === '&&' || t.op === '||')) {
        this.next();
        this.skipNewlines();
        rest.push({ op: t.op as '&&' | '||', pipeline: this.parsePipeline() });
      } else break;
    }
    return { first, rest, background: false };
  }

  private parsePipeline(): Pipeline {
    let negate = false;
    while (this.isReserved(this.peek(), new Set(['!']))) {
      this.next();
      negate = !negate;
    }
    const commands = [this.parseCommand()];
    const stderrToPipe: boolean[] = [];
    for (;;) {
      const t = this.peek();
      if (t.k === 'op' && (t.op === '|' || t.op === '|&')) {
        this.next();
        stderrToPipe.push(t.op === '|&');
        this.skipNewlines();
        commands.push(this.parseCommand());
      } else break;
    }
    stderrToPipe.push(false);
    return { negate, commands, stderrToPipe };
  }

  private parseCommand(): Command {
    const t = this.peek();
    if (t.k === 'eof') this.fail(t);
    if (t.k === 'op') {
      if (t.op === '(') {
        if (this.src[t.end] === '(') {
          const end = this.arithEnd(t.end + 1);
          if (end >= 0) return this.parseArithCommand(t.start, t.end + 1, end);
          // `((a); (b))`: a subshell in a subshell, as bash reads it.
        }
        this.next();
        const body = this.parseList(new Set(), true);
        const close = this.peek();
        if (close.k !== 'op' || close.op !== ')') this.fail(close);
        if (body.length === 0) this.fail(close);
        this.next();
        return this.withRedirects({ kind: 'subshell', body, redirects: [], text: '' }, t.start);
      }
      this.fail(t);
    }
    const rw = this.isReserved(t);
    if (rw) {
      switch (rw) {
        case '{': {
          this.next();
          const body = this.parseList(new Set(['}']), false);
          const close = this.peek();
          if (!this.isReserved(close, new Set(['}']))) this.fail(close);
          if (body.length === 0) this.fail(close);
          this.next();
          return this.withRedirects({ kind: 'group', body, redirects: [], text: '' }, t.start);
        }
        case 'for':
          return this.parseFor();
        case 'if':
          return this.parseIf();
        case 'while':
        case 'until':
          return this.parseLoop(rw);
        case 'case':
          return this.parseCase();
        case 'select':
        case 'function':
        case 'coproc':
        case '[[':
          return this.parseCond();
        case 'time':
          throw new ShellSyntaxError(`cnisim: \`${rw}' is not supported`);
        default:
          this.fail(t);
      }
    }
    return this.parseSimple();
  }

  /** `for (( init; cond; step ))` from the text after its `((`. */
  private parseArithFor(start: number, from: number): ArithForCommand {
    const end = this.arithEnd(from);
    if (end < 0) this.fail(this.peek());
    const inner = this.src.slice(from, end);
    const parts: string[] = [];
    let depth = 0;
    let last = 0;
    for (let i = 0; i < inner.length; i++) {
      const c = inner[i]!;
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === ';' && depth === 0) {
        parts.push(inner.slice(last, i));
        last = i + 1;
      }
    }
    parts.push(inner.slice(last));
    if (parts.length !== 3) {
      const e = new ShellSyntaxError('syntax error: arithmetic expression required');
      e.detail = `syntax error: \`((${inner}))'`;
      throw e;
    }
    const [init, cond, step] = parts.map((p) => new Parser(p, 0, true).readArith()) as [
      Word,
      Word,
      Word,
    ];
    this.tok = null;
    this.pos = end + 2;
    const sep = this.peek();
    if (sep.k === 'op' && sep.op === ';') this.next();
    const body = this.loopBody();
    return this.withRedirects(
      { kind: 'arithfor', init, cond, step, body, redirects: [], text: '' },
      start,
    );
  }

  /**
   * `(( expr ))`: the `((` builtin with the expression as one word (expanded as in double
   * quotes), which is `let "expr"` but for the name in its errors.
   */
  private parseArithCommand(start: number, from: number, end: number): SimpleCommand {
    const expr = new Parser(this.src.slice(from, end), 0, true).readArith();
    this.tok = null;
    this.pos = end + 2;
    const cmd: SimpleCommand = {
      kind: 'simple',
      assigns: [],
      words: [{ parts: [{ t: 'lit', v: '((', q: true }], raw: '((' }, expr],
      redirects: [],
      text: '',
      line: this.lineAt(start),
    };
    return this.withRedirects(cmd, start);
  }

  private withRedirects<T extends Command>(cmd: T, start: number): T {
    for (;;) {
      const t = this.peek();
      if (t.k !== 'redir') break;
      cmd.redirects.push(this.parseRedirect());
    }
    cmd.text = this.src.slice(start, this.pos).trim();
    return cmd;
  }

  private parseRedirect(): Redirect {
    const t = this.next() as Extract<Tok, { k: 'redir' }>;
    const target = this.peek();
    if (target.k !== 'word') this.fail(target);
    this.next();
    const dflt =
      t.op === '<' || t.op === '<&' || t.op === '<<<' || t.op === '<>' || t.op.startsWith('<<')
        ? 0
        : t.op === '&>' || t.op === '&>>'
          ? -1
          : 1;
    const r: Redirect = {
      fd: t.fd ?? dflt,
      op: t.op,
      target: target.word,
      raw: this.src.slice(t.start, target.end),
    };
    if (t.op === '<<' || t.op === '<<-') {
      const d = heredocDelimiter(target.word.raw);
      this.heredocs.push({ redirect: r, ...d, strip: t.op === '<<-', line: this.lineAt(t.start) });
    }
    return r;
  }

  /**
   * Reads the bodies of the line's here-documents, in order, from `from` (just after the line's
   * newline, or the end of the input); returns where the input goes on. A body is the lines up
   * to one that is exactly the delimiter (for `<<-`, after leading tabs); at the end of the input
   * bash takes what there is, with a warning.
   */
  private readHeredocBodies(from: number): number {
    if (this.heredocs.length === 0) return from;
    const s = this.src;
    let p = from;
    for (const h of this.heredocs.splice(0)) {
      let body = '';
      let closed = false;
      while (p < s.length) {
        const nl = s.indexOf('\n', p);
        const end = nl < 0 ? s.length : nl;
        let line = s.slice(p, end);
        p = nl < 0 ? s.length : nl + 1;
        if (h.strip) line = line.replace(/^\t+/, '');
        if (line === h.delim) {
          closed = true;
          break;
        }
        body += line + '\n';
      }
      if (!closed) {
        this.wantsMore = true;
        const lines = s.split('\n').length - (s.endsWith('\n') ? 1 : 0);
        this.warnings.push({
          line: Math.max(1, lines),
          message: `warning: here-document at line ${h.line} delimited by end-of-file (wanted \`${h.delim}')`,
        });
      }
      h.redirect.target = h.quoted
        ? { parts: [{ t: 'lit', v: body, q: true }], raw: body }
        : heredocWord(body);
    }
    return p;
  }

  /** A here-document's body, expanded as bash does: as in double quotes, but `"` is ordinary. */
  readHeredocBody(): Word {
    const parts: WordPart[] = [];
    this.readDoubleQuoted(
      parts,
      (v) => {
        const last = parts[parts.length - 1];
        if (last && last.t === 'lit') last.v += v;
        else parts.push({ t: 'lit', v, q: true });
      },
      true,
    );
    return { parts, raw: this.src };
  }

  private parseSimple(): SimpleCommand {
    const assigns: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    const start = this.peek().start;
    let end = start;
    for (;;) {
      const t = this.peek();
      if (t.k === 'redir') {
        redirects.push(this.parseRedirect());
        end = this.pos;
        continue;
      }
      if (t.k !== 'word') break;
      if (words.length === 0) {
        const a = assignmentOf(t.word);
        if (a) {
          this.next();
          assigns.push(a);
          end = t.end;
          continue;
        }
      }
      this.next();
      words.push(t.word);
      end = t.end;
      // `name ( )`: a function definition.
      const after = this.peek();
      if (words.length === 1 && assigns.length === 0 && after.k === 'op' && after.op === '(') {
        this.next();
        const close = this.peek();
        if (close.k === 'op' && close.op === ')')
          throw new ShellSyntaxError('cnisim: shell functions are not supported');
        this.fail(close);
      }
    }
    if (words.length === 0 && assigns.length === 0 && redirects.length === 0)
      this.fail(this.peek());
    const after = this.peek();
    if (after.k === 'op' && after.op === '(') {
      if (assigns.length > 0 && words.length === 0 && this.src[after.start - 1] === '=') {
        throw new ShellSyntaxError('cnisim: arrays are not supported');
      }
      this.fail(after);
    }
    return {
      kind: 'simple',
      assigns,
      words,
      redirects,
      text: this.src.slice(start, end),
      line: this.lineAt(start),
    };
  }

  private expectReserved(word: string): Tok {
    const t = this.peek();
    if (!this.isReserved(t, new Set([word]))) this.fail(t);
    return this.next();
  }

  private parseFor(): ForCommand | ArithForCommand {
    const start = this.next().start;
    const nameTok = this.peek();
    if (nameTok.k === 'op' && nameTok.op === '(' && this.src[nameTok.end] === '(')
      return this.parseArithFor(start, nameTok.end + 1);
    if (nameTok.k !== 'word') this.fail(nameTok);
    this.next();
    const name = nameTok.word.raw;
    if (!isName(name)) throw new ShellSyntaxError(`\`${name}': not a valid identifier`, 1);
    this.skipNewlines();
    let items: Word[] | null = null;
    if (this.isReserved(this.peek(), new Set(['in']))) {
      this.next();
      items = [];
      for (;;) {
        const t = this.peek();
        if (t.k === 'word') {
          this.next();
          items.push(t.word);
        } else break;
      }
      const sep = this.peek();
      if (sep.k === 'op' && (sep.op === ';' || sep.op === 'newline')) this.next();
      else this.fail(sep);
    } else {
      const sep = this.peek();
      if (sep.k === 'op' && sep.op === ';') this.next();
    }
    const body = this.loopBody();
    return this.withRedirects({ kind: 'for', name, items, body, redirects: [], text: '' }, start);
  }

  /** A for loop's `do LIST done` (newlines before `do` allowed). */
  private loopBody(): CommandList {
    this.skipNewlines();
    this.expectReserved('do');
    const body = this.parseList(new Set(['done']), false);
    if (body.length === 0) this.fail(this.peek());
    this.expectReserved('done');
    return body;
  }

  private parseIf(): IfCommand {
    const start = this.next().start;
    const clauses: IfCommand['clauses'] = [];
    let elseBody: CommandList | null = null;
    const stops = new Set(['then', 'elif', 'else', 'fi']);
    for (;;) {
      const cond = this.parseList(new Set(['then']), false);
      if (cond.length === 0) this.fail(this.peek());
      this.expectReserved('then');
      const body = this.parseList(stops, false);
      if (body.length === 0) this.fail(this.peek());
      clauses.push({ cond, body });
      const t = this.peek();
      const rw = this.isReserved(t, stops);
      if (rw === 'elif') {
        this.next();
        continue;
      }
      if (rw === 'else') {
        this.next();
        elseBody = this.parseList(new Set(['fi']), false);
        if (elseBody.length === 0) this.fail(this.peek());
      }
      this.expectReserved('fi');
      break;
    }
    return this.withRedirects({ kind: 'if', clauses, elseBody, redirects: [], text: '' }, start);
  }

  private parseCase(): CaseCommand {
    const start = this.next().start;
    const w = this.next();
    if (w.k !== 'word') this.fail(w);
    this.skipNewlines();
    this.expectReserved('in');
    const items: CaseCommand['items'] = [];
    for (;;) {
      this.skipNewlines();
      if (this.isReserved(this.peek(), ESAC)) {
        this.next();
        break;
      }
      const open = this.peek();
      if (open.k === 'op' && open.op === '(') this.next();
      const patterns: Word[] = [];
      for (;;) {
        const p = this.next();
        if (p.k !== 'word') this.fail(p);
        patterns.push(p.word);
        const sep = this.next();
        if (sep.k === 'op' && sep.op === '|') continue;
        if (sep.k === 'op' && sep.op === ')') break;
        this.fail(sep);
      }
      this.skipNewlines();
      const body = this.parseList(ESAC, false);
      const end = this.peek();
      if (end.k === 'op' && CASE_TERMS.has(end.op)) {
        this.next();
        items.push({ patterns, body, term: end.op as ';;' | ';&' | ';;&' });
      } else if (this.isReserved(end, ESAC)) {
        items.push({ patterns, body, term: ';;' });
      } else this.fail(end);
    }
    return this.withRedirects(
      { kind: 'case', word: w.word, items, redirects: [], text: '' },
      start,
    );
  }

  /**
   * `[[ … ]]`: its tokens up to `]]`, then bash's grammar of conditional expressions (|| over
   * && over ! over primaries; `<`, `>`, `(`, `)` are its own there). The right side of `=~` is
   * read raw up to a blank outside parentheses, so that `^(a|b)$` is one word.
   */
  private parseCond(): CondCommand {
    const start = this.next().start;
    type CT = { k: 'w'; word: Word; text: string } | { k: 'op'; op: string };
    const toks: CT[] = [];
    for (;;) {
      const t = this.next();
      if (t.k === 'eof') this.fail(t);
      if (t.k === 'op' && t.op === 'newline') {
        toks.push({ k: 'op', op: 'newline' });
        continue;
      }
      if (t.k === 'word') {
        const text = plainText(t.word);
        if (text === ']]') break;
        toks.push({ k: 'w', word: t.word, text: text ?? '' });
        if (text === '=~') toks.push({ k: 'w', word: this.readRegexWord(), text: '' });
        continue;
      }
      if (t.k === 'redir' && t.fd === null && (t.op === '<' || t.op === '>')) {
        toks.push({ k: 'op', op: t.op });
        continue;
      }
      if (t.k === 'op' && ['&&', '||', '(', ')'].includes(t.op)) {
        toks.push({ k: 'op', op: t.op });
        continue;
      }
      this.fail(t);
    }
    let i = 0;
    const err = (m: string): never => {
      throw new ShellSyntaxError(m);
    };
    const isOp = (op: string) => {
      const t = toks[i];
      return t !== undefined && t.k === 'op' && t.op === op;
    };
    const wordAt = (k: number) => {
      const t = toks[k];
      return t?.k === 'w' ? t : null;
    };
    const shown = (k: number) => {
      const t = toks[k];
      return t === undefined ? ']]' : t.k === 'op' ? t.op : t.word.raw;
    };
    /** Newlines may come between the parts of an expression, not inside a comparison. */
    const skipNl = () => {
      while (isOp('newline')) i++;
    };
    /** Whether the primary just read ends here (an operator or the end follows). */
    const ended = () => {
      let k = i;
      while (toks[k]?.k === 'op' && (toks[k] as { op: string }).op === 'newline') k++;
      const t = toks[k];
      return t === undefined || (t.k === 'op' && ['&&', '||', ')'].includes(t.op));
    };
    const or = (): CondExpr => {
      let a = and();
      for (;;) {
        skipNl();
        if (!isOp('||')) return a;
        i++;
        a = { t: 'or', a, b: and() };
      }
    };
    const and = (): CondExpr => {
      let a = not();
      for (;;) {
        skipNl();
        if (!isOp('&&')) return a;
        i++;
        a = { t: 'and', a, b: not() };
      }
    };
    const not = (): CondExpr => {
      skipNl();
      const w = wordAt(i);
      if (w && w.text === '!' && i + 1 < toks.length) {
        i++;
        return { t: 'not', e: not() };
      }
      return primary();
    };
    const primary = (): CondExpr => {
      if (isOp('(')) {
        i++;
        const e = or();
        skipNl();
        if (!isOp(')')) err(`unexpected token \`${shown(i)}', expected \`)'`);
        i++;
        return e;
      }
      const w = wordAt(i);
      if (!w) return err(`unexpected token \`${shown(i)}' in conditional command`);
      if (COND_UNARY.has(w.text) && i + 1 < toks.length && !isBinaryAt(i + 1)) {
        const arg = wordAt(i + 1);
        if (!arg) err(`unexpected argument \`${shown(i + 1)}' to conditional unary operator`);
        i += 2;
        return { t: 'unary', op: w.text, w: arg!.word };
      }
      if (COND_UNARY.has(w.text) && i + 1 >= toks.length)
        err(`unexpected argument \`]]' to conditional unary operator`);
      i++;
      if (ended()) return { t: 'word', w: w.word };
      const opTok = toks[i]!;
      const op = opTok.k === 'op' ? opTok.op : opTok.text;
      if (!COND_BINARY.has(op) || (opTok.k === 'op' && op !== '<' && op !== '>'))
        err('conditional binary operator expected');
      const b = wordAt(i + 1);
      if (!b) err(`unexpected argument \`${shown(i + 1)}' to conditional binary operator`);
      i += 2;
      return { t: 'binary', op, a: w.word, b: b!.word };
    };
    const isBinaryAt = (k: number) => {
      const t = toks[k];
      return (
        t !== undefined && (t.k === 'op' ? t.op === '<' || t.op === '>' : COND_BINARY.has(t.text))
      );
    };
    if (toks.every((t) => t.k === 'op' && t.op === 'newline'))
      err("unexpected token `]]' in conditional command");
    const expr = or();
    skipNl();
    if (i < toks.length) err('syntax error in conditional expression');
    return this.withRedirects({ kind: 'cond', expr, redirects: [], text: '' }, start);
  }

  /** The right side of `=~`: raw text up to a blank or an operator outside parentheses and quotes. */
  private readRegexWord(): Word {
    const s = this.src;
    while (s[this.pos] === ' ' || s[this.pos] === '\t') this.pos++;
    const from = this.pos;
    let depth = 0;
    while (this.pos < s.length) {
      const c = s[this.pos]!;
      // bash reads it as a word in which (, ) and | are ordinary: blanks, ;, &, < and > end it.
      if (depth === 0 && ' \t\n;&<>'.includes(c)) break;
      if (c === '\\') this.pos += 2;
      else if (c === "'" || c === '"') {
        const close = s.indexOf(c, this.pos + 1);
        this.pos = close < 0 ? s.length : close + 1;
      } else {
        if (c === '(') depth++;
        else if (c === ')') depth--;
        this.pos++;
      }
    }
    const text = s.slice(from, this.pos);
    if (text === '' || text === ']]')
      throw new ShellSyntaxError("unexpected argument `]]' to conditional binary operator");
    return new Parser(text, 0, false).readOperand();
  }

  private parseLoop(kind: 'while' | 'until'): LoopCommand {
    const start = this.next().start;
    const cond = this.parseList(new Set(['do']), false);
    if (cond.length === 0) this.fail(this.peek());
    this.expectReserved('do');
    const body = this.parseList(new Set(['done']), false);
    if (body.length === 0) this.fail(this.peek());
    this.expectReserved('done');
    return this.withRedirects({ kind, cond, body, redirects: [], text: '' }, start);
  }
}

function tokText(t: Tok): string {
  if (t.k === 'op') return t.op;
  if (t.k === 'redir') return t.op;
  if (t.k === 'word') return t.word.raw;
  return 'EOF';
}

function assignmentOf(w: Word): Assignment | null {
  const first = w.parts[0];
  if (!first || first.t !== 'lit' || first.q) return null;
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.v);
  if (!m) return null;
  const rest: WordPart[] = [];
  const tail = first.v.slice(m[0].length);
  if (tail) rest.push({ t: 'lit', v: tail, q: false });
  rest.push(...w.parts.slice(1));
  return { name: m[1]!, value: { parts: rest, raw: w.raw.slice(m[0].length) }, raw: w.raw };
}

/** ${...}; an invalid one is an error when it is expanded ("bad substitution"), as in bash. */
function parseBraced(inner: string, q: boolean, raw: string): WordPart {
  const bad: WordPart = { t: 'param', name: '', q, raw, bad: true };
  if (inner.startsWith('#') && inner.length > 1) {
    const name = inner.slice(1);
    if (!isName(name) && !/^[0-9?$#!@*-]$/.test(name)) return bad;
    return { t: 'param', name, q, length: true, raw };
  }
  const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?$#!@*-])(.*)$/s.exec(inner);
  if (!m) return bad;
  const name = m[1]!;
  const rest = m[2]!;
  if (rest === '') return { t: 'param', name, q, raw };
  const opm = /^(:-|:=|:\+|:\?|-|=|\+|\?)(.*)$/s.exec(rest);
  if (!opm) return bad;
  const argSrc = opm[2]!;
  const arg = argSrc === '' ? { parts: [], raw: '' } : new Parser(argSrc, 0, true).readOperand();
  return { t: 'param', name, q, op: opm[1] as ParamOp, arg, raw };
}

/** Reads the text of one word again (what brace expansion made of a word's source). */
export function parseWordText(text: string): Word {
  return new Parser(text, 0, false).readOperand();
}

/**
 * A here-document's delimiter after quote removal, and whether it was quoted (any quote or
 * backslash in it: the body is then taken as it is). `$X` stays `$X`: it is not expanded.
 */
function heredocDelimiter(raw: string): { delim: string; quoted: boolean } {
  let delim = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "'") {
      quoted = true;
      const end = raw.indexOf("'", i + 1);
      delim += raw.slice(i + 1, end < 0 ? raw.length : end);
      i = end < 0 ? raw.length : end;
    } else if (c === '"') {
      quoted = true;
      for (i++; i < raw.length && raw[i] !== '"'; i++) {
        if (raw[i] === '\\' && '$`"\\'.includes(raw[i + 1] ?? '')) i++;
        delim += raw[i]!;
      }
    } else if (c === '\\') {
      quoted = true;
      if (i + 1 < raw.length) delim += raw[++i]!;
    } else if (c === '$' && (raw[i + 1] === "'" || raw[i + 1] === '"')) {
      // $'…' and $"…": the quotes that follow do the rest.
    } else delim += c;
  }
  return { delim, quoted };
}

/**
 * An unquoted here-document's body as a word. bash parses the body when it expands it, so a
 * broken substitution in it (`$(` never closed) is an error of that command when it runs, not a
 * syntax error of the script: the word then holds that error.
 */
function heredocWord(body: string): Word {
  try {
    return new Parser(body, 0, true).readHeredocBody();
  } catch (e) {
    if (!(e instanceof ShellSyntaxError)) throw e;
    return {
      parts: [{ t: 'param', name: '', q: true, raw: body, bad: true, error: e.message }],
      raw: body,
    };
  }
}

/**
 * Whether a prompt should ask for another line before running `src` (bash's PS2): the input
 * ends inside a quote, a substitution or a compound command, after `|`, `&&` or `||`, with a
 * here-document still open, or with a backslash. A real syntax error is not a reason: the line
 * runs and reports it.
 */
export function needsMoreInput(src: string): boolean {
  const p = new Parser(src, 0, false);
  try {
    while (p.parseCompleteCommand()) {
      // Parse everything; nothing runs.
    }
  } catch (e) {
    if (!(e instanceof ShellSyntaxError)) throw e;
    return e.eof || e.message.startsWith('unexpected EOF while looking for matching');
  }
  return p.wantsMore;
}

/** Parses a whole script (used for `...` and `bash -c`); throws ShellSyntaxError. */
export function parseScript(src: string): CommandList {
  const p = new Parser(src, 0, false);
  const out: CommandList = [];
  for (;;) {
    const cc = p.parseCompleteCommand();
    if (!cc) return out;
    out.push(...cc);
  }
}

/**
 * Reads a script one complete command at a time: `next()` returns the next command list, null at
 * the end, or throws ShellSyntaxError (the rest of the input is then abandoned, as bash does for a
 * line it cannot parse).
 */
export class ScriptReader {
  private readonly p: Parser;
  constructor(src: string) {
    this.p = new Parser(src, 0, false);
  }
  next(): CommandList | null {
    return this.p.parseCompleteCommand();
  }
  /** Warnings the reading gave since the last call (bash prints them as it reads). */
  takeWarnings(): ParseWarning[] {
    return this.p.warnings.splice(0);
  }
  /** The line the reader is on (for error messages). */
  line(): number {
    return this.p.lineAt(this.p.pos);
  }
}
