/**
 * A minimal API server: pods, events and nodes as data in the world, changed only through these
 * functions, each change one `api` event of the trace. And what kubectl prints from them.
 */
import type { Simulation } from '../sim/world';
import { age } from '../trace/time';
import { emptyTable, tdel, tget, tset, tvalues } from '../state/table';
import { apiEvent, type ApiPayload } from '../trace/trace';
import type { ApiState, Condition, K8sEvent, NodeObj, PodObj, PodSpec } from '../state/api';

export function emptyApi(): ApiState {
  return { pods: emptyTable(), events: emptyTable(), eventIds: emptyTable(), nodes: {} };
}

/** What the event recorder aggregates on: the same object instance, type, reason, message and source. */
export function eventKey(e: Omit<K8sEvent, 'count' | 'firstTime' | 'lastTime'>): string {
  return [e.object, e.namespace, e.uid ?? '', e.reason, e.type, e.message, e.source].join('\0');
}

/** The API server's events, oldest first (by when each was first recorded). */
export function eventList(api: ApiState): K8sEvent[] {
  return tvalues(api.events);
}

export function podKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

function apiChange(
  sim: Simulation,
  source: string,
  summary: string,
  payload: ApiPayload,
  fn: (api: ApiState) => void,
  node: string | null = null,
): void {
  sim.apply(
    apiEvent({ node, source, target: 'apiserver', level: 'cluster', summary, payload }),
    (d) => {
      fn(d.api as ApiState);
    },
  );
}

export function createPod(sim: Simulation, spec: PodSpec, source = 'kubectl'): void {
  const key = podKey(spec.namespace, spec.name);
  const pod: PodObj = {
    spec,
    phase: 'Pending',
    podIP: null,
    podIPs: [],
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
      { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady' },
    ],
    deletionTimestamp: null,
    containerRunning: false,
    waitingReason: 'ContainerCreating',
    createdAt: sim.state.clock,
    restarts: 0,
  };
  apiChange(
    sim,
    source,
    `create pod ${key} (node ${spec.nodeName})`,
    { pod: key, op: 'create' },
    (api) => {
      tset(api.pods, key, pod);
    },
  );
  recordEvent(sim, {
    type: 'Normal',
    reason: 'Scheduled',
    message: `Successfully assigned ${key} to ${spec.nodeName}`,
    object: `pod/${spec.name}`,
    uid: spec.uid,
    namespace: spec.namespace,
    source: 'default-scheduler',
  });
}

export function updatePod(
  sim: Simulation,
  key: string,
  summary: string,
  fn: (p: PodObj) => void,
  node: string | null,
): void {
  if (!tget(sim.state.api?.pods, key)) return;
  apiChange(
    sim,
    'kubelet',
    summary,
    { pod: key, op: 'status' },
    (api) => {
      const p = tget(api.pods, key);
      if (p) fn(p);
    },
    node,
  );
}

export function setCondition(p: PodObj, c: Condition): void {
  const i = p.conditions.findIndex((x) => x.type === c.type);
  if (i >= 0) p.conditions[i] = c;
  else p.conditions.push(c);
}

export function markDeleting(sim: Simulation, key: string): void {
  apiChange(sim, 'kubectl', `delete pod ${key} (graceful)`, { pod: key, op: 'delete' }, (api) => {
    const p = tget(api.pods, key);
    if (p && p.deletionTimestamp === null) p.deletionTimestamp = sim.state.clock;
  });
}

export function removePod(sim: Simulation, key: string, node: string | null): void {
  apiChange(
    sim,
    'kubelet',
    `pod ${key} deleted`,
    { pod: key, op: 'remove' },
    (api) => {
      tdel(api.pods, key);
    },
    node,
  );
}

/**
 * The event recorder: an event with the same object, type, reason and message as an earlier one
 * counts up (kubectl describe: "(x12 over 3m)") instead of adding a line.
 */
