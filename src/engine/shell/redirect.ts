/**
 * Redirections (`<`, `>`, `>>`, `&>`, `2>&1`, `<<<`, ...): the streams a command runs with, and
 * the files (or /proc/sys sysctls) written when it is done.
 */
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import { expandWords, type ExpandEnv } from './expand';
import { Input, type Frame, type IO, type Sink } from './io';
import type { Redirect } from './parse';
import { resolvePath } from './paths';
import type { Tx } from './tx';
import { type CommandRegistry, STRERROR } from './types';

/** What redirections need from the interpreter. */
export interface RedirectHost {
  readonly cwd: string;
  readonly commands: CommandRegistry;
  /** The prefix of the shell's error messages ("bash: ", "bash: line 3: "). */
  prefix(): string;
  expandEnv(io: IO, frame: Frame): ExpandEnv;
  /** Prints an expansion error and sets `$?`. */
  expansionFailed(e: unknown, io: IO): never;
  newTx(summary: string, source: string): Tx;
}

/** A file descriptor's destination while a command runs. */
type FdTarget =
  | { kind: 'sink'; sink: Sink }
  | {
      kind: 'file';
      path: string;
      chunks: string[];
      /** A /proc/sys file: writing it sets that sysctl of the namespace. */
      sysctl?: { netns: string; key: string };
    }
  | { kind: 'null' };

/**
 * Sets up redirections (in order), runs `body` with the resulting streams, then writes what
 * went to files. Owns the change (and its event) unless the frame already has one. Returns the
 * status; the caller makes it `$?`.
 */
export function withRedirects(
  host: RedirectHost,
  redirects: Redirect[],
  summary: string,
  io: IO,
  frame: Frame,
  body: (io: IO, frame: Frame) => number,
  source = summary,
  /** The command, for the message of a failed write (`bash: echo: write error: ...`). */
  writer?: string,
): number {
  const own = frame.tx === null;
  const tx = frame.tx ?? host.newTx(summary, source);
  const inner: Frame = { netns: frame.netns, tx };
  let status: number;
  let errText = '';
  const errSink: Sink = (s) => {
    errText += s;
    io.err(s);
  };
  const fds = new Map<number, FdTarget>([
    [1, { kind: 'sink', sink: io.out }],
    [2, { kind: 'sink', sink: errSink }],
  ]);
  let stdin = io.stdin;
  const files: Array<Extract<FdTarget, { kind: 'file' }>> = [];
  const xenv = host.expandEnv(io, inner);
  let failed = false;
  for (const r of redirects) {
    let target: string;
    try {
      const fields = expandWords([r.target], xenv);
      if (fields.length !== 1) {
        io.err(`${host.prefix()}${r.target.raw}: ambiguous redirect\n`);
        failed = true;
        break;
      }
      target = fields[0]!;
    } catch (e) {
      host.expansionFailed(e, io);
      failed = true;
      break;
    }
    if ((r.op === '>&' || r.op === '<&') && /^[0-9]+$|^-$/.test(target)) {
      if (target === '-') fds.set(r.fd, { kind: 'null' });
      else {
        const src = fds.get(Number(target));
        if (!src && r.op === '>&') {
          io.err(`${host.prefix()}${target}: Bad file descriptor\n`);
          failed = true;
          break;
        }
        if (src) fds.set(r.fd, src);
      }
      continue;
    }
    if (r.op === '<' || r.op === '<>') {
      const read = readForRedirect(host.cwd, target, tx, inner.netns);
      if (typeof read !== 'string') {
        io.err(`${host.prefix()}${target}: ${STRERROR[read.errno]}\n`);
        failed = true;
        break;
      }
      if (r.fd === 0) stdin = new Input(read);
      continue;
    }
    if (r.op === '<<<') {
      if (r.fd === 0) stdin = new Input(target + '\n');
      continue;
    }
    if (r.op === '<<' || r.op === '<<-') {
      // The here-document's body, expanded (parse.ts readHeredocBodies).
      if (r.fd === 0) stdin = new Input(target);
      continue;
    }
    // Output: >, >|, >>, &>, &>>, >& FILE.
    const append = r.op === '>>' || r.op === '&>>';
    const opened = openForWrite(host.cwd, target, append, tx, inner.netns);
    if (typeof opened === 'string') {
      io.err(`${host.prefix()}${target}: ${opened}\n`);
      failed = true;
      break;
    }
    if (opened) files.push(opened);
    const t: FdTarget = opened ?? { kind: 'null' };
    if (r.fd === -1 || (r.op === '>&' && r.fd === 1)) {
      fds.set(1, t);
      fds.set(2, t);
    } else fds.set(r.fd, t);
  }
  if (failed) {
    status = 1;
  } else {
    const sinkOf = (fd: number): Sink => {
      const t = fds.get(fd);
      if (!t || t.kind === 'null') return () => {};
      if (t.kind === 'sink') return t.sink;
      return (s) => void t.chunks.push(s);
    };
    const fd1 = fds.get(1);
    const tty = !!io.tty && fd1?.kind === 'sink';
    status = body({ stdin, out: sinkOf(1), err: sinkOf(2), tty }, inner);
    for (const f of files) {
      const data = f.chunks.join('');
      if (data === '') continue;
      if (f.sysctl) {
        const { netns, key } = f.sysctl;
        try {
          tx.change((n) => K.sysctlSet(n.kernel as KernelState, netns, key, data), true);
        } catch (e) {
          if (!(e instanceof K.KernelError)) throw e;
          const spec = writer !== undefined ? host.commands.get(writer) : undefined;
          const who =
            writer === undefined || spec?.builtin ? `${host.prefix()}${writer ?? 'bash'}` : writer;
          io.err(`${who}: write error: ${STRERROR[e.errno] ?? 'Invalid argument'}\n`);
          status = 1;
        }
        continue;
      }
      try {
        tx.change((n) => {
          const fs = n.fs as vfs.FsState;
          const e = vfs.stat(fs, f.path);
          const old = e?.kind === 'file' ? e.data : '';
          n.fs = vfs.writeFile(fs, f.path, old + data) as never;
        }, false);
      } catch (e) {
        io.err(`${host.prefix()}${f.path}: ${(e as Error).message}\n`);
      }
    }
  }
  if (own) tx.commit({ exitCode: status, ...(errText ? { stderr: errText } : {}) });
  return status;
}

