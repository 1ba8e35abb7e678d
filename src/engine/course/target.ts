/**
 * "Show goal": the state a lesson's solution reaches, drawn beside the learner's, as Learn Git
 * Branching shows its goal tree. A picture of a world is what a person compares: the pods (node,
 * status, IP), each node's links (host side and every pod's namespace) and the CNI files
 * (conflists, plugin binaries, host-local's reservations, libcni's result cache). Items are keyed
 * by what they are, not by names a run draws at random: a host veth by the pod at its other end,
 * a cache file by the pod whose sandbox id it carries, so the same pod wired in two runs is the
 * same item. `comparePictures` marks what differs.
 */
import { podStatusText } from '../apiserver/apiserver';
import * as vfs from '../fs/vfs';
import { linksOf } from '../kernel/kernel';
import type { KernelState, Link, Netns } from '../kernel/types';
import * as inspect from '../node/inspect';
import type { WorldState } from '../sim/world';
import { tget, tvalues } from '../state/table';
import { runLesson } from './lesson';
import type { Lesson } from './schema';

export interface PictureItem {
  /** What the item is, the same in any run (compared between pictures). */
  key: string;
  /** How it reads. */
  text: string;
  /** What is compared besides the key (an address, a status, a file's content). */
  value: string;
}

export interface PictureSection {
  /** "Pods", "node-1: links", "node-1: files". */
  title: string;
  items: PictureItem[];
}

export type Picture = PictureSection[];

const HEX64 = /\b[0-9a-f]{64}\b/g;

/** Sandbox id → pod name, over every node. */
function sandboxPods(state: WorldState): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of Object.values(state.nodes))
    for (const sb of n.containerd ? tvalues(n.containerd.sandboxes) : [])
      out.set(sb.id, sb.pod.name);
  return out;
}

/** Namespace id → the pod whose sandbox mounted it, on one node. */
function netnsPods(state: WorldState, node: string): Map<string, string> {
  const n = state.nodes[node]!;
  const out = new Map<string, string>();
  const sbs = (n.containerd ? tvalues(n.containerd.sandboxes) : []).sort(
    (a, b) => a.createdAt - b.createdAt,
  );
  for (const sb of sbs) {
    const ns = inspect.netnsOfMount(n.kernel, sb.netns);
    if (ns) out.set(ns.id, sb.pod.name);
  }
  return out;
}

function linkText(l: Link, k: KernelState, ns: Netns): string {
  const parts = [l.name, `(${l.kind})`];
  const master = l.master !== null ? ns.links[l.master]?.name : undefined;
  if (master) parts.push(`on ${master}`);
  const addrs = inspect.addrTexts(l, 4);
  if (addrs.length) parts.push(addrs.join(' '));
  parts.push(l.adminUp ? 'up' : 'down');
  void k;
  return parts.join(' ');
}

function linkValue(l: Link, ns: Netns): string {
  const master = l.master !== null ? (ns.links[l.master]?.name ?? '') : '';
  return `${l.kind}|${master}|${inspect.addrTexts(l, 4).join(',')}|${l.adminUp}`;
}

function conflistText(text: string): string {
  try {
    const c = JSON.parse(text) as {
      cniVersion?: string;
      plugins?: { type?: string }[];
      type?: string;
    };
    const types = c.plugins ? c.plugins.map((p) => p.type ?? '?') : [c.type ?? '?'];
    return `cniVersion ${c.cniVersion ?? '?'}: ${types.join(', ')}`;
  } catch {
    return 'not valid JSON';
  }
}

