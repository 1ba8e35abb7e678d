/**
 * A small virtual filesystem as immutable data: each directory holds its children by name, so a
 * change copies only the directory it touches. Every operation returns the new state or throws an
 * FsError with the wording Go's os package prints ("open /x: no such file or directory", ...).
 */

import {
  emptyTable,
  tableOf,
  tentries,
  tget,
  tkeys,
  withEntry as tWith,
  withoutEntry,
  type Table,
} from '../state/table';

export interface FsDir {
  readonly kind: 'dir';
  readonly mode: number;
}

export interface FsFile {
  readonly kind: 'file';
  readonly mode: number;
  readonly data: string;
  /** Set for executables the simulator can run (a CNI plugin binary of a given build). */
  /**
   * A simulated executable: which program and build it is. `hangOn` lists CNI commands on which
   * the binary blocks forever (a fault: a plugin stuck on a lock or a datastore).
   */
  readonly exec?: {
    readonly program: string;
    readonly build: string;
    readonly hangOn?: readonly string[];
  };
  /** Set for netns bind-mount points (nsfs); the kernel holds the namespace. */
  readonly nsfs?: boolean;
}

export type FsEntry = FsDir | FsFile;

export interface FsState {
  /**
   * Directory path -> its children by name. Every directory, "/" included, has an entry. Tables
   * (state/table.ts), so that a file written in a directory of 1,000 costs what it costs in one of 10.
   */
  readonly dirs: Table<Table<FsEntry>>;
}

/** The children of directory `dir` (a clean path), if it is one. */
export function dirChildren(fs: FsState, dir: string): Table<FsEntry> | undefined {
  return tget(fs.dirs, dir);
}

/** The entry `name` in directory `dir` (a clean path). */
export function entryIn(fs: FsState, dir: string, name: string): FsEntry | undefined {
  const c = tget(fs.dirs, dir);
  return c ? tget(c, name) : undefined;
}

/** [name, entry] of directory `dir`, unsorted; [] if it is not a directory. */
export function entriesIn(fs: FsState, dir: string): ReadonlyArray<readonly [string, FsEntry]> {
  const c = tget(fs.dirs, dir);
  return c ? tentries(c) : [];
}

/** The names in directory `dir`, unsorted; [] if it is not a directory. */
export function namesIn(fs: FsState, dir: string): string[] {
  const c = tget(fs.dirs, dir);
  return c ? tkeys(c) : [];
}

export type Errno = 'ENOENT' | 'EEXIST' | 'ENOTDIR' | 'EISDIR' | 'ENOTEMPTY' | 'EACCES' | 'EINVAL';

export const ERRNO_TEXT: Record<Errno, string> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file exists',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  ENOTEMPTY: 'directory not empty',
  EACCES: 'permission denied',
  EINVAL: 'invalid argument',
};

export class FsError extends Error {
  constructor(
    readonly errno: Errno,
    readonly op: string,
    readonly path: string,
    /** The second path of a *LinkError (rename). */
    readonly path2?: string,
  ) {
    // Go's *PathError ("open /x/y: no such file or directory") or *LinkError ("rename a b: ...").
    super(`${op} ${path}${path2 !== undefined ? ` ${path2}` : ''}: ${ERRNO_TEXT[errno]}`);
  }
}

/** Why `path` cannot be reached: a missing component (ENOENT) or a file used as a directory (ENOTDIR). */
function lookupErrno(fs: FsState, path: string): Errno {
  const parts = cleanPath(path).split('/').filter(Boolean);
  let cur = '';
  for (let i = 0; i < parts.length - 1; i++) {
    cur += '/' + parts[i];
    const e = stat(fs, cur);
    if (!e) return 'ENOENT';
    if (e.kind !== 'dir') return 'ENOTDIR';
  }
  return 'ENOENT';
}

const ROOT: FsDir = { kind: 'dir', mode: 0o755 };

export function emptyFs(): FsState {
  return { dirs: tableOf([['/', emptyTable<FsEntry>()]]) };
}

/** filepath.Clean for absolute paths. */
export function cleanPath(p: string): string {
  if (p.length > 1 && p[0] === '/' && p[p.length - 1] !== '/' && !/\/\/|\/\.\.?(\/|$)/.test(p))
    return p;
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}

export function joinPath(...ps: string[]): string {
  return cleanPath(ps.join('/'));
}

export function dirname(p: string): string {
  const c = cleanPath(p);
  const i = c.lastIndexOf('/');
  return i <= 0 ? '/' : c.slice(0, i);
}

export function basename(p: string): string {
  const c = cleanPath(p);
  return c.slice(c.lastIndexOf('/') + 1);
}

export function stat(fs: FsState, path: string): FsEntry | undefined {
  const p = cleanPath(path);
  if (p === '/') return ROOT;
  return entryIn(fs, dirname(p), basename(p));
}

function requireParentDir(fs: FsState, op: string, path: string, path2?: string): string {
  const parent = dirname(path2 ?? path);
  const e = stat(fs, parent);
  if (!e) throw new FsError(lookupErrno(fs, parent + '/x'), op, path, path2);
  if (e.kind !== 'dir') throw new FsError('ENOTDIR', op, path, path2);
  return parent;
}

export function readFile(fs: FsState, path: string): string {
  const e = stat(fs, path);
  if (!e) throw new FsError(lookupErrno(fs, path), 'open', path);
  if (e.kind === 'dir') throw new FsError('EISDIR', 'read', path);
  return e.data;
}

