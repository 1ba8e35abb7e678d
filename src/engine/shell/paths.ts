/**
 * Path resolution for the shell and its commands.
 */
import { cleanPath } from '../fs/vfs';

/**
 * Absolute path of `p` from `cwd`, cleaned (symbolic links, such as /var/run -> /run, are the
 * file system's to follow).
 */
export function resolvePath(cwd: string, p: string): string {
  return cleanPath(p.startsWith('/') ? p : `${cwd}/${p}`);
}

/** Where `ip netns` keeps its mount files, as iproute2 names it in messages. */
export const NETNS_RUN_DIR = '/run/netns';
