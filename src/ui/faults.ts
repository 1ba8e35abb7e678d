/**
 * Faults the Actions view offers: every entry of the fault catalogue (src/engine/faults), each
 * injected as a `{ do: 'injectFault' }` session action, so it is saved, replayed and marked like
 * any other. The view picks the parameters a person would: the first pod in the state the fault
 * needs (Running, or being created), or the first node where the fault can be made, with the
 * catalogue's defaults for the rest; when none fits at the step, it says why.
 */
import {
  loadFaults,
  tget,
  tkeys,
  type FaultDef,
  type PodObj,
  type Session,
  type SessionAction,
} from '../engine';

export interface UiFault {
  id: string;
  title: string;
  explanation: string;
  /** Whether the fault is made on a node the person chooses (not on a pod's node). */
  nodeScoped: boolean;
  /**
   * Whether a pod created afterwards on the fault's node fails to start (the catalogue's
   * `failsNewPods`): a restart, a reboot, a stale reservation or a network fault lets new pods
   * run, and shows elsewhere.
   */
  failsNewPods: boolean;
  /**
   * The action that injects it at `step` (on `node` when given and the fault is node-scoped),
   * or a reason why it cannot be injected there.
   */
  action(session: Session, step: number, node?: string): SessionAction | string;
}

/** The node an injection action puts its fault on (its pod's node for a pod's fault). */
export function faultNodeOf(session: Session, step: number, a: SessionAction): string | null {
  if (a.do !== 'injectFault') return null;
  return loadFaults
    .now()
    .faultNode({ spec: session.spec, state: session.stateAt(step) }, a.fault, a.params ?? {});
}

/**
 * The node of the last node-scoped fault injected at or before `step` (new pods there show it),
 * or null.
 */
export function lastFaultNode(session: Session, step: number): string | null {
  let node: string | null = null;
  for (const a of session.actions) {
    if (a.first === null || a.first > step || a.action.do !== 'injectFault') continue;
    const f = loadFaults.now().faultById(a.action.fault);
    if (f && !f.params['pod'] && a.output?.faultNode) node = a.output.faultNode;
  }
  return node;
}

function fits(f: FaultDef, p: PodObj): boolean {
  if (p.deletionTimestamp !== null) return false;
  return f.when === 'during-add' ? !p.containerRunning : p.containerRunning;
}

/** Parameter sets to try, most likely first. */
function candidates(
  f: FaultDef,
  session: Session,
  step: number,
  node?: string,
): Record<string, unknown>[] {
  if (f.params['pod']) {
    const pods = session.stateAt(step).api?.pods;
    return (pods ? tkeys(pods) : [])
      .sort()
      .filter((k) => fits(f, tget(pods, k)!))
      .map((pod) => (f.when === 'before-delete' ? { pod, then: 'nothing' } : { pod }));
  }
  if (f.params['node'])
    return session.nodeNames
      .filter((n) => node === undefined || n === node)
      .map((n) => ({ node: n }));
  return [{}];
}

function noPod(f: FaultDef): string {
  return f.when === 'during-add'
    ? 'No pod is being created at this step: create one, then inject while it is ContainerCreating.'
    : 'No pod is Running at this step: run a pod first.';
}

function toUi(f: FaultDef): UiFault {
  const explanation =
    f.when === 'before-delete'
      ? `${f.explanation} Inject it, then delete the pod: the symptoms show in its teardown.`
      : f.explanation;
  return {
    id: f.id,
    title: f.title,
    explanation,
    nodeScoped: !f.params['pod'] && !!f.params['node'],
    failsNewPods: f.failsNewPods,
    action(session, step, node) {
      const view = { spec: session.spec, state: session.stateAt(step) };
      let reason: string | null = null;
      for (const params of candidates(f, session, step, node)) {
        const problem = loadFaults.now().faultProblem(view, f.id, params);
        if (problem === null) return { do: 'injectFault', fault: f.id, params };
        reason ??= problem;
      }
      return reason ?? noPod(f);
    },
  };
}

let faults: readonly UiFault[] | null = null;

/** Whether new pods on its node show fault `id` by failing (false when it is not loaded). */
export function faultFailsNewPods(id: string): boolean {
  try {
    return uiFaults().find((f) => f.id === id)?.failsNewPods ?? false;
  } catch {
    return false;
  }
}

/** The catalogue's faults for the Actions view; the catalogue is loaded first (`loadFaults()`). */
export function uiFaults(): readonly UiFault[] {
  return (faults ??= loadFaults.now().FAULTS.map(toUi));
}
