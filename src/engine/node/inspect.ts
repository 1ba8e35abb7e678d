/**
 * What tools and views read from a node, as plain values from its state: the host's links and
 * the veths that lead to pods, namespace mounts, the sandboxes being set up or torn down right
 * now, iptables rules tagged with a sandbox id, host-local's reservations and libcni's result
 * cache. The cluster's audit, the fault catalogue (`faults/observe.ts`, `inject.ts`), the scenario
 * report, course goals and the views read a node through here, so that each reads it the same way.
 *
 * The disk layouts belong to their owners: host-local's to `plugins/host-local-disk.ts`, libcni's
 * result cache to `libcni/cache.ts`; this module re-exports their readers.
 */
import * as vfs from '../fs/vfs';
import { linksOf } from '../kernel/kernel';
import type { KernelState, Link, Netns } from '../kernel/types';
import type { ActorRecord } from '../sim/world';
import { tget, tkeys, tvalues, type Table } from '../state/table';

export {
  type Reservation,
  reservations,
  reservationsIn,
  reservationsOf,
} from '../plugins/host-local-disk';
export {
  parseResultCacheName,
  resultCacheFiles as cacheFiles,
  resultCachePath,
  resultsDir,
} from '../libcni/cache';

// ---------------------------------------------------------------------------------------------
// Namespaces and links

/** Where containerd mounts its sandboxes' namespaces (cni-<uuid>). */
export const SANDBOX_NETNS_PREFIX = '/var/run/netns/cni-';

/** The namespace mounted at `path`, if the mount and the namespace exist. */
export function netnsOfMount(k: KernelState, path: string): Netns | undefined {
  const id = tget(k.mounts, path);
  return id ? tget(k.netns, id) : undefined;
}

/** A link's addresses as `ip -br addr` shows them (local/prefix), of one family or all. */
export function addrTexts(l: Link, family?: 4 | 6): string[] {
  return l.addrs
    .filter((a) => family === undefined || a.family === family)
    .map((a) => `${a.local}/${a.prefix}`);
}

/** The paths of the namespace mounts, sorted. */
export function netnsMounts(k: KernelState): string[] {
  return tkeys(k.mounts).sort();
}

/** The host's own namespace. */
export function hostNetns(k: KernelState): Netns {
  return tget(k.netns, k.root)!;
}

/** The host ends of veths whose other end is in another namespace (a pod's, usually). */
export function hostVeths(k: KernelState): Link[] {
  return linksOf(hostNetns(k)).filter((l) => l.kind === 'veth' && l.peer && l.peer.ns !== k.root);
}

/**
 * The host veths whose other end is in a namespace no sandbox owns: owners are the namespaces
 * mounted at `netnsPaths`, and any namespace a pause process of one of `ids` is still inside (a
 * namespace whose mount is gone lives on while a process holds it).
 */
export function orphanVeths(
  k: KernelState,
  netnsPaths: Iterable<string>,
  ids: ReadonlySet<string>,
): Link[] {
  const owned = new Set<string>();
  for (const p of netnsPaths) {
    const id = tget(k.mounts, p);
    if (id) owned.add(id);
  }
  for (const ns of tvalues(k.netns)) {
    if (ns.holders?.some((h) => h.startsWith('pause:') && ids.has(h.slice(6)))) owned.add(ns.id);
  }
  return hostVeths(k).filter((l) => !owned.has(l.peer!.ns));
}

/** containerd's sandbox namespace mounts (cni-<uuid>) that are not among `owned`, in mount order. */
export function orphanNetnsMounts(k: KernelState, owned: ReadonlySet<string>): string[] {
  return tkeys(k.mounts).filter(
    (p) => (p.startsWith(SANDBOX_NETNS_PREFIX) || CRIO_NETNS.test(p)) && !owned.has(p),
  );
}

/** CRI-O pins a sandbox's namespace at /var/run/netns/<uuid> (nsmgr_linux.go). */
const CRIO_NETNS =
  /^\/var\/run\/netns\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// ---------------------------------------------------------------------------------------------
// Sandboxes in flight

/** The sandbox machine's states in which a sandbox owns its namespace and files before (or after) containerd lists it as ready. */
const INFLIGHT = new Set(['settingUpNetwork', 'cleaningUp', 'startingPause']);

export interface Inflight {
  /** Their sandbox ids. */
  ids: Set<string>;
  /** Their namespace mount paths. */
  netns: Set<string>;
  /** The ids, sorted and joined: equal keys, equal sets of ids. */
  key: string;
}

export const NO_INFLIGHT: Inflight = { ids: new Set(), netns: new Set(), key: '' };

/** Sandboxes being set up or cleaned up right now, per node: they own their namespace and files too. */
export function inflightSandboxes(actors: Table<ActorRecord>): Map<string, Inflight> {
  const out = new Map<string, Inflight>();
  for (const a of tvalues(actors)) {
    if (a.machine !== 'sandbox' || !INFLIGHT.has(String(a.value))) continue;
    const ctx = a.context as { node: string; id?: string; netns?: string };
    let f = out.get(ctx.node);
    if (!f) out.set(ctx.node, (f = { ids: new Set(), netns: new Set(), key: '' }));
    if (ctx.id) f.ids.add(ctx.id);
    if (ctx.netns) f.netns.add(ctx.netns);
  }
  for (const f of out.values()) f.key = [...f.ids].sort().join(',');
  return out;
}

// ---------------------------------------------------------------------------------------------
// iptables

/**
 * The sandbox id of an iptables-save rule the plugins tagged with one (bridge's ipMasq rules and
 * portmap's DNAT rules carry the comment `id: "<64 hex>"`).
 */
export function taggedRuleId(line: string): string | undefined {
  return /id: \\"([0-9a-f]{64})\\"/.exec(line)?.[1];
}

// ---------------------------------------------------------------------------------------------
// Files

/** The names in a directory, sorted; none when it is not a directory. */
export function dirNames(fs: vfs.FsState, dir: string): string[] {
  return vfs.stat(fs, dir)?.kind === 'dir' ? vfs.readDir(fs, dir) : [];
}
