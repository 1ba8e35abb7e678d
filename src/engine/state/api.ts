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

export interface NodeObj {
  name: string;
  podCIDR: string;
  ready: Condition;
}

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
}
