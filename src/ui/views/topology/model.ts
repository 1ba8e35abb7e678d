/**
 * What the topology shows, as pure functions of world states: per node the host namespace with
 * its links (bridges, host ends of veth pairs), the pods' namespaces with theirs, what changed
 * between two steps, and a layout.
 *
 * The layout depends only on the structure (which namespaces exist, which links each holds and
 * which veth ends face each other), so it is computed again only when that changes, not at every
 * step. Everything here relies on the world being immutable with structural sharing: an object
 * that did not change between two states is the same object, so "what changed" is a walk of
 * identity comparisons.
 */
import {
  dirChildren,
  tchangedKeys,
  tget,
  tentries,
  tkeys,
  tvalues,
  type FsState,
  type KernelState,
  type Link,
  type Netns,
  type NodeState,
  type Route,
  type WorldState,
  loadEngine,
} from '../../../engine';

export interface PodNs {
  /** Namespace id (ns4026532097). */
  id: string;
  /** Bind mount path(s) under /var/run/netns, if any. */
  mounts: string[];
  /** The pod whose sandbox owns it (namespace/name), if containerd knows. */
  pod: string | null;
  /** ifindexes of the links in the host namespace whose veth peer is in this namespace. */
  hostPeers: number[];
}

export interface NodeStructure {
  name: string;
  root: string;
  /**
   * Host links that are not the host end of a pod's veth (lo, cni0, ...), by ifindex: the NICs
   * on the underlay first, then VXLAN devices, then the others in ifindex order.
   */
  hostLinks: number[];
  /** The host links plugged into the underlay (ether links with a segment: eth0). */
  uplinks: number[];
  /** VXLAN devices (flannel.1): their tunnels run over the underlay. */
  tunnels: number[];
  pods: PodNs[];
  /** Largest number of links in one pod namespace (sizes the cells). */
  podLinks: number;
}

/** The network joining the nodes (WorldState.underlay), as the topology draws it. */
export interface UnderlayInfo {
  segment: string;
  cidr: string;
  gateway: string;
  mode: 'host-gw' | 'vxlan' | 'none';
}

export interface Structure {
  /** Equal keys: equal layouts. */
  key: string;
  nodes: NodeStructure[];
  /** The underlay, when the scenario wires the nodes to one (its `network`). */
  underlay: UnderlayInfo | null;
}

/**
 * The pod that owns each mounted namespace of a node: from containerd's sandboxes, and from the
 * sandbox actors of sandboxes still being set up (containerd records a sandbox only once it is
 * ready, and the namespace exists from the start of RunPodSandbox).
 */
export function podsOf(node: NodeState, actors?: WorldState['actors']): Map<string, string> {
  const byNs = new Map<string, string>();
  const k = node.kernel;
  for (const a of actors ? tvalues(actors) : []) {
    if (a.machine !== 'sandbox') continue;
    const ctx = a.context as { node?: string; netns?: string; pod?: string };
    if (ctx.node !== node.name || !ctx.netns || !ctx.pod) continue;
    const id = tget(k.mounts, ctx.netns);
    if (id) byNs.set(id, ctx.pod);
  }
  for (const sb of node.containerd ? tvalues(node.containerd.sandboxes) : []) {
    const id = tget(k.mounts, sb.netns);
    if (id) byNs.set(id, `${sb.pod.namespace}/${sb.pod.name}`);
  }
  return byNs;
}

function ownersKey(m: Map<string, string>): string {
  let s = '';
  for (const [k, v] of m) s += `${k}=${v};`;
  return s;
}

/**
 * The structure of one node's network: namespaces in creation order, the host links, and which
 * host veth ends lead into which namespace.
 */