function filesOf(state: WorldState, node: string, pods: Map<string, string>): PictureItem[] {
  const fs = state.nodes[node]!.fs;
  const out: PictureItem[] = [];
  const named = (p: string) => p.replace(HEX64, (id) => `‹${pods.get(id) ?? 'no sandbox'}›`);
  const file = (path: string) => vfs.stat(fs, path)?.kind === 'file';
  for (const f of inspect.dirNames(fs, '/etc/cni/net.d')) {
    const path = `/etc/cni/net.d/${f}`;
    if (!file(path)) continue;
    const text = vfs.readFile(fs, path);
    out.push({ key: `file:${path}`, text: `${path} (${conflistText(text)})`, value: text });
  }
  const bins = inspect.dirNames(fs, '/opt/cni/bin').filter((f) => file(`/opt/cni/bin/${f}`));
  if (bins.length)
    out.push({
      key: 'file:/opt/cni/bin',
      text: `/opt/cni/bin: ${bins.join(', ')}`,
      value: bins.map((b) => `${b}:${vfs.readFile(fs, `/opt/cni/bin/${b}`).length}`).join(','),
    });
  const netsDir = '/var/lib/cni/networks';
  for (const net of inspect.dirNames(fs, netsDir)) {
    for (const f of inspect.dirNames(fs, `${netsDir}/${net}`)) {
      const path = `${netsDir}/${net}/${f}`;
      if (!file(path) || f === 'lock' || f.startsWith('last_reserved_ip')) continue;
      const owner = vfs.readFile(fs, path).split(/\s/)[0] ?? '';
      const pod = pods.get(owner) ?? 'no sandbox';
      out.push({ key: `file:${path}`, text: `${path} → ${pod}`, value: pod });
    }
  }
  const seen = new Map<string, number>();
  for (const f of inspect.dirNames(fs, '/var/lib/cni/results')) {
    const path = `/var/lib/cni/results/${f}`;
    if (!file(path)) continue;
    const shown = named(path);
    const k = seen.get(shown) ?? 0;
    seen.set(shown, k + 1);
    const whole = (() => {
      try {
        JSON.parse(vfs.readFile(fs, path));
        return 'whole';
      } catch {
        return 'unreadable';
      }
    })();
    out.push({
      key: `file:${shown}#${k}`,
      text: `${shown}${whole === 'whole' ? '' : ' (unreadable)'}`,
      value: whole,
    });
  }
  return out;
}

/** A picture item with where the topology draws it (`node/nsId` or `node/nsId/ifindex`). */
interface DrawnItem extends PictureItem {
  topo: string;
}

function linksOfNode(state: WorldState, node: string, drawn?: DrawnItem[]): PictureItem[] {
  const k = state.nodes[node]!.kernel;
  const host = inspect.hostNetns(k);
  const owners = netnsPods(state, node);
  const out: PictureItem[] = [];
  const draw = (item: PictureItem, topo: string) => {
    out.push(item);
    drawn?.push({ ...item, topo });
  };
  const seen = new Map<string, number>();
  for (const l of linksOf(host)) {
    if (l.kind === 'loopback') continue;
    let key = `link:host:${l.name}`;
    let text = linkText(l, k, host);
    if (l.kind === 'veth' && l.peer && l.peer.ns !== k.root) {
      const pod = owners.get(l.peer.ns);
      const who = pod ? `veth to ${pod}` : 'veth to no sandbox (orphan)';
      const n = seen.get(who) ?? 0;
      seen.set(who, n + 1);
      key = `link:host:${who}#${n}`;
      text = `${who}: ${text}`;
    }
    draw({ key, text, value: linkValue(l, host) }, `${node}/${host.id}/${l.ifindex}`);
  }
  for (const [nsId, pod] of [...owners].sort((a, b) => (a[1] < b[1] ? -1 : 1))) {
    const ns = tget(k.netns, nsId);
    if (!ns) continue;
    drawn?.push({
      key: `netns:${pod}`,
      text: `${pod}'s namespace`,
      value: '',
      topo: `${node}/${nsId}`,
    });
    for (const l of linksOf(ns)) {
      if (l.kind === 'loopback') continue;
      draw(
        {
          key: `link:pod:${pod}:${l.name}`,
          text: `${pod}: ${linkText(l, k, ns)}`,
          value: linkValue(l, ns),
        },
        `${node}/${nsId}/${l.ifindex}`,
      );
    }
  }
  return out;
}

/** The picture of a world: pods, then each node's links and files. */
export function picture(state: WorldState): Picture {
  const pods = sandboxPods(state);
  const podItems: PictureItem[] = (state.api ? tvalues(state.api.pods) : [])
    .map((p) => {
      const status = podStatusText(p);
      const ip = p.podIP ?? '';
      return {
        key: `pod:${p.spec.namespace}/${p.spec.name}`,
        text: `${p.spec.name} on ${p.spec.nodeName || 'no node'}: ${status}${ip ? `, ${ip}` : ''}`,
        value: `${p.spec.nodeName}|${status}|${ip}`,
      };
    })
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  const out: Picture = [{ title: 'Pods', items: podItems }];
  for (const node of Object.keys(state.nodes).sort()) {
    out.push({ title: `${node}: links`, items: linksOfNode(state, node) });
    out.push({ title: `${node}: files`, items: filesOf(state, node, pods) });
  }
  return out;
}