/** Names in a directory, sorted byte-wise (as Go's ReadDir returns them). */
export function readDir(fs: FsState, path: string): string[] {
  const p = cleanPath(path);
  const e = stat(fs, p);
  if (!e) throw new FsError(lookupErrno(fs, p), 'open', path);
  if (e.kind !== 'dir') throw new FsError('ENOTDIR', 'readdirent', path);
  return namesIn(fs, p).sort(byteCompare);
}

export function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every path under `dir` (recursive, `dir` first), in the order filepath.Walk visits them. */
export function walk(fs: FsState, dir: string): string[] {
  const out: string[] = [];
  const visit = (p: string) => {
    out.push(p);
    for (const name of namesIn(fs, p).sort(byteCompare))
      visit(p === '/' ? `/${name}` : `${p}/${name}`);
  };
  const start = cleanPath(dir);
  if (stat(fs, start)) visit(start);
  return out;
}

/** `dir` and every directory under it (`dir` first, then depth-first in name order). */
function walkDirs(fs: FsState, dir: string): string[] {
  const out: string[] = [];
  const visit = (p: string) => {
    const c = tget(fs.dirs, p);
    if (!c) return;
    out.push(p);
    for (const [name, e] of tentries(c))
      if (e.kind === 'dir') visit(p === '/' ? `/${name}` : `${p}/${name}`);
  };
  visit(dir);
  return out;
}

function withEntry(fs: FsState, parent: string, name: string, entry: FsEntry | null): FsState {
  const children = tget(fs.dirs, parent) ?? emptyTable<FsEntry>();
  const next = entry ? tWith(children, name, entry) : withoutEntry(children, name);
  return { dirs: tWith(fs.dirs, parent, next) };
}

export function writeFile(
  fs: FsState,
  path: string,
  data: string,
  opts: { mode?: number; exclusive?: boolean; exec?: FsFile['exec']; nsfs?: boolean } = {},
): FsState {
  const p = cleanPath(path);
  const parent = requireParentDir(fs, 'open', path);
  const existing = stat(fs, p);
  if (existing?.kind === 'dir') throw new FsError('EISDIR', 'open', path);
  if (existing && opts.exclusive) throw new FsError('EEXIST', 'open', path);
  const entry: FsFile = {
    kind: 'file',
    mode: existing ? existing.mode : (opts.mode ?? 0o644),
    data,
    ...(opts.exec ? { exec: opts.exec } : {}),
    ...(opts.nsfs ? { nsfs: true } : {}),
  };
  return withEntry(fs, parent, basename(p), entry);
}

export function mkdirAll(fs: FsState, path: string, mode = 0o755): FsState {
  const p = cleanPath(path);
  const missing: string[] = [];
  let cur = p;
  while (cur !== '/') {
    const e = stat(fs, cur);
    if (e) {
      // Go's MkdirAll names the existing component that is not a directory.
      if (e.kind !== 'dir') throw new FsError('ENOTDIR', 'mkdir', cur);
      break;
    }
    missing.push(cur);
    cur = dirname(cur);
  }
  if (missing.length === 0) return fs;
  let out = fs;
  for (const m of missing.reverse()) {
    out = withEntry(out, dirname(m), basename(m), { kind: 'dir', mode });
    out = { dirs: tWith(out.dirs, m, emptyTable<FsEntry>()) };
  }
  return out;
}

export function remove(fs: FsState, path: string): FsState {
  const p = cleanPath(path);
  const e = stat(fs, p);
  if (!e || p === '/') throw new FsError('ENOENT', 'remove', path);
  if (e.kind === 'dir' && (tget(fs.dirs, p)?.size ?? 0) > 0)
    throw new FsError('ENOTEMPTY', 'remove', path);
  const out = withEntry(fs, dirname(p), basename(p), null);
  return e.kind === 'dir' ? { dirs: withoutEntry(out.dirs, p) } : out;
}

export function removeAll(fs: FsState, path: string): FsState {
  const p = cleanPath(path);
  if (!stat(fs, p) || p === '/') return fs;
  const out = withEntry(fs, dirname(p), basename(p), null);
  let dirs = out.dirs;
  for (const d of walkDirs(fs, p)) dirs = withoutEntry(dirs, d);
  return { dirs };
}

/** os.Rename: errors are *LinkError naming both paths; a directory as destination is refused (EEXIST). */
export function rename(fs: FsState, from: string, to: string): FsState {
  const a = cleanPath(from);
  const b = cleanPath(to);
  const target = stat(fs, b);
  const e = stat(fs, a);
  if (!e) throw new FsError(lookupErrno(fs, a), 'rename', from, to);
  if (target?.kind === 'dir') throw new FsError('EEXIST', 'rename', from, to);
  const bParent = requireParentDir(fs, 'rename', from, to);
  if (target && e.kind === 'dir') throw new FsError('ENOTDIR', 'rename', from, to);
  if (a === b) return fs;
  let out = withEntry(fs, dirname(a), basename(a), null);
  out = withEntry(out, bParent, basename(b), e);
  if (e.kind === 'dir') {
    let dirs = out.dirs;
    for (const d of walkDirs(fs, a)) {
      const children = tget(dirs, d)!;
      dirs = tWith(withoutEntry(dirs, d), b + d.slice(a.length), children);
    }
    out = { dirs };
  }
  return out;
}
