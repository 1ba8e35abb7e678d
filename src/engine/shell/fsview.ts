/**
 * The node's files as the read commands (ls, cat, head, grep, find, ...) see them: the node's
 * filesystem, with /proc/sys made from the kernel's sysctls of the namespace the command runs in
 * (as procfs shows a process its own network namespace), plus what `ls -l` needs that the
 * filesystem model does not keep: sizes, link counts, blocks and modification times.
 *
 * Times: a file's modification time is the virtual time of the event that wrote it (its entry in
 * the filesystem state is replaced on every write), a directory's the last time an entry was
 * added to or removed from it; /proc/sys shows "now". Everything is owned by root.
 * Filesystems: /run (and so /var/run, a link to it) is tmpfs (a directory's size is 20 bytes per entry plus 40),
 * /proc is procfs (sizes 0, one link), everything else ext4 (directories 4096 bytes, 4 KiB blocks).
 */
import { fsKind } from '../fs/kind';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { Simulation } from '../sim/world';
import { toUtf8Bytes } from './commands/text';
import type { CommandContext } from './types';

export interface ViewEntry {
  /** `link` only from lstat: stat follows symbolic links. */
  kind: 'file' | 'dir' | 'link';
  mode: number;
  /** Regular file content (empty for nsfs and unreadable files); a link's target. */
  data: string;
  /** A network namespace mount point: opening it for reading fails (EINVAL). */
  nsfs: boolean;
  /** A /proc/sys file or directory. */
  proc: boolean;
}

const PROC_SYS = '/proc/sys';

function inProcSys(p: string): boolean {
  return p === PROC_SYS || p.startsWith(PROC_SYS + '/');
}

export { fsKind };

export class FsView {
  private procKeys: string[] | null = null;

  constructor(private readonly ctx: CommandContext) {}

  private keys(): string[] {
    this.procKeys ??= K.sysctlKeys(this.ctx.kernel(), this.ctx.netns);
    return this.procKeys;
  }

  /** The /proc/sys entry at `p` (a file per key, a directory per key prefix). */
  private procEntry(p: string): ViewEntry | undefined {
    if (p === PROC_SYS) return { kind: 'dir', mode: 0o555, data: '', nsfs: false, proc: true };
    const key = p.slice(PROC_SYS.length + 1).replace(/\//g, '.');
    const v = K.sysctlGet(this.ctx.kernel(), this.ctx.netns, key);
    if (v !== undefined)
      return { kind: 'file', mode: 0o644, data: v + '\n', nsfs: false, proc: true };
    if (this.keys().some((k) => k.startsWith(key + '.')))
      return { kind: 'dir', mode: 0o555, data: '', nsfs: false, proc: true };
    return undefined;
  }

  stat(p: string): ViewEntry | undefined {
    if (inProcSys(p)) return this.procEntry(p);
    const e = vfs.stat(this.ctx.fs(), p);
    if (!e) return undefined;
    if (e.kind === 'dir') return { kind: 'dir', mode: e.mode, data: '', nsfs: false, proc: false };
    return { kind: 'file', mode: e.mode, data: e.data, nsfs: !!e.nsfs, proc: false };
  }

  /** The entry at `p` itself: a symbolic link is not followed (kind `link`). */
  lstat(p: string): ViewEntry | undefined {
    if (inProcSys(p)) return this.procEntry(p);
    const e = vfs.lstat(this.ctx.fs(), p);
    if (e?.kind !== 'symlink') return this.stat(p);
    return { kind: 'link', mode: e.mode, data: e.target, nsfs: false, proc: false };
  }

  /** Names in a directory, sorted bytewise (what ls, find and globbing show in the C locale). */
  readDir(p: string): string[] {
    if (inProcSys(p)) {
      const prefix = p === PROC_SYS ? '' : p.slice(PROC_SYS.length + 1).replace(/\//g, '.') + '.';
      const names = new Set<string>();
      for (const k of this.keys()) {
        if (!k.startsWith(prefix)) continue;
        names.add(k.slice(prefix.length).split('.')[0]!);
      }
      return [...names].sort(vfs.byteCompare);
    }
    const names = vfs.readDir(this.ctx.fs(), p);
    if (p === '/proc' && !names.includes('sys')) names.push('sys');
    return names.sort(vfs.byteCompare);
  }

  /** Size in bytes as stat() reports it. */
  size(p: string, e: ViewEntry): number {
    if (e.proc || e.nsfs) return 0;
    if (e.kind !== 'dir') return toUtf8Bytes(e.data).length;
    const kind = fsKind(vfs.resolvePath(this.ctx.fs(), p));
    if (kind === 'tmpfs') return 40 + 20 * this.readDir(p).length;
    return 4096;
  }

  /** st_nlink. */
  links(p: string, e: ViewEntry): number {
    if (e.kind !== 'dir' || e.proc) return 1;
    return 2 + this.readDir(p).filter((n) => this.stat(vfs.joinPath(p, n))?.kind === 'dir').length;
  }

  /** Allocated 1 KiB blocks, as `ls -s` / `total` count them. */
  blocks(p: string, e: ViewEntry): number {
    if (e.proc || e.nsfs || e.kind === 'link') return 0;
    if (e.kind === 'dir') return fsKind(vfs.resolvePath(this.ctx.fs(), p)) === 'tmpfs' ? 0 : 4;
    const size = this.size(p, e);
    return Math.ceil(size / 4096) * 4;
  }

  /** Modification time (µs of virtual time). */
  mtime(p: string, e: ViewEntry): number {
    const sim = this.ctx.sim;
    if (e.proc) return sim.state.clock;
    return modificationTime(sim, this.ctx.nodeName, p, e.kind);
  }
}

/**
 * The virtual time at which the entry at `p` got its current content: the earliest recorded
 * state from which on it is the same object (a directory: the same set of names).
 */
function modificationTime(
  sim: Simulation,
  node: string,
  path: string,
  kind: ViewEntry['kind'],
): number {
  const states = sim.states;
  const now = sim.state.nodes[node]?.fs;
  if (!now) return 0;
  const p = kind === 'link' ? path : vfs.resolvePath(now, path);
  const same = (fs: vfs.FsState | undefined): boolean => {
    if (!fs) return false;
    if (kind !== 'dir') return vfs.lstat(fs, p) === vfs.lstat(now, p);
    const a = vfs.dirChildren(fs, p);
    const b = vfs.dirChildren(now, p);
    if (!a || !b) return false;
    if (a === b) return true;
    const ka = vfs.namesIn(fs, p);
    return ka.length === b.size && ka.every((k) => vfs.entryIn(now, p, k) !== undefined);
  };
  // Binary search for the first state of the run of equal ones at the end.
  let lo = 0;
  let hi = states.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (same(states[mid]!.nodes[node]?.fs)) hi = mid;
    else lo = mid + 1;
  }
  if (lo === 0) return same(sim.initial.nodes[node]?.fs) ? 0 : (states[0]?.clock ?? 0);
  if (lo >= states.length) return sim.state.clock;
  return states[lo]!.clock;
}
