/**
 * Network namespaces: the kernel's initial state, creating a namespace (with its loopback
 * device), bind mounts by path, and destroying one (its devices go; a veth takes its peer along).
 */
import { emptyTable, tdel, tget, thas, tscanPeek, tset } from '../state/table';
import { KernelError } from './errors';
import { nameChunk, nameChunkOf, newLink, linksOf, ZERO_MAC, type Touched } from './device';
import { emptyIptables } from './iptables/provider';
import { deleteLinkRaw } from './links';
import { linkwatch } from './linkwatch';
import type { KernelState, Link, Netns } from './types';

export function emptyKernel(): KernelState {
  const k: KernelState = {
    netns: emptyTable(),
    mounts: emptyTable(),
    root: '',
    nextInode: 4026531840,
    now: 0,
    lwPending: [],
  };
  k.root = createNetns(k);
  return k;
}

export function createNetns(k: KernelState): string {
  const inode = k.nextInode;
  k.nextInode += 1 + (inode === 4026531840 ? 256 : 0);
  const id = `ns${inode}`;
  const lo: Link = newLink(1, 'lo', 'loopback', ZERO_MAC, 65536);
  lo.macAssign = 'perm';
  const ns: Netns = {
    id,
    inode,
    links: { 1: lo },
    names: { [nameChunk('lo')]: nameChunkOf({ lo: 1 }) },
    nextIfindex: 2,
    routes: [],
    sysctl: {},
    iptables: emptyIptables(),
  };
  tset(k.netns, id, ns);
  return id;
}

export function mountNetns(k: KernelState, path: string, id: string): void {
  if (tget(k.mounts, path)) throw new KernelError('EEXIST');
  tset(k.mounts, path, id);
}

export function unmountNetns(k: KernelState, path: string): void {
  if (!thas(k.mounts, path)) throw new KernelError('EINVAL');
  tdel(k.mounts, path);
}

/** Destroys a namespace: its links go away (a veth takes its peer with it). */
export function destroyNetns(k: KernelState, id: string): void {
  const ns = tget(k.netns, id);
  if (!ns) return;
  const touched: Touched = [];
  for (const l of linksOf(ns)) {
    if (!ns.links[l.ifindex] || l.kind === 'loopback') continue;
    if (l.peer) {
      const pns = tget(k.netns, l.peer.ns);
      const pl = pns?.links[l.peer.ifindex];
      if (pns && pl?.master != null) touched.push([pns.id, pl.master]);
    }
    deleteLinkRaw(k, ns, l);
  }
  const paths: string[] = [];
  for (const [p, nid] of tscanPeek(k.mounts)) if (nid === id) paths.push(p);
  for (const p of paths) tdel(k.mounts, p);
  tdel(k.netns, id);
  k.lwPending = k.lwPending.filter((x) => !x.startsWith(`${id}/`));
  linkwatch(k, touched);
}
