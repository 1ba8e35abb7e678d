/**
 * Injecting a fault of the catalogue into a cluster, and carrying out its documented recovery,
 * changing the nodes only through the Cluster's public methods: a shell on the node (`rm`, `ip netns del`, `ip
 * link del`, ... so the trace reads like what an operator typed), file writes, plugin installs,
 * systemctl restarts and reboots, and libcni calls as a runtime makes them.
 *
 * Parameters are checked before anything happens (params.ts); a bad one gives `{ ok: false,
 * error }` naming it (`params.pod: pods "web-9" not found`). Nothing here throws for bad input.
 * How each kind of injection is made: injections.ts; each recovery action: recoveries.ts; what
 * they read of a node: node.ts.
 */ import type { Cluster } from '../cluster/cluster';
import type { TraceEvent } from '../trace/trace';
import { FAULTS, faultById } from './catalogue';
import { applyInjection, checkInjection } from './injections';
import { type FaultView, fail, ParamError, type Resolved, resolveParams, viewOf } from './params';
import { recoverOne } from './recoveries';
import { tget } from '../state/table';
import { nodeState } from './node';

export type { FaultParams, FaultView } from './params';

export type InjectResult =
  | {
      ok: true;
      fault: string;
      /** What was done, one line each (as an operator would tell it). */
      did: string[];
      /** seq of the trace event the fault was injected at (the first change it made). */
      at: number;
      /** The node the fault is on (its pod's node for a pod's fault). */
      node: string;
    }
  | { ok: false; error: string };

/** How long a during-add fault waits for its moment, in virtual µs. */
export const MOMENT_WAIT_US = 300_000_000;

/** Runs the cluster until `plugin` starts working on the pod's ADD (its first step). */
function runToMoment(c: Cluster, r: Resolved): TraceEvent {
  const p = r.pod!;
  let execSeq = -1;
  const hit = c.run({
    until: c.now + MOMENT_WAIT_US,
    stop: (e) => {
      if (e.node !== r.node) return false;
      if (e.kind === 'exec' && e.target === r.plugin) {
        const env = e.payload.env;
        const args = `;${env['CNI_ARGS'] ?? ''};`;
        if (
          env['CNI_COMMAND'] === 'ADD' &&
          args.includes(`;K8S_POD_NAME=${p.spec.name};`) &&
          args.includes(`;K8S_POD_NAMESPACE=${p.spec.namespace};`)
        )
          execSeq = e.seq;
        return false;
      }
      return execSeq >= 0 && e.parent === execSeq && e.source === r.plugin;
    },
  });
  if (!hit)
    fail(
      `params.pod: the moment never came: no ${r.plugin} ADD for ${r.podKey} started within ${MOMENT_WAIT_US / 1e6}s`,
    );
  return hit;
}

/**
 * Injects fault `id` into the cluster. For a `during-add` fault the cluster runs until the
 * moment comes; for a `before-delete` fault the pod is deleted afterwards.
 */
/**
 * The catalogue's faults are written and tested against containerd nodes: their symptoms and
 * recoveries name containerd's behaviour, which CRI-O does not share (docs/runtimes.md: config
 * validation at load, CHECK after ADD, DEL from the cache, one DEL per pod). A CRI-O node is
 * refused with that reason rather than shown texts that do not hold there, unless the fault is
 * the kernel's alone (`anyRuntime`: the network faults).
 */
function checkRuntime(v: FaultView, node: string, anyRuntime = false): void {
  if (anyRuntime || !v.state.nodes[node]) return;
  const s = nodeState(v, node).containerd?.settings;
  if (s?.runtime === 'cri-o')
    fail(
      `node ${node} runs CRI-O ${s.version}: the fault catalogue describes containerd nodes (its symptoms and recoveries name containerd's behaviour, which CRI-O does not share: docs/runtimes.md), so its faults are not offered on CRI-O nodes yet`,
    );
}

