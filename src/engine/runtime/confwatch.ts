/**
 * containerd's watch on the CNI conf dir (`cni_conf_syncer.go` syncLoop): the fsnotify (inotify)
 * events a change of the directory sends, and which of them make containerd reload.
 *
 * Every release from 1.6.0 to 2.3.4 skips Create and Chmod events (`event.Op&(fsnotify.Chmod|
 * fsnotify.Create) > 0` in 1.6, `event.Has(fsnotify.Chmod) || event.Has(fsnotify.Create)` from
 * 1.7) and reloads on Write, Rename and Remove. So:
 * - a file written or copied in sends Create, then Write (when it has content): reloaded;
 * - a file renamed in from another directory of the same file system sends only Create
 *   (IN_MOVED_TO): not loaded until another event or a restart;
 * - a rename inside the directory sends Rename for the old name (IN_MOVED_FROM): reloaded;
 * - `mv` from another file system copies and unlinks: Create, then Write.
 */
import * as vfs from '../fs/vfs';
import { tentries, tget } from '../state/table';

export type FsnotifyOp = 'CREATE' | 'WRITE' | 'REMOVE' | 'RENAME' | 'CHMOD';

export interface FsnotifyEvent {
  path: string;
  op: FsnotifyOp;
}

/** Whether containerd reloads its CNI configuration on this event. */
export function reloadsOn(op: FsnotifyOp): boolean {
  return op !== 'CREATE' && op !== 'CHMOD';
}

/**
 * Event.String() of the fsnotify the release vendors: v1.4.9 (containerd 1.6) prints
 * `"<path>": WRITE`; v1.6.0 and later (1.7, 2.x) print `%-13s %q`, the op then the path.
 */
export function fsnotifyEventText(minor: string, ev: FsnotifyEvent): string {
  const path = JSON.stringify(ev.path);
  return minor === '1.6' ? `${path}: ${ev.op}` : `${ev.op.padEnd(13)} ${path}`;
}

/** Where `entry` was in `before` (a path whose directory changed since), other than `not`. */
function origin(
  before: vfs.FsState,
  after: vfs.FsState,
  entry: vfs.FsNode,
  not: string,
): string | null {
  for (const [dir, children] of tentries(before.dirs)) {
    if (tget(after.dirs, dir) === children) continue;
    for (const [name, e] of tentries(children)) {
      const p = vfs.joinPath(dir, name);
      if (e === entry && p !== not) return p;
    }
  }
  return null;
}

function filesIn(fs: vfs.FsState, dir: string): Map<string, vfs.FsFile> {
  const out = new Map<string, vfs.FsFile>();
  const children = tget(fs.dirs, dir);
  if (!children) return out;
  for (const [name, e] of tentries(children)) {
    if (e.kind === 'file') out.set(vfs.joinPath(dir, name), e);
  }
  return out;
}

/**
 * The events the conf dir `dir` (a real path) sends between two states of the node's files, in
 * path order. A file keeps its identity (the same entry object) when it is renamed, which is how
 * a rename is told from a copy. `fsOf` names the file system a path is on.
 */
export function confDirEvents(
  before: vfs.FsState,
  after: vfs.FsState,
  dir: string,
  fsOf: (path: string) => string,
): FsnotifyEvent[] {
  if (before === after) return [];
  const b = filesIn(before, dir);
  const a = filesIn(after, dir);
  const events: FsnotifyEvent[] = [];
  const renamedFrom = new Set<string>();
  for (const [p, e] of a) {
    const old = b.get(p);
    if (old === e) continue;
    const from = origin(before, after, e, p);
    if (from !== null && vfs.dirname(from) === dir) {
      // A rename inside the directory: IN_MOVED_FROM for the old name, IN_MOVED_TO for the new.
      renamedFrom.add(from);
      events.push({ path: from, op: 'RENAME' }, { path: p, op: 'CREATE' });
    } else if (from !== null && fsOf(from) === fsOf(dir)) {
      // Renamed in from elsewhere on the same file system (over an old file or not): IN_MOVED_TO.
      events.push({ path: p, op: 'CREATE' });
    } else if (!old) {
      // Written or copied in (or moved across file systems, which copies).
      events.push({ path: p, op: 'CREATE' });
      if (e.data !== '') events.push({ path: p, op: 'WRITE' });
    } else if (old.data !== e.data) {
      events.push({ path: p, op: 'WRITE' });
    } else if (old.mode !== e.mode) {
      events.push({ path: p, op: 'CHMOD' });
    }
  }
  for (const [p, e] of b) {
    if (a.has(p) || renamedFrom.has(p)) continue;
    // Renamed out of the directory (IN_MOVED_FROM) or deleted (IN_DELETE).
    const to = origin(after, before, e, p);
    events.push({ path: p, op: to !== null ? 'RENAME' : 'REMOVE' });
  }
  return events
    .map((ev, i) => ({ ev, i }))
    .sort((x, y) => vfs.byteCompare(x.ev.path, y.ev.path) || x.i - y.i)
    .map((x) => x.ev);
}
