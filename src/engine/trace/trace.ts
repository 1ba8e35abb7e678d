/**
 * The trace: one ordered list of events for the whole simulation. Every message between actors
 * (runtime -> libcni -> plugin -> kernel/fs) and every state change is an event. Views are
 * functions of the trace and of the state after each event.
 */

/** How much detail an event belongs to; views fold away the levels below the chosen one. */
export type Level = 'cluster' | 'runtime' | 'cni' | 'kernel';

export type EventKind =
  | 'libcni.call' // runtime -> libcni: AddNetworkList / DelNetworkList / CheckNetworkList / ...
  | 'libcni.return' // libcni -> runtime: the outcome
  | 'libcni.cache' // libcni read/wrote/removed its result cache
  | 'exec' // a process starts (plugin binary, delegated IPAM)
  | 'exit' // a process exits
  | 'kernel' // a kernel operation (link, address, route, sysctl, iptables, netns)
  | 'fs' // a file or directory change
  | 'env' // a change made from outside (operator, fault, test driver)
  | 'note' // a marker with no state change
  | 'state' // a state machine changed state (pod worker, sandbox, kubelet, containerd, ...)
  | 'cri' // kubelet <-> containerd: a CRI request or its response
  | 'api' // kubelet -> API server: pod status, an event, node status
  | 'log'; // a line in a node's journal (payload: unit, line)

export interface TraceEvent {
  /** Position in the trace (0-based). */
  seq: number;
  /** Virtual time in microseconds. */
  time: number;
  node: string | null;
  source: string;
  target: string;
  kind: EventKind;
  level: Level;
  /** One line a person can read, e.g. `add veth eth0 in /var/run/netns/pod-a (peer veth1a2b3c4d in host)`. */
  summary: string;
  /** Kind-specific details (exec: env/stdin; exit: stdout/stderr/code; kernel: op and arguments). */
  payload: Record<string, unknown>;
  /** Set when the operation failed (the state did not change). */
  error?: string;
  /** seq of the enclosing exec or libcni call, if any. */
  parent?: number;
}
