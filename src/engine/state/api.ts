import type { Table } from './table';

/**
 * The API server's objects, as `kubectl get` and `kubectl describe` show them: pods with their
 * phase, conditions and IPs, events (aggregated like the real event recorder: same object,
 * reason and message counts up), and nodes with their Ready condition.
 */

export interface HostPort {
  containerPort: number;
  hostPort: number;
  protocol: 'TCP' | 'UDP' | 'SCTP';
  hostIP?: string;
}

export interface PodSpec {
  name: string;
  namespace: string;
  uid: string;
  nodeName: string;
  hostPorts: HostPort[];
  annotations: Record<string, string>;
  /** The container's image (absent: DEFAULT_APP_IMAGE). */
  image?: string;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface PodObj {
  spec: PodSpec;
  phase: PodPhase;
  podIP: string | null;
  podIPs: string[];
  conditions: Condition[];
  /** Set once deletion was requested (kubectl shows Terminating). */
  deletionTimestamp: number | null;
  /** The container is running (set when the sandbox is ready and the container started). */
  containerRunning: boolean;
  /** Container waiting reason, e.g. ContainerCreating. */
  waitingReason: string | null;
  createdAt: number;
  /** Sandbox restarts the kubelet made (each SandboxChanged). */
  restarts: number;
}

export interface K8sEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** e.g. "pod/web-0" or "node/node-1". */
  object: string;
  /** The object's uid (involvedObject.uid): the recorder aggregates per object instance. */
  uid?: string;
  namespace: string;
  source: string;
  count: number;
  firstTime: number;
  lastTime: number;
}

/** A node taint (`spec.taints[]`); `timeAdded` is set for NoExecute ones, as the API does. */
export interface Taint {
  key: string;
  effect: 'NoSchedule' | 'NoExecute';
  timeAdded: number;
}

export interface NodeObj {
  name: string;
  podCIDR: string;
  ready: Condition;
  /** The node lifecycle controller's taints (absent: none). */
  taints?: Taint[];
}

/**
 * What the event clients remember (client-go's EventCorrelator, tools/record/events_cache.go).
 * It lives in each client process (a node's kubelet, the scheduler), so a restart of that process
 * forgets its part; every key starts with the client's source (`kubelet, node-1`) and a NUL.
 * client-go keeps each cache in an LRU of 4,096 entries; these keep everything.
 */
export interface EventCorrelatorMemory {
  /**
   * EventAggregator, per source + object + type + reason: the distinct messages seen (at most
   * 10) and when the last one came; one older than 10 minutes starts afresh.
   */
  similar: Table<{ messages: string[]; last: number }>;
  /** EventSourceObjectSpamFilter: a token bucket per source + object (burst 25, 1 per 300 s). */
  buckets: Table<{ tokens: number; last: number }>;
  /**
   * eventLogger: each event's count as the client last counted it. It counts events that the
   * spam filter then drops, so the next one written jumps (client-go counts before it filters).
   */
  counts: Table<number>;
}

/** The image of the pods' one container when the pod names none. */
export const DEFAULT_APP_IMAGE = 'nginx:1.27';

export interface ApiState {
  /** Pods by namespace/name, in creation order. */
  pods: Table<PodObj>;
  /** Events in the order they were first recorded, by a number given in that order. */
  events: Table<K8sEvent>;
  /**
   * The number of each event by what the recorder aggregates on (`eventKey` in apiserver.ts), so
   * that counting one up finds it at once.
   */
  eventIds: Table<string>;
  nodes: Record<string, NodeObj>;
  /** The event clients' correlator memory (absent until the first event). */
  correlator?: EventCorrelatorMemory;
}
