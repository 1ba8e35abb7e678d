/**
 * What a process on a simulated node can do: read and change the node's kernel and filesystem.
 * Every change is one trace event (attributed to the process) and one step: the generator
 * yields after it, so a scheduler can stop between any two changes.
 */
import type { Draft } from 'immer';
import * as vfs from '../fs/vfs';
import type { FsState } from '../fs/vfs';
import { mountAt } from '../kernel/netns';
import type { KernelState, Netns } from '../kernel/types';
import type { RandomSource } from '../kernel/kernel';
import { asNetnsId, type NetnsId } from '../brand';
import type { Simulation, WorldState } from '../sim/world';
import { freezeFresh } from '../state/freeze';
import { tentries, tget } from '../state/table';
import {
  fsEvent,
  kernelEvent,
  type FsArgs,
  type FsOp,
  type FsPayload,
  type KernelArgs,
  type KernelOp,
  type KernelPayload,
} from '../trace/trace';
import { TICK, type Gen } from '../sched/gen';

/** A program's generator type lives with the scheduler that runs it; processes use it here. */
export { TICK, runToEnd, type Gen, type Tick, type Waitable } from '../sched/gen';

export interface SysOwner {
  sim: Simulation;
  node: string;
  /** Actor name in the trace, e.g. "bridge" or "host-local". */
  actor: string;
  pid: number;
  /** seq of this process's exec event. */
  parentSeq?: number;
}

/** Mount path by namespace id, per (immutable) mounts table. */
const LABELS = new WeakMap<object, Map<string, string>>();

export class Sys {
  constructor(readonly owner: SysOwner) {}

  get sim(): Simulation {
    return this.owner.sim;
  }
  get kernel(): KernelState {
    return this.sim.node(this.owner.node).kernel;
  }
  get fs(): FsState {
    return this.sim.node(this.owner.node).fs;
  }
  get hostNs(): NetnsId {
    return asNetnsId(this.kernel.root);
  }

  ns(id: NetnsId): Netns | undefined {
    return tget(this.kernel.netns, id);
  }

  /** Virtual time now (µs). */
  get now(): number {
    return this.sim.state.clock;
  }

  /**
   * nanosleep: the process sleeps `us` of virtual time. A scheduler runs other work meanwhile and
   * resumes it at the time; a headless run (`runToEnd`) resumes it at once, so the clock is moved
   * here instead (no event: nothing visible changed).
   */
  *sleep(us: number): Gen<void> {
    const before = this.sim.state.clock;
    yield { tick: true, sleepUs: us };
    if (this.sim.state.clock === before) this.sim.advance(us);
  }

  /**
   * The namespace bound at `path` (a /var/run/netns mount), or the process's own for
   * /proc/self/ns/net and /proc/<pid>/ns/net.
   */
  netnsAt(path: string): NetnsId | undefined {
    const clean = vfs.cleanPath(path);
    if (/^\/proc\/(self|thread-self|\d+)(\/task\/\d+)?\/ns\/net$/.test(clean)) return this.hostNs;
    const id = mountAt(this.kernel, this.fs, clean);
    return id === undefined ? undefined : asNetnsId(id);
  }

  /** A readable name of a namespace: its mount path, "host" for the node's own. */
  nsLabel(id: NetnsId): string {
    const k = this.kernel;
    if (id === k.root) return 'host';
    let byId = LABELS.get(k.mounts);
    if (!byId) {
      byId = new Map();
      for (const [p, nid] of tentries(k.mounts)) if (!byId.has(nid)) byId.set(nid, p);
      LABELS.set(k.mounts, byId);
    }
    return byId.get(id) ?? id;
  }

  /** Applies a kernel change as one event. */
  *kernelOp<O extends KernelOp, T>(
    op: O,
    summary: string,
    payload: KernelArgs[O],
    change: (k: KernelState, rnd: RandomSource) => T,
  ): Gen<T> {
    const node = this.owner.node;
    const sim = this.sim;
    const result = sim.apply(
      kernelEvent({
        node,
        source: this.owner.actor,
        target: 'kernel',
        level: 'kernel',
        summary,
        // One payload shape per op (KernelArgs): TypeScript cannot follow `O` through the spread.
        payload: { op, pid: this.owner.pid, ...payload } as KernelPayload,
        ...(this.owner.parentSeq !== undefined ? { parent: this.owner.parentSeq } : {}),
      }),
      (d: Draft<WorldState>) => {
        const rng = sim.rng(d);
        const n = d.nodes[node]!;
        (n.kernel as KernelState).now = d.clock;
        const out = change(n.kernel as KernelState, rng);
        rng.commit();
        return out;
      },
    );
    yield TICK;
    return result;
  }

  /** Applies a filesystem change as one event. */
  *fsOp<O extends FsOp, T>(
    op: O,
    path: string,
    summary: string,
    change: (fs: FsState) => { fs: FsState; out: T },
    payload: FsArgs[O] | Record<never, never> = {},
  ): Gen<T> {
    const node = this.owner.node;
    const result = this.sim.apply(
      fsEvent({
        node,
        source: this.owner.actor,
        target: 'fs',
        level: 'kernel',
        summary,
        // One payload shape per op (FsArgs): TypeScript cannot follow `O` through the spread.
        payload: { op, path, pid: this.owner.pid, ...payload } as FsPayload,
        ...(this.owner.parentSeq !== undefined ? { parent: this.owner.parentSeq } : {}),
      }),
      (d: Draft<WorldState>) => {
        // The file system's operations are persistent (they return a new FsState): run them on
        // the frozen state, which this draft has not changed, not through the draft's proxies.
        const r = change(this.fs);
        d.nodes[node]!.fs = freezeFresh(r.fs) as Draft<FsState>;
        return r.out;
      },
    );
    yield TICK;
    return result;
  }

  *writeFile(
    path: string,
    data: string,
    opts: { mode?: number; exclusive?: boolean } = {},
  ): Gen<void> {
    yield* this.fsOp(
      'write',
      path,
      `write ${path} (${data.length} bytes)`,
      (fs) => ({ fs: vfs.writeFile(fs, path, data, opts), out: undefined }),
      { data },
    );
  }

  *mkdirAll(path: string, mode = 0o755): Gen<void> {
    if (vfs.stat(this.fs, path)?.kind === 'dir') return;
    yield* this.fsOp('mkdir', path, `mkdir -p ${path}`, (fs) => ({
      fs: vfs.mkdirAll(fs, path, mode),
      out: undefined,
    }));
  }

  *remove(path: string): Gen<void> {
    yield* this.fsOp('remove', path, `remove ${path}`, (fs) => ({
      fs: vfs.remove(fs, path),
      out: undefined,
    }));
  }

  *rename(from: string, to: string): Gen<void> {
    yield* this.fsOp(
      'rename',
      from,
      `rename ${from} -> ${to}`,
      (fs) => ({
        fs: vfs.rename(fs, from, to),
        out: undefined,
      }),
      { to },
    );
  }

  readFile(path: string): string {
    return vfs.readFile(this.fs, path);
  }
}