export function recordEvent(
  sim: Simulation,
  e: Omit<K8sEvent, 'count' | 'firstTime' | 'lastTime'>,
  node: string | null = null,
): void {
  const now = sim.state.clock;
  sim.apply(
    apiEvent({
      node,
      source: e.source.split(',')[0]!,
      target: 'apiserver',
      level: 'cluster',
      summary: `${e.type} ${e.reason} ${e.object}: ${e.message}`,
      payload: { event: e },
    }),
    (d) => {
      const api = d.api as ApiState;
      const k = eventKey(e);
      const id = tget(api.eventIds, k);
      const same = id === undefined ? undefined : tget(api.events, id);
      if (id !== undefined && same) {
        tset(api.events, id, { ...same, count: same.count + 1, lastTime: now });
      } else {
        const next = String(api.events.seq);
        tset(api.events, next, { ...e, count: 1, firstTime: now, lastTime: now });
        tset(api.eventIds, k, next);
      }
    },
  );
}

export function setNodeReady(sim: Simulation, name: string, ready: Condition): void {
  apiChange(
    sim,
    'kubelet',
    `node ${name} Ready=${ready.status}${ready.message ? `: ${ready.message}` : ''}`,
    { node: name, op: 'nodeStatus' },
    (api) => {
      const n = api.nodes[name];
      if (n) n.ready = ready;
    },
    name,
  );
}

export function addNodeObj(api: ApiState, n: NodeObj): void {
  api.nodes[n.name] = n;
}

// ---------------------------------------------------------------------------------------------
// kubectl

/** kubectl get pods' STATUS column. */
export function podStatusText(p: PodObj): string {
  if (p.deletionTimestamp !== null) return 'Terminating';
  if (p.containerRunning) return 'Running';
  return p.waitingReason ?? p.phase;
}

export interface PodRow {
  name: string;
  namespace: string;
  ready: string;
  status: string;
  restarts: number;
  age: string;
  ip: string;
  node: string;
}

export function podRows(api: ApiState, now: number): PodRow[] {
  return tvalues(api.pods)
    .map((p) => ({
      name: p.spec.name,
      namespace: p.spec.namespace,
      ready: p.containerRunning && p.deletionTimestamp === null ? '1/1' : '0/1',
      status: podStatusText(p),
      restarts: p.restarts,
      age: age(now - p.createdAt),
      ip: p.podIP ?? '<none>',
      node: p.spec.nodeName,
    }))
    .sort((a, b) => (a.namespace + '/' + a.name < b.namespace + '/' + b.name ? -1 : 1));
}

/** `kubectl get pods -o wide`. */
export function kubectlGetPods(api: ApiState, now: number): string {
  const rows = podRows(api, now);
  const head = ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE'];
  const table = [
    head,
    ...rows.map((r) => [r.name, r.ready, r.status, String(r.restarts), r.age, r.ip, r.node]),
  ];
  const widths = head.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table
    .map((row) =>
      row
        .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]! + 3)))
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * The Events section of `kubectl describe pod`. kubectl searches events by the object's name,
 * namespace and uid, so a pod created again under the same name does not show the old one's.
 */
export function describeEvents(
  api: ApiState,
  object: string,
  namespace: string,
  now: number,
  uid?: string,
): string[] {
  const evs = eventList(api).filter(
    (e) =>
      e.object === object &&
      e.namespace === namespace &&
      (uid === undefined || e.uid === undefined || e.uid === uid),
  );
  if (evs.length === 0) return ['Events:  <none>'];
  const rows = evs.map((e) => [
    e.type,
    e.reason,
    e.count > 1
      ? `${age(now - e.lastTime)} (x${e.count} over ${age(now - e.firstTime)})`
      : age(now - e.firstTime),
    e.source,
    e.message,
  ]);
  const head = ['Type', 'Reason', 'Age', 'From', 'Message'];
  const under = head.map((h) => '-'.repeat(h.length));
  const table = [head, under, ...rows];
  const widths = head.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return [
    'Events:',
    ...table.map(
      (r) =>
        '  ' +
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]! + 2)))
          .join('')
          .trimEnd(),
    ),
  ];
}
