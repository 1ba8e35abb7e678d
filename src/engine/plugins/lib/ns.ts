/** containernetworking/plugins pkg/ns: opening a network namespace by path. */
import type { NetnsId } from '../../brand';
import * as vfs from '../../fs/vfs';
import type { Sys } from '../../os/sys';
import { GoError } from '../../cni/errors';
import { q } from '../../gofmt';
import { tget } from '../../state/table';

/** NSPathNotExistErr: the path does not exist (DEL treats this as "already gone"). */
export class NSPathNotExistErr extends GoError {}
/** NSPathNotNSErr: the path exists but is not a namespace. */
export class NSPathNotNSErr extends GoError {}

/** Resolves the bind mount for a path, treating /var/run as /run like a real node. */
export function netnsAtPath(sys: Sys, path: string): NetnsId | undefined {
  return sys.netnsAt(path);
}

const TMPFS_MAGIC = '1021994';
const EXT4_MAGIC = 'ef53';

/** ns.GetNS: statfs the path, check it is nsfs (or procfs), open it. Returns the netns id. */
export function getNS(sys: Sys, path: string): NetnsId {
  const id = netnsAtPath(sys, path);
  if (id && tget(sys.kernel.netns, id)) return id;
  const clean = vfs.cleanPath(path);
  const alt = clean.startsWith('/var/run/') ? clean.slice(4) : `/var${clean}`;
  const entry = vfs.stat(sys.fs, clean) ?? vfs.stat(sys.fs, alt);
  if (path === '' || !entry) {
    throw new NSPathNotExistErr(`failed to Statfs ${q(path)}: no such file or directory`);
  }
  const magic =
    clean.startsWith('/run/') || clean.startsWith('/var/run/') || clean.startsWith('/tmp/')
      ? TMPFS_MAGIC
      : EXT4_MAGIC;
  throw new NSPathNotNSErr(`unknown FS magic on ${q(path)}: ${magic}`);
}
