/**
 * What the Inspector (Inspector.tsx) shows of a step beyond its event, as plain data: the
 * landing's precomputed trace (../landing-trace.ts) holds it for its steps, computed by the same
 * function at build time.
 */
import {
  stat,
  loadEngine,
  type FsFile,
  type FsState,
  type Session,
  type TraceEvent,
  type WorldState,
} from '../../engine';
import { diff, json, type Change } from './diff';

function fileAt(state: WorldState, node: string | null, path: string): FsFile | undefined {
  if (!node) return undefined;
  const fs = state.nodes[node]?.fs as FsState | undefined;
  if (!fs) return undefined;
  const e = stat(fs, path);
  return e?.kind === 'file' ? e : undefined;
}

/**
 * A change as the Inspector shows it: its values as JSON carries them (bigints as text), so that
 * the landing's precomputed trace (../landing-trace.ts) holds them and `json` prints them as it
 * prints the originals. A list shows what was added and removed (null: nothing), anything else
 * its value before and after (absent: none).
 */
export type ShownChange =
  | { path: string; before?: unknown; after?: unknown }
  | { path: string; added: unknown[] | null; removed: unknown[] | null };

function plain(v: unknown): unknown {
  return v === undefined ? undefined : (JSON.parse(json(v)) as unknown);
}

function shown(c: Change): ShownChange {
  if (c.added || c.removed)
    return {
      path: c.path,
      added: c.added?.length ? (plain(c.added) as unknown[]) : null,
      removed: c.removed?.length ? (plain(c.removed) as unknown[]) : null,
    };
  return { path: c.path, before: plain(c.before), after: plain(c.after) };
}

function nodePart(
  state: WorldState,
  node: string | null,
  part: 'kernel' | 'fs' | 'containerd',
): unknown {
  return node ? state.nodes[node]?.[part] : undefined;
}

/**
 * How a kernel change is shown: down to a link, an address list, a route list (`netns.<id>.links.3`),
 * and in iptables down to a chain's rules (`netns.<id>.iptables.ipv4.nat.chains.POSTROUTING.rules`:
 * the rules added and removed), not the whole table: a pod's rule in a 500-pod cluster would
 * otherwise print every rule of the table twice, before and after.
 */
const KERNEL = { depth: 4, skip: ['now'], deeper: { key: 'iptables', depth: 8 } } as const;

/** What the event changed in the world, by kind (null: the kind shows no changes). */
function changesOf(e: TraceEvent, before: WorldState, after: WorldState): Change[] | null {
  switch (e.kind) {
    case 'kernel':
      return diff(nodePart(before, e.node, 'kernel'), nodePart(after, e.node, 'kernel'), KERNEL);
    case 'state':
      return diff(before.actors, after.actors, { depth: 1 });
    case 'api':
      return diff(before.api, after.api, { depth: 2, skip: ['eventIds', 'correlator'] });
    case 'env':
      return [
        ...diff(nodePart(before, e.node, 'kernel'), nodePart(after, e.node, 'kernel'), KERNEL),
        ...diff(nodePart(before, e.node, 'fs'), nodePart(after, e.node, 'fs'), {
          depth: 3,
        }).map((c) => ({ ...c, path: `fs.${c.path}` })),
        // A containerd release installed to run from its next start.
        ...diff(nodePart(before, e.node, 'containerd'), nodePart(after, e.node, 'containerd'), {
          depth: 1,
        }).map((c) => ({ ...c, path: `containerd.${c.path}` })),
      ];
    default:
      return null;
  }
}

/**
 * What the Inspector shows of a step beyond its event: whether it failed, and what it read or
 * changed in the world (a file, the result cache, the objects it changed). Plain data: the
 * landing's precomputed trace (../preview.ts) holds one per step, and a test checks it against
 * this function on the engine's own session.
 */
export interface StepDetail {
  failed: boolean;
  /** libcni: the result cache file it names, after the step. */
  cacheFile?: FsFile | null;
  /** A file operation: the file before and after. */
  was?: FsFile | null;
  now?: FsFile | null;
  /** What the step changed, for the kinds that show it. */
  changes?: ShownChange[];
}

export function stepDetail(session: Session, step: number): StepDetail {
  const e = session.events[step]!;
  const before = session.stateAt(step - 1);
  const after = session.stateAt(step);
  const d: StepDetail = { failed: loadEngine.now().isErrorEvent(e) };
  if (e.kind === 'libcni.call' || e.kind === 'libcni.return' || e.kind === 'libcni.cache') {
    const file = 'cache' in e.payload ? e.payload.cache?.file : undefined;
    if (file) d.cacheFile = fileAt(after, e.node, file) ?? null;
  } else if (e.kind === 'fs') {
    d.was = fileAt(before, e.node, e.payload.path) ?? null;
    d.now = fileAt(after, e.node, e.payload.path) ?? null;
  } else {
    const changes = changesOf(e, before, after);
    if (changes) d.changes = changes.map(shown);
  }
  return d;
}