export function nodeStructure(node: NodeState, owners?: Map<string, string>): NodeStructure {
  const k = node.kernel;
  const root = tget(k.netns, k.root)!;
  const pods = owners ?? podsOf(node);
  const mountsOf = new Map<string, string[]>();
  for (const [path, id] of tentries(k.mounts)) {
    const l = mountsOf.get(id);
    if (l) l.push(path);
    else mountsOf.set(id, [path]);
  }
  const others = tvalues(k.netns)
    .filter((n) => n.id !== k.root)
    .sort((a, b) => a.inode - b.inode);
  const index = new Map<string, PodNs>();
  const podNs: PodNs[] = others.map((n) => {
    const p: PodNs = {
      id: n.id,
      mounts: (mountsOf.get(n.id) ?? []).sort(),
      pod: pods.get(n.id) ?? null,
      hostPeers: [],
    };
    index.set(n.id, p);
    return p;
  });
  const uplinks: number[] = [];
  const tunnels: number[] = [];
  const rest: number[] = [];
  for (const l of Object.values(root.links)) {
    const target = l.peer && l.peer.ns !== k.root ? index.get(l.peer.ns) : undefined;
    if (target) target.hostPeers.push(l.ifindex);
    else if (l.kind === 'ether' && l.segment) uplinks.push(l.ifindex);
    else if (l.kind === 'vxlan') tunnels.push(l.ifindex);
    else rest.push(l.ifindex);
  }
  let podLinks = 1;
  for (const n of others) podLinks = Math.max(podLinks, Object.keys(n.links).length);
  return {
    name: node.name,
    root: k.root,
    hostLinks: [...uplinks, ...tunnels, ...rest],
    uplinks,
    tunnels,
    pods: podNs,
    podLinks,
  };
}

function underlayOf(state: WorldState): UnderlayInfo | null {
  const u = state.underlay;
  return u ? { segment: u.segment, cidr: u.cidr, gateway: u.gateway, mode: u.mode } : null;
}

function underlayKey(u: UnderlayInfo | null): string {
  return u ? `underlay ${u.segment} ${u.cidr} ${u.gateway} ${u.mode}\n` : '';
}

function structureKey(nodes: NodeStructure[], underlay: UnderlayInfo | null = null): string {
  return (
    underlayKey(underlay) +
    nodes
      .map(
        (n) =>
          `${n.name}|${n.hostLinks.join(',')}|${n.uplinks.join(',')}|${n.tunnels.join(',')}|${n.podLinks}|${n.pods
            .map((p) => `${p.id}:${p.hostPeers.join('.')}:${p.pod ?? ''}`)
            .join(';')}`,
      )
      .join('\n')
  );
}

export function structureOf(state: WorldState): Structure {
  const nodes = Object.values(state.nodes)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((n) => nodeStructure(n, podsOf(n, state.actors)));
  const underlay = underlayOf(state);
  return { key: structureKey(nodes, underlay), nodes, underlay };
}

/**
 * The structure of a step: `cur`'s, with what `prev` had and `cur` lost kept in place (pod
 * namespaces, host links, host ends of veths), so that the step that removes them can draw them
 * ghosted. `cur` itself when nothing was lost, so that layouts stay cached.
 */
export function mergeStructures(prev: Structure | null, cur: Structure): Structure {
  if (!prev || prev === cur || prev.key === cur.key) return cur;
  let lost = false;
  const nodes = cur.nodes.map((n) => {
    const o = prev.nodes.find((x) => x.name === n.name);
    if (!o || o === n) return n;
    const hostLinks = [...n.hostLinks];
    for (const i of o.hostLinks) if (!hostLinks.includes(i)) hostLinks.push(i);
    const byId = new Map(n.pods.map((p) => [p.id, p]));
    const pods: PodNs[] = [];
    // Previous order first (a removed namespace keeps its place), then the new ones.
    for (const p of o.pods) {
      const c = byId.get(p.id);
      if (!c) {
        pods.push(p);
        continue;
      }
      const peers = [...c.hostPeers];
      for (const i of p.hostPeers) if (!peers.includes(i)) peers.push(i);
      pods.push(
        peers.length === c.hostPeers.length ? c : { ...c, hostPeers: peers, pod: c.pod ?? p.pod },
      );
      byId.delete(p.id);
    }
    for (const c of byId.values()) pods.push(c);
    const m: NodeStructure = { ...n, hostLinks, pods, podLinks: Math.max(n.podLinks, o.podLinks) };
    if (structureKey([m]) === structureKey([n])) return n;
    lost = true;
    return m;
  });
  if (!lost) return cur;
  return { key: structureKey(nodes, cur.underlay), nodes, underlay: cur.underlay };
}