/** The node the parameters name (directly, or through the pod), before they are checked. */
function namedNode(v: FaultView, params: unknown): string | null {
  const p = (params ?? {}) as { node?: unknown; pod?: unknown };
  if (typeof p.node === 'string') return p.node;
  if (typeof p.pod === 'string') {
    const key = p.pod.includes('/') ? p.pod : `default/${p.pod}`;
    return tget(v.state.api?.pods, key)?.spec.nodeName ?? null;
  }
  const nodes = Object.keys(v.state.nodes);
  return nodes.length === 1 ? nodes[0]! : null;
}

export function injectFault(c: Cluster, id: string, params: unknown = {}): InjectResult {
  const f = faultById(id);
  if (!f)
    return {
      ok: false,
      error: `fault: no fault "${id}" (known: ${FAULTS.map((x) => x.id).join(', ')})`,
    };
  const did: string[] = [];
  let start: number;
  let node: string;
  try {
    const named = namedNode(viewOf(c), params);
    if (named) checkRuntime(viewOf(c), named, f.anyRuntime);
    const r = resolveParams(viewOf(c), f, params);
    node = r.node;
    checkRuntime(viewOf(c), node, f.anyRuntime);
    if (f.when === 'during-add') runToMoment(c, r);
    start = c.events.length;
    applyInjection(c, f.inject, r, did);
    if (f.when === 'before-delete' && r.choices['then'] !== 'nothing') {
      c.deletePod(r.podKey!);
      did.push(`kubectl delete pod ${r.pod!.spec.name}`);
    }
  } catch (e) {
    if (e instanceof ParamError) return { ok: false, error: e.message };
    return { ok: false, error: `fault ${id}: ${(e as Error).message}` };
  }
  return { ok: true, fault: id, did, at: Math.min(start, c.events.length - 1), node };
}

/** The node fault `id` with these parameters would be on, or null when they do not say. */
export function faultNode(v: FaultView, id: string, params: unknown = {}): string | null {
  const f = faultById(id);
  if (!f) return null;
  try {
    return resolveParams(v, { ...f, when: 'any' }, params).node || null;
  } catch {
    return null;
  }
}

/**
 * Why fault `id` cannot be injected with these parameters into a cluster in state `v` (the
 * message `injectFault` would give), or null when it can. Changes nothing. A `during-add`
 * fault's moment is not checked: it comes (or not) as the cluster runs.
 */
export function faultProblem(v: FaultView, id: string, params: unknown = {}): string | null {
  const f = faultById(id);
  if (!f) return `fault: no fault "${id}" (known: ${FAULTS.map((x) => x.id).join(', ')})`;
  try {
    const named = namedNode(v, params);
    if (named) checkRuntime(v, named, f.anyRuntime);
    const r = resolveParams(v, f, params);
    checkRuntime(v, r.node, f.anyRuntime);
    if (f.when !== 'during-add') checkInjection(v, f.inject, r);
    return null;
  } catch (e) {
    if (e instanceof ParamError) return e.message;
    return `fault ${id}: ${(e as Error).message}`;
  }
}

/** Carries out the documented recovery of fault `id` (same parameters as the injection). */
export function recoverFault(c: Cluster, id: string, params: unknown = {}): InjectResult {
  const f = faultById(id);
  if (!f) return { ok: false, error: `fault: no fault "${id}"` };
  const did: string[] = [];
  const start = c.events.length;
  let node = '';
  if (f.recovery.actions.every((a) => a.kind === 'none'))
    return { ok: true, fault: id, did, at: c.events.length - 1, node };
  try {
    // The pod may have moved on (Terminating, recreated): only its identity matters here.
    const r = resolveParams(viewOf(c), { ...f, when: 'any' }, params);
    node = r.node;
    for (const a of f.recovery.actions) recoverOne(c, a, r, did);
  } catch (e) {
    if (e instanceof ParamError) return { ok: false, error: e.message };
    return { ok: false, error: `recovery of ${id}: ${(e as Error).message}` };
  }
  return { ok: true, fault: id, did, at: c.events[start]?.seq ?? c.events.length - 1, node };
}
