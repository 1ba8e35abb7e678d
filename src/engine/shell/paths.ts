/**
 * Path resolution for the shell and its commands.
 */
import { cleanPath } from '../fs/vfs';

/**
 * Absolute path of `p` from `cwd`. On Debian /var/run is a link to /run; the engine keeps
 * namespace mounts at /var/run/netns (setup.ts), so /run/netns/... is read as /var/run/netns/....
 */
export function resolvePath(cwd: string, p: string): string {
  const abs = cleanPath(p.startsWith('/') ? p : `${cwd}/${p}`);
  if (abs === '/run/netns' || abs.startsWith('/run/netns/')) return '/var' + abs;
  return abs;
}

/** Where `ip netns` keeps its mount files, as iproute2 names it in messages. */
export const NETNS_RUN_DIR = '/run/netns';
