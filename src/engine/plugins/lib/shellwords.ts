/**
 * github.com/mattn/go-shellwords (v1.0.12, Debian bookworm's golang-github-mattn-go-shellwords-dev)
 * `shellwords.Parse(line)` with the package defaults (ParseEnv and ParseBacktick off), as portmap
 * uses it to turn an `iptables -S` line back into arguments when it deletes its jump rules.
 *
 * Quirks kept from the Go code: `;`, `&`, `|`, `<` and `>` outside quotes end the parse (the rest
 * of the line is dropped, no error); an unquoted `(` not preceded by `$` is an error; an unquoted
 * `)` toggles the `$(` state, so a lone `)` makes the line invalid; a backslash escapes the next
 * character except inside single quotes; inside double quotes a backslash escapes too.
 */

export const INVALID_COMMAND_LINE = 'invalid command line string';

export class ShellwordsError extends Error {}

function isSpace(r: string): boolean {
  return r === ' ' || r === '\t' || r === '\r' || r === '\n';
}

/** argNo / argSingle / argQuoted */
const Got = { No: 0, Single: 1, Quoted: 2 } as const;
type Got = (typeof Got)[keyof typeof Got];

/** shellwords.Parse: the words of `line`, or a ShellwordsError("invalid command line string"). */
export function parseShellwords(line: string): string[] {
  const args: string[] = [];
  let buf = '';
  let escaped = false;
  let doubleQuoted = false;
  let singleQuoted = false;
  let backQuote = false;
  let dollarQuote = false;
  let got: Got = Got.No;
  loop: for (const r of line) {
    if (escaped) {
      buf += r;
      escaped = false;
      got = Got.Single;
      continue;
    }
    if (r === '\\') {
      if (singleQuoted) buf += r;
      else escaped = true;
      continue;
    }
    if (isSpace(r)) {
      if (singleQuoted || doubleQuoted || backQuote || dollarQuote) {
        buf += r;
      } else if (got !== Got.No) {
        args.push(buf);
        buf = '';
        got = Got.No;
      }
      continue;
    }
    switch (r) {
      case '`':
        if (!singleQuoted && !doubleQuoted && !dollarQuote) backQuote = !backQuote;
        break;
      case ')':
        if (!singleQuoted && !doubleQuoted && !backQuote) dollarQuote = !dollarQuote;
        break;
      case '(':
        if (!singleQuoted && !doubleQuoted && !backQuote) {
          if (!dollarQuote && buf.endsWith('$')) {
            dollarQuote = true;
            buf += '(';
            continue;
          }
          throw new ShellwordsError(INVALID_COMMAND_LINE);
        }
        break;
      case '"':
        if (!singleQuoted && !dollarQuote) {
          if (doubleQuoted) got = Got.Quoted;
          doubleQuoted = !doubleQuoted;
          continue;
        }
        break;
      case "'":
        if (!doubleQuoted && !dollarQuote) {
          if (singleQuoted) got = Got.Quoted;
          singleQuoted = !singleQuoted;
          continue;
        }
        break;
      case ';':
      case '&':
      case '|':
      case '<':
      case '>':
        if (!(singleQuoted || doubleQuoted || backQuote || dollarQuote)) {
          // `2>`: a leading file descriptor number is not a word.
          if (r === '>' && buf.length > 0 && buf[0]! >= '0' && buf[0]! <= '9') got = Got.No;
          break loop;
        }
        break;
    }
    got = Got.Single;
    buf += r;
  }
  if (got !== Got.No) args.push(buf);
  if (escaped || singleQuoted || doubleQuoted || backQuote || dollarQuote)
    throw new ShellwordsError(INVALID_COMMAND_LINE);
  return args;
}