/**
 * Caches structures by the objects they are computed from: a node whose namespaces, mounts and
 * sandboxes are the same objects as last time has the same structure, so stepping through
 * events that only change addresses, flags or files costs a few comparisons.
 */
export class StructureCache {
  private readonly perNode = new Map<
    string,
    {
      netns: unknown;
      mounts: unknown;
      owners: string;
      s: NodeStructure;
      linkSets: unknown[];
    }
  >();
  /** Owners of namespaces per node, recomputed when the actors, sandboxes or mounts change. */
  private readonly owners = new Map<
    string,
    { actors: unknown; sandboxes: unknown; mounts: unknown; map: Map<string, string>; key: string }
  >();

  private ownersOf(state: WorldState, node: NodeState) {
    const o = this.owners.get(node.name);
    const sandboxes = node.containerd?.sandboxes;
    if (
      o &&
      o.actors === state.actors &&
      o.sandboxes === sandboxes &&
      o.mounts === node.kernel.mounts
    )
      return o;
    const map = podsOf(node, state.actors);
    const next = {
      actors: state.actors,
      sandboxes,
      mounts: node.kernel.mounts,
      map,
      key: ownersKey(map),
    };
    this.owners.set(node.name, next);
    return next;
  }
  private last: Structure | null = null;

  get(state: WorldState): Structure {
    const names = Object.keys(state.nodes).sort();
    const underlay = underlayOf(state);
    let changed =
      this.last === null ||
      this.last.nodes.length !== names.length ||
      underlayKey(this.last.underlay) !== underlayKey(underlay);
    const nodes = names.map((name, i) => {
      const node = state.nodes[name]!;
      const k = node.kernel;
      const prev = this.perNode.get(name);
      const owners = this.ownersOf(state, node);
      if (prev && prev.mounts === k.mounts && prev.owners === owners.key) {
        if (prev.netns === k.netns) return prev.s;
        // Same namespaces and same link sets in each: only link contents changed.
        const nss = tvalues(k.netns);
        if (nss.length === prev.linkSets.length / 2 && sameLinkSets(nss, prev.linkSets)) {
          prev.netns = k.netns;
          return prev.s;
        }
      }
      const s = nodeStructure(node, owners.map);
      const old = this.last?.nodes[i];
      const reuse = old && old.name === name && structureKey([old]) === structureKey([s]);
      const keep = reuse ? old : s;
      this.perNode.set(name, {
        netns: k.netns,
        mounts: k.mounts,
        owners: owners.key,
        s: keep,
        linkSets: linkSetsOf(tvalues(k.netns)),
      });
      if (!reuse) changed = true;
      return keep;
    });
    if (!changed && this.last) return this.last;
    this.last = { key: structureKey(nodes, underlay), nodes, underlay };
    return this.last;
  }
}

/** [id, link-set signature, ...] for each namespace. */
function linkSetsOf(nss: Netns[]): unknown[] {
  const out: unknown[] = [];
  for (const n of nss) out.push(n.id, linkSig(n));
  return out;
}

function linkSig(n: Netns): string {
  let s = '';
  for (const l of Object.values(n.links)) s += `${l.ifindex}${l.peer ? `>${l.peer.ns}` : ''},`;
  return s;
}