export type Mark = 'same' | 'changed' | 'extra' | 'missing';

export interface ComparedItem {
  key: string;
  text: string;
  /**
   * same: as in the goal; changed: there in both, different; extra (learner's side only): not in
   * the goal; missing (goal's side only): not there yet.
   */
  mark: Mark;
}

export interface ComparedSection {
  title: string;
  now: ComparedItem[];
  goal: ComparedItem[];
}

/** The learner's picture and the goal's, side by side, with the differences marked. */
export function comparePictures(now: Picture, goal: Picture): ComparedSection[] {
  const titles = [...new Set([...now.map((s) => s.title), ...goal.map((s) => s.title)])];
  return titles.map((title) => {
    const a = now.find((s) => s.title === title)?.items ?? [];
    const b = goal.find((s) => s.title === title)?.items ?? [];
    const inB = new Map(b.map((i) => [i.key, i]));
    const inA = new Map(a.map((i) => [i.key, i]));
    return {
      title,
      now: a.map((i) => {
        const o = inB.get(i.key);
        return {
          key: i.key,
          text: i.text,
          mark: !o ? 'extra' : o.value === i.value ? 'same' : 'changed',
        };
      }),
      goal: b.map((i) => {
        const o = inA.get(i.key);
        return {
          key: i.key,
          text: i.text,
          mark: !o ? 'missing' : o.value === i.value ? 'same' : 'changed',
        };
      }),
    };
  });
}

/** Whether two pictures show no difference. */
export function samePicture(now: Picture, goal: Picture): boolean {
  return comparePictures(now, goal).every(
    (s) => s.now.every((i) => i.mark === 'same') && s.goal.every((i) => i.mark === 'same'),
  );
}

/** How the topology marks a namespace or a link that differs between the learner and the goal. */
export type TopologyMark = 'missing' | 'extra' | 'differs';

export interface TopologyMarks {
  /** On the learner's drawing: not in the goal, or different there. */
  now: Map<string, TopologyMark>;
  /** On the goal's drawing: not there yet, or different in the learner's state. */
  goal: Map<string, TopologyMark>;
}

function drawnItems(state: WorldState): DrawnItem[] {
  const out: DrawnItem[] = [];
  for (const node of Object.keys(state.nodes).sort()) linksOfNode(state, node, out);
  return out;
}

/**
 * What the two topologies (the learner's and the goal's) mark: each drawn namespace and link,
 * keyed as the topology draws it (`node/nsId`, `node/nsId/ifindex`), matched between the two
 * worlds by what it is (a pod's namespace, a link by the pod at its end), as the lists are.
 */
export function topologyMarks(now: WorldState, goal: WorldState): TopologyMarks {
  const a = drawnItems(now);
  const b = drawnItems(goal);
  const inA = new Map(a.map((i) => [i.key, i]));
  const inB = new Map(b.map((i) => [i.key, i]));
  const out: TopologyMarks = { now: new Map(), goal: new Map() };
  for (const i of a) {
    const o = inB.get(i.key);
    if (!o) out.now.set(i.topo, 'extra');
    else if (o.value !== i.value) out.now.set(i.topo, 'differs');
  }
  for (const i of b) {
    const o = inA.get(i.key);
    if (!o) out.goal.set(i.topo, 'missing');
    else if (o.value !== i.value) out.goal.set(i.topo, 'differs');
  }
  return out;
}

const targets = new Map<string, { state: WorldState; picture: Picture } | null>();

function target(lesson: Lesson): { state: WorldState; picture: Picture } | null {
  if (targets.has(lesson.id)) return targets.get(lesson.id)!;
  const r = runLesson(lesson);
  const state = 'errors' in r ? null : r.run.cluster.sim.state;
  const t = state ? { state, picture: picture(state) } : null;
  targets.set(lesson.id, t);
  return t;
}

/**
 * The picture of the state a lesson's solution ends in (the headless replay, computed once per
 * lesson); null when the solution does not replay.
 */
export function goalPicture(lesson: Lesson): Picture | null {
  return target(lesson)?.picture ?? null;
}

/** The world a lesson's solution ends in (the same replay as goalPicture's); null if none. */
export function goalState(lesson: Lesson): WorldState | null {
  return target(lesson)?.state ?? null;
}
