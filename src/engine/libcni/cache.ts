/**
 * libcni's result cache on disk (cacheAdd / getCachedResult): one file per attachment,
 * <cacheDir, default /var/lib/cni>/results/<network>-<containerID>-<ifname>, JSON of kind
 * cniCacheV1. libcni (api.ts) writes it; the readers here are for whoever looks at a node from
 * outside (the fault catalogue, the audit, course goals, views).
 */
import * as vfs from '../fs/vfs';

export const DEFAULT_CACHE_DIR = '/var/lib/cni';

/** <cacheDir>/results. */
export function resultsDir(cacheDir = ''): string {
  return vfs.joinPath(cacheDir || DEFAULT_CACHE_DIR, 'results');
}

/** The cache file of an attachment (no checks: libcni's cachePath refuses empty parts). */
export function resultCachePath(
  network: string,
  containerId: string,
  ifName: string,
  cacheDir = '',
): string {
  return vfs.joinPath(resultsDir(cacheDir), `${network}-${containerId}-${ifName}`);
}

/**
 * The container id (64 hex digits, as runtimes make them) and ifname at the end of a cache file's
 * name; null for a name that does not end so. The network's name may itself contain "-".
 */
export function parseResultCacheName(name: string): { containerId: string; ifName: string } | null {
  const m = /-([0-9a-f]{64})-([^-]+)$/.exec(name);
  return m ? { containerId: m[1]!, ifName: m[2]! } : null;
}

/** The names in <cacheDir>/results, sorted (none when there is no such directory). */
export function resultCacheFiles(fs: vfs.FsState, cacheDir = ''): string[] {
  const dir = resultsDir(cacheDir);
  return vfs.stat(fs, dir)?.kind === 'dir' ? vfs.readDir(fs, dir) : [];
}
