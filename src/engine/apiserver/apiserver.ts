/**
 * A minimal API server: pods, events and nodes as data in the world, changed only through these
 * functions, each change one `api` event of the trace. And what kubectl prints from them.
 */
import type { Simulation } from '../sim/world';
import { age } from '../trace/time';
import {
  emptyTable,
  tdel,
  tget,
  tkeys,
  tpeek,
  tput,
  tset,
  tvalues,
  type Table,
} from '../state/table';
import { apiEvent, type ApiPayload } from '../trace/trace';
import type { ApiState, Condition, K8sEvent, NodeObj, PodObj, PodSpec } from '../state/api';

export function emptyApi(): ApiState {
  return { pods: emptyTable(), events: emptyTable(), eventIds: emptyTable(), nodes: {} };
}

/**
 * What the event recorder counts up on (client-go's getEventKey): the same source, object
 * instance, type, reason and message. It starts with the source and a NUL, as every key the
 * client remembers does (forgetEventClient).
 */
export function eventKey(e: Omit<K8sEvent, 'count' | 'firstTime' | 'lastTime'>): string {
  return [e.source, e.object, e.namespace, e.uid ?? '', e.reason, e.type, e.message].join('\0');
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

export function markDeleting(
  sim: Simulation,
  key: string,
  source = 'kubectl',
  fn?: (p: PodObj) => void,
): void {
  apiChange(sim, source, `delete pod ${key} (graceful)`, { pod: key, op: 'delete' }, (api) => {
    const p = tget(api.pods, key);
    if (p && p.deletionTimestamp === null) {
      fn?.(p);
      p.deletionTimestamp = sim.state.clock;
    }
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

/** client-go's EventCorrelator defaults (tools/record/events_cache.go). */
export const EVENT_CORRELATOR = {
  /** EventAggregator: the distinct messages of one reason before they are combined... */
  aggregateMaxEvents: 10,
  /** ...within this long of the last one (defaultAggregateIntervalInSeconds). */
  aggregateIntervalUs: 600_000_000,
  /** EventSourceObjectSpamFilter: events per source and object at once (defaultSpamBurst)... */
  spamBurst: 25,
  /** ...then one per this long (defaultSpamQPS = 1/300). */
  spamRefillUs: 300_000_000,
} as const;

export const COMBINED_PREFIX = '(combined from similar events): ';

type NewEvent = Omit<K8sEvent, 'count' | 'firstTime' | 'lastTime'>;

/**
 * The event recorder, as client-go's EventCorrelator runs before each write
 * (tools/record/events_cache.go, EventCorrelate):
 * 1. EventAggregator (EventAggregatorByReasonFunc): events of one source, object, type and
 *    reason that differ only in their message are similar. From the 10th distinct message
 *    within 10 minutes of the last, the event becomes one "(combined from similar events): …"
 *    event that counts up and carries the latest message. (client-go then drops an arbitrary
 *    message from its set, Go's PopAny; here the oldest, so runs are deterministic.)
 * 2. eventLogger: the same object, type, reason and message as an earlier one counts up
 *    (kubectl describe: "(x12 over 3m)") instead of adding a line.
 * 3. EventSourceObjectSpamFilter: 25 events per source and object at once, then one per 5
 *    minutes; the rest are never sent. The count of step 2 includes them.
 */
export function recordEvent(sim: Simulation, e: NewEvent, node: string | null = null): void {
  const now = sim.state.clock;
  const { aggregateMaxEvents, aggregateIntervalUs, spamBurst, spamRefillUs } = EVENT_CORRELATOR;
  const mem = sim.state.api?.correlator;
  const client = e.source;
  const objectKey = [client, e.object, e.namespace, e.uid ?? ''].join('\0');
  const similarKey = [objectKey, e.type, e.reason].join('\0');

  // 1. Similar events.
  let similar = tget(mem?.similar, similarKey);
  if (!similar || now - similar.last > aggregateIntervalUs) similar = { messages: [], last: now };
  let messages = similar.messages.includes(e.message)
    ? similar.messages
    : [...similar.messages, e.message];
  let ev = e;
  let key = eventKey(e);
  if (messages.length >= aggregateMaxEvents) {
    messages = messages.slice(1);
    ev = { ...e, message: COMBINED_PREFIX + e.message };
    key = `${similarKey}\0combined`;
  }
  // 2. The count, as the client counts it.
  const count = (tget(mem?.counts, key) ?? 0) + 1;
  // 3. The spam filter's token bucket.
  const b = tget(mem?.buckets, objectKey);
  const tokens = b
    ? Math.min(spamBurst, b.tokens + (now - b.last) / spamRefillUs)
    : (spamBurst as number);
  const send = tokens >= 1;

  const remember = (api: ApiState) => {
    const m = (api.correlator ??= {
      similar: emptyTable(),
      buckets: emptyTable(),
      counts: emptyTable(),
    });
    tput(m.similar, similarKey, { messages, last: now });
    tput(m.counts, key, count);
    tput(m.buckets, objectKey, { tokens: send ? tokens - 1 : tokens, last: now });
  };
  if (!send) {
    sim.apply(
      apiEvent({
        node,
        source: client.split(',')[0]!,
        target: client.split(',')[0]!,
        level: 'cluster',
        summary: `not sent (spam filter: ${spamBurst} events per object, then 1 per 5 min): ${ev.type} ${ev.reason} ${ev.object}: ${ev.message}`,
        payload: { dropped: ev },
      }),
      (d) => remember(d.api as ApiState),
    );
    return;
  }
  sim.apply(
    apiEvent({
      node,
      source: client.split(',')[0]!,
      target: 'apiserver',
      level: 'cluster',
      summary: `${ev.type} ${ev.reason} ${ev.object}: ${ev.message}`,
      payload: { event: ev },
    }),
    (d) => {
      const api = d.api as ApiState;
      remember(api);
      const id = tpeek(api.eventIds, key);
      const same = id === undefined ? undefined : tpeek(api.events, id);
      if (id !== undefined && same) {
        tput(api.events, id, { ...same, message: ev.message, count, lastTime: now });
      } else {
        const next = String(api.events.seq);
        tput(api.events, next, { ...ev, count, firstTime: now, lastTime: now });
        tput(api.eventIds, key, next);
      }
    },
  );
}

/**
 * A client process stopped (a restart, a crash): it forgets what its event correlator remembered.
 * For a draft of the API server's state, inside the event that stops the process.
 */
export function forgetEventClient(api: ApiState, source: string): void {
  const mem = api.correlator;
  if (!mem) return;
  const prefix = source + '\0';
  // eventIds is the name of the Event object each key was written to, which only the client
  // knows: a restarted client creates a new Event object instead of patching the old one.
  for (const t of [mem.similar, mem.buckets, mem.counts, api.eventIds] as Table<unknown>[])
    for (const k of tkeys(t)) if (k.startsWith(prefix)) tdel(t, k);
}

export function setNodeReady(sim: Simulation, name: string, ready: Condition): void {
  apiChange(
    sim,
    'kubelet',
    `node ${name} Ready=${ready.status}${ready.message ? `: ${ready.message}` : ''}`,
    { node: name, op: 'nodeStatus' },
    (api) => {
      const n = api.nodes[name];
      if (!n) return;
      n.ready = ready;
      // The node lifecycle controller (kube-controller-manager, nodelifecycle
      // node_lifecycle_controller.go doNoScheduleTaintingPass / doNoExecuteTaintingPass) taints a
      // node whose Ready condition is False with node.kubernetes.io/not-ready, NoSchedule and
      // NoExecute, and takes both away once it is True again. cnisim taints at the status change
      // (the controller's 5-s monitor pass is not modelled). kubelet.ts evicts the pods.
      if (ready.status === 'False') {
        if (!n.taints?.some((t) => t.key === NOT_READY_TAINT))
          n.taints = [
            ...(n.taints ?? []),
            { key: NOT_READY_TAINT, effect: 'NoSchedule', timeAdded: sim.state.clock },
            { key: NOT_READY_TAINT, effect: 'NoExecute', timeAdded: sim.state.clock },
          ];
      } else if (n.taints) {
        const rest = n.taints.filter((t) => t.key !== NOT_READY_TAINT);
        if (rest.length) n.taints = rest;
        else delete n.taints;
      }
    },
    name,
  );
}

/** The taint a node whose Ready condition is False gets (well-known taint). */
export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';

/**
 * The DefaultTolerationSeconds admission plugin gives every pod a toleration of the not-ready and
 * unreachable NoExecute taints for 300 s (kubectl describe pod prints them).
 */
export const DEFAULT_TOLERATION_US = 300_000_000;

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