/** Reads a file for `<`: its content, or the errno. */
function readForRedirect(
  cwd: string,
  path: string,
  tx: Tx,
  netns: string,
): string | { errno: string } {
  if (path === '/dev/null') return '';
  const abs = resolvePath(cwd, path);
  if (abs.startsWith('/proc/sys/')) {
    const v = K.sysctlGet(tx.nodeState().kernel, netns, abs.slice(10).replace(/\//g, '.'));
    if (v !== undefined) return v + '\n';
  }
  const e = vfs.stat(tx.nodeState().fs, abs);
  if (!e) return { errno: 'ENOENT' };
  if (e.kind === 'dir') return { errno: 'EISDIR' };
  return e.data;
}

/** Opens a file for > or >>: a file target, null for /dev/null, or bash's error text. */
function openForWrite(
  cwd: string,
  path: string,
  append: boolean,
  tx: Tx,
  netns: string,
): Extract<FdTarget, { kind: 'file' }> | null | string {
  if (path === '/dev/null') return null;
  const abs = resolvePath(cwd, path);
  if (abs === '/proc/sys' || abs.startsWith('/proc/sys/')) {
    // procfs: the sysctls of the command's namespace; nothing can be created there.
    const k = tx.nodeState().kernel;
    const key = abs.slice('/proc/sys/'.length).replace(/\//g, '.');
    if (abs !== '/proc/sys' && K.sysctlGet(k, netns, key) !== undefined)
      return { kind: 'file', path: abs, chunks: [], sysctl: { netns, key } };
    const dir = abs === '/proc/sys' || K.sysctlKeys(k, netns).some((x) => x.startsWith(key + '.'));
    return STRERROR[dir ? 'EISDIR' : 'ENOENT']!;
  }
  const fs = tx.nodeState().fs;
  const e = vfs.stat(fs, abs);
  if (e?.kind === 'dir') return STRERROR['EISDIR']!;
  if (e?.kind === 'file' && e.nsfs) return STRERROR['EPERM']!;
  const parent = vfs.stat(fs, vfs.dirname(abs));
  if (!parent) return STRERROR['ENOENT']!;
  if (parent.kind !== 'dir') return STRERROR['ENOTDIR']!;
  if (!e || !append) {
    tx.change((n) => {
      n.fs = vfs.writeFile(
        n.fs as vfs.FsState,
        abs,
        append ? (e?.kind === 'file' ? e.data : '') : '',
      ) as never;
    }, false);
  }
  return { kind: 'file', path: abs, chunks: [] };
}
