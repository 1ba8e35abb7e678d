/**
 * XState machines hosted in the world state. A machine (kubelet's pod worker, containerd's
 * sandbox, a plugin process, ...) defines the states and transitions; its snapshot (state value
 * and context, plain data) lives in `WorldState.actors`, so every recorded state of the world
 * carries the state of every machine and stepping back needs no actor to be rewound.
 *
 * Transitions are computed with XState's pure `transition()`. The actions it returns are
 * carried out here: a delayed event (`after`) becomes a scheduler timer, a cancelled one is
 * removed, and every other action is an effect the machine's owner implements (start a CRI
 * request, record an API event, ...). Each transition that changes the state value is one
 * trace event.
 */
import { type AnyActorScope, type AnyStateMachine, createActor } from 'xstate';
import { settled, type ActorRecord, type Simulation } from '../sim/world';
import { stateEvent } from '../trace/trace';
import type { Level } from '../trace/trace';
import type { Scheduler } from './scheduler';
import { freezeFresh } from '../state/freeze';
import { tdrop, tget, tpeek, tput, withEntry, type Table } from '../state/table';

export interface MachineEvent {
  type: string;
  [k: string]: unknown;
}

/** An effect: what an action of a machine does to the world. */
export type Effect = (
  host: MachineHost,
  actorId: string,
  params: Record<string, unknown>,
  /** The actor's context right after the transition (also when it has just ended). */
  context: Record<string, unknown>,
) => void;

export interface MachineKind {
  machine: AnyStateMachine;
  level: Level;
  /** Effects by action type. An action type without one is a bug in the machine's owner. */
  effects: Record<string, Effect>;
  /** Trace source/target of this kind's state events (e.g. "kubelet"). */
  actor: (id: string, context: unknown) => { node: string | null; source: string };
}

interface ExecAction {
  type: string;
  params?: unknown;
}

/**
 * XState's `transition()` and `initialTransition()` build a throwaway actor (and run the
 * machine's initial state) on every call to get an actor scope. Transitions here are pure and
 * collect their actions, so one inert scope per machine serves them all.
 */
const scopes = new WeakMap<AnyStateMachine, AnyActorScope & { actions: ExecAction[] }>();

function scopeOf(machine: AnyStateMachine): AnyActorScope & { actions: ExecAction[] } {
  let s = scopes.get(machine);
  if (!s) {
    const self = createActor(machine);
    const actions: ExecAction[] = [];
    s = {
      self,
      id: '',
      sessionId: '',
      system: self.system,
      logger: () => {},
      defer: () => {},
      emit: () => {},
      stopChild: () => {},
      actions,
      actionExecutor: (a: ExecAction) => void s!.actions.push(a),
    } as unknown as AnyActorScope & { actions: ExecAction[] };
    scopes.set(machine, s);
  }
  s.actions = [];
  return s;
}

type Snap = ReturnType<AnyStateMachine['resolveState']>;

/** The machine's first snapshot for `input`, and the actions to run: XState's initialTransition. */
function initialTransition(machine: AnyStateMachine, input: unknown): [Snap, ExecAction[]] {
  const scope = scopeOf(machine);
  const snap = machine.getInitialSnapshot(scope, input) as Snap;
  return [snap, scope.actions];
}

/** The next snapshot and the actions to run: XState's transition(). */
function transition(
  machine: AnyStateMachine,
  snap: Snap,
  event: MachineEvent,
): [Snap, ExecAction[]] {
  const scope = scopeOf(machine);
  const next = machine.transition(snap, event as never, scope) as Snap;
  return [next, scope.actions];
}

/**
 * The XState snapshots the latest records were made from, so that an actor's next event does
 * not rebuild one from its record (resolveState walks the machine's state nodes for the value: a
 * few percent of a scale-up). Kept only where resolveState would give the same back: an active
 * snapshot without children or history. Records never change once in the world. Bounded, oldest
 * out first: every record stays alive in the trace, and a snapshot per record would grow the
 * memory of every step; an actor's next event usually comes while its record is recent.
 */
const SNAPS = new Map<ActorRecord, Snap>();
const SNAPS_MAX = 2048;

function recordOf(machine: string, snap: Snap): ActorRecord {
  const rec: ActorRecord = {
    machine,
    value: snap.value as ActorRecord['value'],
    context: snap.context as Record<string, unknown>,
    status: snap.status,
  };
  if (snap.status === 'active' && noKeys(snap.children) && noKeys(snap.historyValue)) {
    SNAPS.set(rec, snap);
    if (SNAPS.size > SNAPS_MAX) SNAPS.delete(SNAPS.keys().next().value!);
  }
  return rec;
}

function snapOf(machine: AnyStateMachine, rec: ActorRecord): Snap {
  const kept = SNAPS.get(rec);
  if (kept !== undefined && kept.machine === machine) return kept;
  return machine.resolveState({ value: rec.value as never, context: rec.context }) as Snap;
}

function noKeys(o: object | undefined): boolean {
  for (const _ in o) return false;
  return true;
}

