/**
 * A network namespace's lifetime: it exists while a bind mount (/var/run/netns/...) refers to it
 * or a process is inside it. `ip netns del` only removes the mount; a pod's namespace then lives
 * on, with its links, until the pod's pause process exits.
 */
import * as vfs from '../fs/vfs';
import { destroyNetns } from './namespaces';
import type { KernelState } from './types';
import { tdel, tentries, tget, tscanPeek } from '../state/table';

/**
 * The id of the namespace bind-mounted at `path`, whichever name the path gives the mount point
 * (/run/netns/x and /var/run/netns/x are one file: /var/run is a link to /run).
 */
export function mountAt(k: KernelState, fs: vfs.FsState, path: string): string | undefined {
  const clean = vfs.cleanPath(path);
  const id = tget(k.mounts, clean);
  if (id) return id;
  const real = vfs.resolvePath(fs, clean);
  for (const [p, nid] of tentries(k.mounts)) if (vfs.resolvePath(fs, p) === real) return nid;
  return undefined;
}

function mounted(k: KernelState, id: string): boolean {
  // Only reads, through no draft (state/table.ts tscanPeek): one mount per pod.
  for (const [, nid] of tscanPeek(k.mounts)) if (nid === id) return true;
  return false;
}

/** Destroys the namespace if nothing keeps it alive any more. Returns whether it did. */
export function collectNetns(k: KernelState, id: string): boolean {
  const ns = tget(k.netns, id);
  if (!ns || id === k.root) return false;
  if (mounted(k, id) || (ns.holders?.length ?? 0) > 0) return false;
  destroyNetns(k, id);
  return true;
}

/** A process enters the namespace (setns / clone into it). */
export function holdNetns(k: KernelState, id: string, holder: string): void {
  const ns = tget(k.netns, id);
  if (!ns) return;
  if (!(ns.holders ?? []).includes(holder)) ns.holders = [...(ns.holders ?? []), holder];
}

/** The process left or exited; the namespace goes if nothing else holds it. */
export function releaseNetns(k: KernelState, id: string, holder: string): boolean {
  const ns = tget(k.netns, id);
  if (!ns) return false;
  ns.holders = (ns.holders ?? []).filter((h) => h !== holder);
  return collectNetns(k, id);
}

/** umount of a netns bind mount: the namespace goes only if nothing else holds it. */
export function unmountNetnsPath(k: KernelState, path: string): { id: string; destroyed: boolean } {
  const id = tget(k.mounts, path);
  if (!id) throw new Error(`${path} is not a namespace mount`);
  tdel(k.mounts, path);
  return { id, destroyed: collectNetns(k, id) };
}
