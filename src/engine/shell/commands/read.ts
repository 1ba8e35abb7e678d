/**
 * The `read` builtin, as bash 5.2's (builtins/read.def): one line (or up to a delimiter, or a
 * count of characters) from the command's input, split by IFS into the named variables, the
 * last taking the rest; without names the line goes to REPLY unsplit. Its input is the stream
 * the command shares with the others around it (../io.ts `Input`), so `while read l; do …; done`
 * takes a line per turn. Checked against bash in golden/read-builtin-outputs.jsonl.
 */
import { isName } from '../parse';
import type { CommandContext } from '../types';

const USAGE =
  'read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n';

/** The characters bash counts as IFS whitespace (when IFS holds them). */
const WHITESPACE = ' \t\n';

interface Options {
  raw: boolean;
  delim: string;
  /** -n: at most this many characters; -N: exactly (the delimiter is not special). */
  nchars: number | null;
  exact: boolean;
  prompt: string | null;
  /** -t 0: only say whether input is waiting. */
  poll: boolean;
}

export function read(ctx: CommandContext): number {
  const pfx = `${ctx.shell.errorPrefix()}read: `;
  const o: Options = {
    raw: false,
    delim: '\n',
    nchars: null,
    exact: false,
    prompt: null,
    poll: false,
  };
  const args = ctx.argv.slice(1);
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a.length < 2 || a[0] !== '-') break;
    for (let j = 1; j < a.length; j++) {
      const f = a[j]!;
      if (f === 'r') o.raw = true;
      else if (f === 'e' || f === 's')
        continue; // readline and echo: a terminal's, no input here
      else if ('adinNptu'.includes(f)) {
        let v: string;
        if (j + 1 < a.length) v = a.slice(j + 1);
        else if (i + 1 < args.length) v = args[++i]!;
        else {
          ctx.err(`${pfx}-${f}: option requires an argument\n${USAGE}`);
          return 2;
        }
        const bad = option(o, f, v, pfx, ctx);
        if (bad !== null) return bad;
        break;
      } else {
        ctx.err(`${pfx}-${f}: invalid option\n${USAGE}`);
        return 2;
      }
    }
  }
  const names = args.slice(i);
  const input = ctx.input;

  if (o.prompt !== null && input.tty) ctx.err(o.prompt);
  if (o.poll) return input.pending ? 0 : 1;

  // Read: backslash escapes the next character (and a backslash-newline is dropped) unless -r;
  // an escaped character is never a field separator.
  const chars: string[] = [];
  const escaped: boolean[] = [];
  let eof = false;
  let passNext = false;
  const limit = o.nchars ?? Infinity;
  while (chars.length < limit) {
    const c = input.next();
    if (c === null) {
      eof = true;
      break;
    }
    if (passNext) {
      passNext = false;
      if (c === '\n') continue;
      chars.push(c);
      escaped.push(true);
      continue;
    }
    if (c === '\\' && !o.raw) {
      passNext = true;
      continue;
    }
    if (c === o.delim && !o.exact) break;
    if (c === '\0') continue;
    chars.push(c);
    escaped.push(false);
  }
  const status = eof ? 1 : 0;

  if (names.length === 0) {
    ctx.shell.setVar('REPLY', chars.join(''));
    return status;
  }
  const values = o.exact
    ? [chars.join(''), ...names.slice(1).map(() => '')]
    : split(chars, escaped, ifsOf(ctx), names.length);
  for (let k = 0; k < names.length; k++) {
    if (!isName(names[k]!)) {
      ctx.err(`${pfx}\`${names[k]}': not a valid identifier\n`);
      return 1;
    }
    ctx.shell.setVar(names[k]!, values[k]!);
  }
  return status;
}

/** Takes one option's argument; a status when it is bad (and says why), else null. */
function option(o: Options, f: string, v: string, pfx: string, ctx: CommandContext): number | null {
  switch (f) {
    case 'a':
      ctx.err(`${pfx}-a: arrays are not supported by this shell\n`);
      return 2;
    case 'd':
      o.delim = v === '' ? '\0' : v[0]!;
      return null;
    case 'i':
      return null; // the initial text of a readline edit: a terminal's
    case 'n':
    case 'N': {
      if (!/^\+?[0-9]+$/.test(v) || Number(v) > 2 ** 31 - 1) {
        ctx.err(`${pfx}${v}: invalid number\n`);
        return 1;
      }
      o.nchars = Number(v);
      o.exact = f === 'N';
      return null;
    }
    case 'p':
      o.prompt = v;
      return null;
    case 't': {
      if (!/^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/.test(v)) {
        ctx.err(`${pfx}${v}: invalid timeout specification\n`);
        return 1;
      }
      // Input here is all there already, or never comes: a timeout only matters for -t 0.
      o.poll = Number(v) === 0;
      return null;
    }
    case 'u': {
      if (!/^[0-9]+$/.test(v)) {
        ctx.err(`${pfx}${v}: invalid file descriptor specification\n`);
        return 1;
      }
      if (Number(v) !== 0) {
        ctx.err(`${pfx}${v}: invalid file descriptor: Bad file descriptor\n`);
        return 1;
      }
      return null;
    }
  }
  return null;
}

function ifsOf(ctx: CommandContext): string {
  // `IFS=: read a b`: the command's own assignment; else the shell's (unset: the default).
  if (Object.prototype.hasOwnProperty.call(ctx.env, 'IFS')) return ctx.env['IFS']!;
  return ctx.shell.getVar('IFS') ?? WHITESPACE;
}

/**
 * bash's split of a read line into `n` values: leading IFS whitespace goes; each value but the
 * last is the next field (a field ends at an IFS character; the whitespace after it, one other
 * IFS character and the whitespace after that go with it); the last takes the rest, less its
 * trailing IFS whitespace, unless the rest is one field and its separator (`b:` gives `b`).
 */
function split(chars: string[], escaped: boolean[], ifs: string, n: number): string[] {
  const len = chars.length;
  const isIfs = (k: number) => !escaped[k] && ifs.includes(chars[k]!);
  const isWs = (k: number) => isIfs(k) && WHITESPACE.includes(chars[k]!);
  let pos = 0;
  const word = (): string | null => {
    while (pos < len && isWs(pos)) pos++;
    if (pos >= len) return null;
    const start = pos;
    while (pos < len && !isIfs(pos)) pos++;
    const w = chars.slice(start, pos).join('');
    while (pos < len && isWs(pos)) pos++;
    if (pos < len && isIfs(pos)) {
      pos++;
      while (pos < len && isWs(pos)) pos++;
    }
    return w;
  };
  while (pos < len && isWs(pos)) pos++;
  const out: string[] = [];
  for (let k = 0; k < n - 1; k++) out.push(word() ?? '');
  if (pos >= len) out.push('');
  else {
    const from = pos;
    const w = word();
    if (pos >= len) out.push(w ?? '');
    else {
      let end = len;
      while (end > from && isWs(end - 1)) end--;
      out.push(chars.slice(from, end).join(''));
    }
  }
  return out;
}