export function stateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}.${stateText(v)}`)
      .join(',');
  }
  return String(value);
}

export class MachineHost {
  private readonly kinds = new Map<string, MachineKind>();

  constructor(
    readonly sim: Simulation,
    readonly sched: Scheduler,
  ) {}

  register(name: string, kind: MachineKind): void {
    this.kinds.set(name, kind);
  }

  kind(name: string): MachineKind {
    const k = this.kinds.get(name);
    if (!k) throw new Error(`no machine kind ${name}`);
    return k;
  }

  get(id: string): ActorRecord | undefined {
    return tget(this.sim.state.actors, id);
  }

  /** Starts an actor (recorded as one event) and runs its entry actions. */
  start(id: string, kindName: string, input: Record<string, unknown>, summary?: string): void {
    const kind = this.kind(kindName);
    const [snap, actions] = initialTransition(kind.machine, input);
    const rec = recordOf(kindName, snap);
    const who = kind.actor(id, rec.context);
    this.sim.apply(
      stateEvent({
        node: who.node,
        source: who.source,
        target: who.source,
        level: kind.level,
        summary: summary ?? `${id}: ${stateText(rec.value)}`,
        payload: { actor: id, machine: kindName, to: rec.value },
      }),
      (d) => {
        tput(d.actors as Table<ActorRecord>, id, rec);
      },
    );
    this.run(id, kindName, actions as ExecAction[], rec.context);
  }

  /**
   * Sends an event. A transition that changes the state value or the context is recorded as one
   * event (`summary` overrides the generated text); an event the machine ignores records nothing.
   */
  send(id: string, event: MachineEvent, summary?: string): boolean {
    const rec = this.get(id);
    if (!rec || rec.status !== 'active') return false;
    const kind = this.kind(rec.machine);
    const snap = snapOf(kind.machine, rec);
    const [next, actions] = transition(kind.machine, snap, event as never);
    const changed = next.value !== snap.value || next.context !== snap.context;
    const from = stateText(rec.value);
    const to = stateText(next.value);
    if (changed || actions.length > 0) {
      const out = recordOf(rec.machine, next);
      const who = kind.actor(id, out.context);
      const ev = stateEvent({
        node: who.node,
        source: who.source,
        target: who.source,
        level: kind.level,
        summary: summary ?? (from === to ? `${id}: ${event.type}` : `${id}: ${from} → ${to}`),
        payload: {
          actor: id,
          machine: rec.machine,
          event: event.type,
          from: rec.value,
          to: out.value,
        },
      });
      if (from !== to || summary !== undefined) {
        this.sim.apply(ev, (d) => {
          // An actor that reached a final state is gone (a removed sandbox, a deleted pod's
          // worker): the event records where it ended, the world no longer holds it.
          if (out.status === 'done') tdrop(d.actors as Table<ActorRecord>, id);
          else tput(d.actors as Table<ActorRecord>, id, out);
        });
      } else {
        // A context-only change (a counter, a remembered id): no event of its own.
        this.sim.state = freezeFresh({
          ...this.sim.state,
          actors: withEntry(this.sim.state.actors, id, out),
        });
      }
    }
    this.run(id, rec.machine, actions as ExecAction[], next.context as Record<string, unknown>);
    return changed;
  }

  private run(
    id: string,
    machine: string,
    actions: ExecAction[],
    context: Record<string, unknown>,
  ): void {
    const kind = this.kind(machine);
    for (const a of actions) {
      const params = (a.params ?? {}) as Record<string, unknown>;
      if (a.type === 'xstate.raise') {
        const delay = params['delay'] as number | undefined;
        const event = params['event'] as MachineEvent;
        const key = `${id}#${String(params['id'] ?? event.type)}`;
        if (delay === undefined) this.send(id, event);
        else this.sched.after(delay * 1000, key, () => this.send(id, event));
      } else if (a.type === 'xstate.cancel') {
        this.sched.cancel(`${id}#${String(params['sendId'])}`);
      } else if (a.type.startsWith('xstate.')) {
        // assign and friends are already applied by transition().
      } else {
        const fx = kind.effects[a.type];
        if (!fx) throw new Error(`machine ${machine}: no effect for action ${a.type}`);
        fx(this, id, params, context);
      }
    }
  }
}

/**
 * Actors of machines without effects or delays (a plugin process, a libcni call) change inside
 * the event that changes them: these run the pure transition on a draft of the world.
 */
export function draftStart(
  actors: Table<ActorRecord>,
  id: string,
  name: string,
  machine: AnyStateMachine,
  input: Record<string, unknown>,
): void {
  const [snap] = initialTransition(machine, input);
  tput(actors, id, recordOf(name, snap));
}

export function draftSend(
  actors: Table<ActorRecord>,
  id: string,
  machine: AnyStateMachine,
  event: MachineEvent,
): void {
  // Read outside the draft: going through it would make a proxy of the record, its value and
  // every object in its context.
  const peeked = tpeek(actors, id);
  const rec = peeked === undefined ? undefined : settled(peeked);
  if (!rec) return;
  const [next] = transition(machine, snapOf(machine, rec), event as never);
  if (next.status === 'done') {
    tdrop(actors, id);
    return;
  }
  tput(actors, id, recordOf(rec.machine, next));
}