function sameLinkSets(nss: Netns[], sets: unknown[]): boolean {
  for (let i = 0; i < nss.length; i++) {
    const n = nss[i]!;
    if (sets[2 * i] !== n.id || sets[2 * i + 1] !== linkSig(n)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// What one step added, changed or removed

/** How a step touched an item. */
export type Mark = 'added' | 'changed' | 'removed';

export type ItemKind = 'namespace' | 'link' | 'address' | 'route' | 'reservation' | 'cache file';

export interface StepItem {
  mark: Mark;
  kind: ItemKind;
  node: string;
  /** Readable, as `ip` or `ls` would name it: "eth0 (veth) in web-0", "10.244.1.2/24 on eth0". */
  text: string;
}

export interface StepChanges {
  /**
   * Marks of what the topology draws: namespaces (`node/nsId`) and links (`node/nsId/ifindex`).
   * A link whose addresses changed is marked "changed".
   */
  marks: Map<string, Mark>;
  /** Every item the step touched, drawn or not (addresses, routes, reservations, cache files). */
  items: StepItem[];
}

export const NO_STEP_CHANGES: StepChanges = { marks: new Map(), items: [] };

/** host-local's data directory and libcni's result cache (their defaults, as the nodes use them). */
export const IPAM_DIR = '/var/lib/cni/networks';
export const CACHE_DIR = '/var/lib/cni/results';

function addrKey(a: { local: string; prefix: number }): string {
  return `${a.local}/${a.prefix}`;
}

function nsName(owners: Map<string, string> | undefined, ns: Netns, root: string): string {
  if (ns.id === root) return 'host namespace';
  const pod = owners?.get(ns.id);
  return pod ? `${pod.split('/').pop()} (${ns.id})` : ns.id;
}

function diffLinks(
  node: string,
  where: string,
  nsKey: string,
  a: Netns | undefined,
  b: Netns | undefined,
  out: StepChanges,
): void {
  const before = a?.links ?? {};
  const after = b?.links ?? {};
  if (before === after) return;
  for (const l of Object.values(after)) {
    const o = before[l.ifindex];
    if (o === l) continue;
    const key = `${nsKey}/${l.ifindex}`;
    if (!o) {
      out.marks.set(key, 'added');
      out.items.push({
        mark: 'added',
        kind: 'link',
        node,
        text: `${l.name} (${l.kind}) in ${where}`,
      });
    } else {
      out.marks.set(key, 'changed');
      if (o.name !== l.name)
        out.items.push({
          mark: 'changed',
          kind: 'link',
          node,
          text: `${o.name} renamed ${l.name} in ${where}`,
        });
      if (o.adminUp !== l.adminUp || o.operstate !== l.operstate)
        out.items.push({
          mark: 'changed',
          kind: 'link',
          node,
          text: `${l.name} ${linkState(l)} in ${where}`,
        });
    }
    const had = new Set((o?.addrs ?? []).map(addrKey));
    const has = new Set(l.addrs.map(addrKey));
    for (const x of has)
      if (!had.has(x))
        out.items.push({
          mark: 'added',
          kind: 'address',
          node,
          text: `${x} on ${l.name} in ${where}`,
        });
    for (const x of had)
      if (!has.has(x))
        out.items.push({
          mark: 'removed',
          kind: 'address',
          node,
          text: `${x} on ${l.name} in ${where}`,
        });
  }
  for (const l of Object.values(before)) {
    if (after[l.ifindex]) continue;
    out.marks.set(`${nsKey}/${l.ifindex}`, 'removed');
    out.items.push({
      mark: 'removed',
      kind: 'link',
      node,
      text: `${l.name} (${l.kind}) in ${where}`,
    });
  }
}

function diffRoutes(
  node: string,
  where: string,
  a: Netns | undefined,
  b: Netns | undefined,
  out: StepChanges,
) {
  if (a?.routes === b?.routes) return;
  const before = new Set(a ? routesText(a) : []);
  const after = new Set(b ? routesText(b) : []);
  for (const r of after)
    if (!before.has(r))
      out.items.push({ mark: 'added', kind: 'route', node, text: `${r} in ${where}` });
  for (const r of before)
    if (!after.has(r))
      out.items.push({ mark: 'removed', kind: 'route', node, text: `${r} in ${where}` });
}

/** Reservations (host-local) and cached results (libcni) written or removed between two filesystems. */
function diffFiles(node: string, a: FsState | undefined, b: FsState, out: StepChanges): void {
  if (!a || a.dirs === b.dirs) return;
  for (const dir of tchangedKeys(a.dirs, b.dirs)) {
    const isCache = dir === CACHE_DIR;
    const isIpam = dir.startsWith(`${IPAM_DIR}/`) && dir.indexOf('/', IPAM_DIR.length + 1) < 0;
    if (!isCache && !isIpam) continue;
    const da = dirChildren(a, dir);
    const db = dirChildren(b, dir);
    const names =
      da && db ? tchangedKeys(da, db) : [...(da ? tkeys(da) : []), ...(db ? tkeys(db) : [])];
    for (const name of names) {
      if (isIpam && (name === 'lock' || name.startsWith('last_reserved_ip'))) continue;
      const x = da ? tget(da, name) : undefined;
      const y = db ? tget(db, name) : undefined;
      if (x === y) continue;
      const mark: Mark = !x ? 'added' : !y ? 'removed' : 'changed';
      const file = (y ?? x)!;
      let text: string;
      if (isIpam) {
        const data = file.kind === 'file' ? file.data : '';
        const [id = '', ifname] = data.split(/\r?\n/);
        const net = dir.slice(IPAM_DIR.length + 1);
        text = `${name} for ${id.slice(0, 12)}${ifname ? ` ${ifname}` : ''} (network ${net})`;
      } else text = `${CACHE_DIR}/${name}`;
      out.items.push({ mark, kind: isIpam ? 'reservation' : 'cache file', node, text });
    }
  }
}

/**
 * What step `cur` changed against `prev` (the world before it): namespaces and links with their
 * addresses (marked for drawing), routes, host-local reservations and libcni's cached results.
 * Walks only what is not shared between the two states, so a step that touches nothing of this
 * costs a few comparisons.
 */
export function stepChanges(prev: WorldState | undefined, cur: WorldState): StepChanges {
  if (!prev || prev === cur) return NO_STEP_CHANGES;
  const out: StepChanges = { marks: new Map(), items: [] };
  for (const [name, node] of Object.entries(cur.nodes)) {
    const beforeNode = prev.nodes[name];
    if (beforeNode === node) continue;
    const before: KernelState | undefined = beforeNode?.kernel;
    const k = node.kernel;
    if (beforeNode && before && before.netns !== k.netns) {
      const owners = podsOf(node, cur.actors);
      const oldOwners = podsOf(beforeNode, prev.actors);
      for (const ns of tvalues(k.netns)) {
        const a = tget(before.netns, ns.id);
        if (a === ns) continue;
        const nsKey = `${name}/${ns.id}`;
        const where = nsName(owners, ns, k.root);
        if (!a) {
          out.marks.set(nsKey, 'added');
          out.items.push({ mark: 'added', kind: 'namespace', node: name, text: where });
        } else if (a.routes !== ns.routes || a.sysctl !== ns.sysctl || a.iptables !== ns.iptables)
          out.marks.set(nsKey, 'changed');
        diffLinks(name, where, nsKey, a, ns, out);
        diffRoutes(name, where, a, ns, out);
      }
      for (const ns of tvalues(before.netns)) {
        if (tget(k.netns, ns.id)) continue;
        const nsKey = `${name}/${ns.id}`;
        const where = nsName(oldOwners, ns, before.root);
        out.marks.set(nsKey, 'removed');
        out.items.push({ mark: 'removed', kind: 'namespace', node: name, text: where });
        diffLinks(name, where, nsKey, ns, undefined, out);
      }
    }
    diffFiles(name, beforeNode?.fs, node.fs, out);
  }
  return out.items.length === 0 && out.marks.size === 0 ? NO_STEP_CHANGES : out;
}

// ---------------------------------------------------------------------------------------------
// Texts

export function addrText(l: Link): string[] {
  return loadEngine.now().addrTexts(l);
}

/** A route as `ip route` prints it (without the table's dump order). */
export function routeText(ns: Netns, r: Route): string {
  const dst =
    r.prefix === 0
      ? 'default'
      : r.prefix === (r.family === 4 ? 32 : 128)
        ? r.dst
        : `${r.dst}/${r.prefix}`;
  const dev = ns.links[r.dev]?.name ?? `if${r.dev}`;
  const parts = [dst];
  if (r.gateway) parts.push(`via ${r.gateway}`);
  parts.push(`dev ${dev}`);
  if (r.protocol !== 'boot') parts.push(`proto ${r.protocol}`);
  if (r.scope !== 'universe') parts.push(`scope ${r.scope}`);
  if (r.prefsrc) parts.push(`src ${r.prefsrc}`);
  if (r.metric) parts.push(`metric ${r.metric}`);
  return parts.join(' ');
}

export function routesText(ns: Netns): string[] {
  return ns.routes.map((r) => routeText(ns, r));
}

export function linkState(l: Link): string {
  return l.adminUp ? (l.operstate === 'UNKNOWN' ? 'UP' : l.operstate) : 'DOWN';
}

// ---------------------------------------------------------------------------------------------
// Layout

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const CHIP_W = 150;
export const CHIP_H = 34;
const GAP = 10;
const PAD = 12;
const HEADER = 28;

export interface CellLayout {
  ns: PodNs;
  box: Box;
  /** The pod namespace's box inside the cell (below the host ends of its veths). */
  nsBox: Box;
  /** Host veth ends: ifindex and box (they sit in the host namespace, above the pod box). */
  peers: Array<{ ifindex: number; box: Box }>;
  /** Chip slots inside the pod namespace box. */
  slots: Box[];
}

export interface NodeLayout {
  node: NodeStructure;
  box: Box;
  hostBox: Box;
  hostChips: Array<{ ifindex: number; box: Box }>;
  cells: CellLayout[];
}

/** A wire from the underlay band down to a node's NIC (or a VXLAN device's tunnel). */
export interface UnderlayDrop {
  node: string;
  ifindex: number;
  /** A VXLAN device: its tunnel runs over the underlay (drawn dashed). */
  tunnel: boolean;
  x: number;
  y1: number;
  y2: number;
}

export interface UnderlayLayout {
  info: UnderlayInfo;
  /** The band across the top that stands for the segment joining the nodes. */
  box: Box;
  /** The router at the underlay's edge (its gateway, the outside), at the band's right end. */
  router: Box;
  drops: UnderlayDrop[];
}

export interface Layout {
  key: string;
  width: number;
  height: number;
  nodes: NodeLayout[];
  underlay: UnderlayLayout | null;
}

/**
 * Columns of the pod grid: a few fixed widths, so that a new pod rarely moves the others (cells
 * that keep their place keep their layout objects, and are not drawn again).
 */
export function columnsFor(n: number): number {
  if (n <= 4) return Math.max(1, n);
  if (n <= 16) return 4;
  if (n <= 36) return 6;
  return 10;
}

function sameBox(a: Box, b: Box): boolean {
  return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

function sameCell(a: CellLayout, b: CellLayout): boolean {
  return (
    a.ns.id === b.ns.id &&
    a.ns.pod === b.ns.pod &&
    a.ns.mounts.join() === b.ns.mounts.join() &&
    a.ns.hostPeers.join() === b.ns.hostPeers.join() &&
    sameBox(a.box, b.box) &&
    sameBox(a.nsBox, b.nsBox) &&
    a.slots.length === b.slots.length &&
    (a.slots.length === 0 || sameBox(a.slots[0]!, b.slots[0]!))
  );
}

/**
 * `next` with the cell objects of `prev` wherever a cell did not move or change: the views
 * memoise cells on these objects, so after a pod comes or goes only the cells that moved are
 * drawn again.
 */
export function reuseLayout(prev: Layout | null, next: Layout): Layout {
  if (!prev) return next;
  const old = new Map<string, CellLayout>();
  for (const n of prev.nodes) for (const c of n.cells) old.set(`${n.node.name}/${c.ns.id}`, c);
  return {
    ...next,
    nodes: next.nodes.map((n) => ({
      ...n,
      cells: n.cells.map((c) => {
        const o = old.get(`${n.node.name}/${c.ns.id}`);
        return o && sameCell(o, c) ? o : c;
      }),
    })),
  };
}

/** Height of the underlay band (above the nodes, when there is an underlay). */
export const UNDERLAY_H = 44;
const ROUTER_W = 220;

/**
 * Lays nodes out side by side; in each, host links in rows, then the pods in a grid. With an
 * underlay, a band across the top joins the nodes' NICs (one wire per NIC and per VXLAN device,
 * so the drawing grows with the nodes, not with their pairs).
 */
export function layout(s: Structure): Layout {
  let x = 0;
  let height = 0;
  const top = s.underlay ? UNDERLAY_H + 3 * GAP : 0;
  const nodes: NodeLayout[] = [];
  for (const n of s.nodes) {
    const maxPeers = Math.max(1, ...n.pods.map((p) => p.hostPeers.length));
    const cols = columnsFor(n.pods.length);
    const cellW = CHIP_W + 2 * PAD;
    const nsH = HEADER + n.podLinks * (CHIP_H + 6) + PAD;
    const cellH = maxPeers * (CHIP_H + 6) + 18 + nsH;
    const gridW = cols * cellW + (cols - 1) * GAP;
    const hostCols = Math.max(1, Math.floor((gridW + GAP) / (CHIP_W + GAP)));
    const width = Math.max(gridW, 2 * CHIP_W + GAP) + 2 * PAD;
    const hostRows = Math.max(1, Math.ceil(n.hostLinks.length / hostCols));
    const hostY = top + HEADER + PAD;
    const hostChips = n.hostLinks.map((ifindex, i) => ({
      ifindex,
      box: {
        x: x + PAD + 6 + (i % hostCols) * (CHIP_W + GAP),
        y: hostY + HEADER + Math.floor(i / hostCols) * (CHIP_H + GAP),
        w: CHIP_W,
        h: CHIP_H,
      },
    }));
    const gridY = hostY + HEADER + hostRows * (CHIP_H + GAP) + GAP;
    const cells: CellLayout[] = n.pods.map((ns, i) => {
      const cx = x + PAD + (i % cols) * (cellW + GAP);
      const cy = gridY + Math.floor(i / cols) * (cellH + GAP);
      const peers = ns.hostPeers.map((ifindex, j) => ({
        ifindex,
        box: { x: cx + PAD, y: cy + j * (CHIP_H + 6), w: CHIP_W, h: CHIP_H },
      }));
      const nsBox = { x: cx, y: cy + maxPeers * (CHIP_H + 6) + 18, w: cellW, h: nsH };
      const slots = Array.from({ length: n.podLinks }, (_, j) => ({
        x: cx + PAD,
        y: nsBox.y + HEADER + j * (CHIP_H + 6),
        w: CHIP_W,
        h: CHIP_H,
      }));
      return { ns, box: { x: cx, y: cy, w: cellW, h: cellH }, nsBox, peers, slots };
    });
    const rows = Math.ceil(n.pods.length / cols);
    const hostH = gridY + rows * (cellH + GAP) - hostY;
    const nodeH = hostY + hostH + PAD;
    nodes.push({
      node: n,
      box: { x, y: top, w: width, h: nodeH - top },
      hostBox: { x: x + 6, y: hostY, w: width - 12, h: hostH },
      hostChips,
      cells,
    });
    height = Math.max(height, nodeH);
    x += width + 3 * GAP;
  }
  let width = Math.max(0, x - 3 * GAP);
  let underlay: UnderlayLayout | null = null;
  if (s.underlay) {
    width = Math.max(width, ROUTER_W + 2 * CHIP_W);
    const router = { x: width - ROUTER_W - 6, y: 6, w: ROUTER_W, h: UNDERLAY_H - 12 };
    const drops: UnderlayDrop[] = [];
    for (const nl of nodes) {
      for (const c of nl.hostChips) {
        const uplink = nl.node.uplinks.includes(c.ifindex);
        if (!uplink && !nl.node.tunnels.includes(c.ifindex)) continue;
        drops.push({
          node: nl.node.name,
          ifindex: c.ifindex,
          tunnel: !uplink,
          // A tunnel's wire a little off the centre, so that it does not hide a NIC's below it.
          x: c.box.x + (uplink ? c.box.w / 2 : c.box.w - 16),
          y1: UNDERLAY_H,
          y2: c.box.y,
        });
      }
    }
    underlay = { info: s.underlay, box: { x: 0, y: 0, w: width, h: UNDERLAY_H }, router, drops };
  }
  return { key: s.key, width, height, nodes, underlay };
}

/** Layouts of successive structures, reusing the cells that did not move (see reuseLayout). */
export class LayoutCache {
  private last: Layout | null = null;
  private from: Structure | null = null;

  get(s: Structure): Layout {
    if (this.last && this.from === s) return this.last;
    this.last = reuseLayout(this.last, layout(s));
    this.from = s;
    return this.last;
  }
}
