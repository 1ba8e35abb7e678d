/**
 * The change one simple command makes to its node, recorded as one `env` event when the command
 * is done (see shell.ts for what the trace holds).
 */
import { castDraft, type Draft } from 'immer';
import { produce } from '../sim/world';
import type { RandomSource } from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import { Rng, type RngState } from '../rng';
import type { NodeState, Simulation, WorldState } from '../sim/world';
import { envEvent, type CommandPayload, type EventSpec } from '../trace/trace';

function kernelEqualExceptNow(a: KernelState, b: KernelState): boolean {
  return (
    a === b ||
    (a.netns === b.netns &&
      a.mounts === b.mounts &&
      a.root === b.root &&
      a.nextInode === b.nextInode &&
      a.unloaded === b.unloaded)
  );
}

/**
 * The changes one command makes: a working copy of the world that the command reads and
 * changes, recorded as one event when the command is done.
 */
export class Tx {
  base: WorldState;
  work: WorldState;

  constructor(
    readonly sim: Simulation,
    readonly node: string,
    readonly ev: EventSpec<'env'> & { payload: CommandPayload },
  ) {
    this.base = sim.state;
    this.work = sim.state;
  }

  nodeState(): NodeState {
    return this.work.nodes[this.node]!;
  }

  change<T>(fn: (n: Draft<NodeState>, rnd: RandomSource) => T, kernel: boolean): T {
    let out!: T;
    let kept: unknown = null;
    const before = this.work;
    const next = produce(before, (d) => {
      const n = d.nodes[this.node]!;
      const initial = d.rng as RngState;
      const rng = new Rng(initial);
      if (kernel) (n.kernel as KernelState).now = d.clock;
      try {
        out = fn(n, rng);
      } catch (e) {
        // A kernel call that failed after a change it does not undo: keep the change.
        if (!(e as { keepsState?: boolean }).keepsState) throw e;
        kept = e;
      }
      if (rng.state !== initial) d.rng = rng.state as number[];
    });
    // Only the kernel's clock moved: nothing changed.
    const a = next.nodes[this.node]!;
    const b = before.nodes[this.node]!;
    if (next.rng === before.rng && a.fs === b.fs && kernelEqualExceptNow(a.kernel, b.kernel)) {
      if (kept) throw kept;
      return out;
    }
    this.work = next;
    if (kept) throw kept;
    return out;
  }

  changed(): boolean {
    return this.work !== this.base;
  }

  /** Records the pending changes as the command's event. */
  commit(payload: Pick<CommandPayload, 'exitCode' | 'stderr'>): void {
    if (!this.changed()) return;
    const next = this.work;
    if (this.sim.state !== this.base)
      throw new Error('cnisim shell: the world changed under a pending command');
    const kernelChanged = next.nodes[this.node]!.kernel !== this.base.nodes[this.node]!.kernel;
    const base = this.base;
    this.sim.apply(
      envEvent({
        ...this.ev,
        target: kernelChanged ? 'kernel' : 'fs',
        payload: { ...this.ev.payload, ...payload },
      }),
      (d) => {
        d.nodes[this.node] = castDraft(next.nodes[this.node]!);
        if (next.rng !== base.rng) d.rng = castDraft(next.rng) as number[];
      },
    );
    this.rebase();
  }

  /** Starts over from the simulation's current state (after time passed or a program ran). */
  rebase(): void {
    this.base = this.sim.state;
    this.work = this.sim.state;
  }
}
