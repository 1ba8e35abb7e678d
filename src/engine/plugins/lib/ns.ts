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

/** The namespace bind-mounted at a path (symbolic links followed, as open(2) does). */
export function netnsAtPath(sys: Sys, path: string): NetnsId | undefined {
  return sys.netnsAt(path);
}

const TMPFS_MAGIC = '1021994';
const EXT4_MAGIC = 'ef53';

/** ns.GetNS: statfs the path, check it is nsfs (or procfs), open it. Returns the netns id. */
export function getNS(sys: Sys, path: string): NetnsId {
  const id = netnsAtPath(sys, path);
  if (id && tget(sys.kernel.netns, id)) return id;
  const entry = path === '' ? undefined : vfs.stat(sys.fs, path);
  if (!entry) {
    throw new NSPathNotExistErr(`failed to Statfs ${q(path)}: no such file or directory`);
  }
  const real = vfs.resolvePath(sys.fs, path);
  // Debian bookworm mounts only /run (and so /var/run) as tmpfs; /tmp is on the root ext4.
  const magic = real.startsWith('/run/') ? TMPFS_MAGIC : EXT4_MAGIC;
  throw new NSPathNotNSErr(`unknown FS magic on ${q(path)}: ${magic}`);
}
