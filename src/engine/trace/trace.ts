/**
 * The trace: one ordered list of events for the whole simulation. Every message between actors
 * (runtime -> libcni -> plugin -> kernel/fs) and every state change is an event. Views are
 * functions of the trace and of the state after each event.
 *
 * An event is a union discriminated by its `kind`: each kind has its own payload type, and events
 * are made with the constructor of their kind (`execEvent`, `kernelEvent`, ...). Readers narrow on
 * `e.kind` (and, where a kind has several payload shapes, on a field such as `op`). The payloads
 * are what the trace JSON export writes: their keys and key order are part of the file format.
 */

/** How much detail an event belongs to; views fold away the levels below the chosen one. */
export type Level = 'cluster' | 'runtime' | 'cni' | 'kernel';

// ---------------------------------------------------------------------------------------------
// Payloads, one per kind

/** `exec`: a process starts (plugin binary, delegated IPAM). */
export interface ExecPayload {
  path: string;
  env: Record<string, string>;
  stdin: string;
  pid: number;
  /** The process that exec'd this one (an IPAM plugin's parent plugin). */
  parentPid?: number;
  /** Why the process could not start (it then never ran). */
  startError?: string;
}

/** `exit`: a process exits, or is killed. */
export interface ExitPayload {
  pid: number;
  stdout: string;
  stderr: string;
  exitCode: number;
  signal?: 'killed';
}

/** Arguments of each kernel call, as the `ip` / `tc` / `iptables` command would take them. */
export interface KernelArgs {
  'link.add': {
    ns: string;
    name: string;
    kind: string;
    peerName?: string;
    peerNs?: string;
    /** macvlan: the lower device and the mode. */
    lower?: string;
    mode?: string;
    mtu?: number;
    mac?: string;
    up?: boolean;
  };
  'link.del': { ns: string; name: string };
  'link.up': { ns: string; name: string };
  'link.down': { ns: string; name: string };
  'link.master': { ns: string; name: string; master: string };
  'link.hairpin': { ns: string; name: string; hairpin: boolean };
  'link.address': { ns: string; name: string; mac: string };
  'link.mtu': { ns: string; name: string; mtu: number };
  'link.txqlen': { ns: string; name: string; txqlen: number };
  'link.promisc': { ns: string; name: string; promisc: boolean };
  'link.allmulti': { ns: string; name: string; allmulti: boolean };
  'link.rename': { ns: string; name: string; newName: string };
  'link.netns': { ns: string; name: string; target: string };
  'addr.add': { ns: string; name: string; address: string };
  'addr.del': { ns: string; name: string; address: string };
  'route.add': { ns: string; route: string };
  'route.del': { ns: string; route: string };
  sysctl: { ns: string; key: string; value: string };
  'qdisc.add': {
    ns: string;
    name: string;
    kind: string;
    rate?: number;
    limit?: number;
    buffer?: number;
  };
  'filter.add': { ns: string; name: string; kind: string; redirect: string };
  iptables: IptablesArgs;
  'iptables.query': IptablesArgs;
  /** containerd: a sandbox's namespace bind-mounted at `path`, or unmounted. */
  'netns.add': { path: string };
  'netns.remove': { path: string };
  /** containerd: the pause process of a sandbox starts or stops (it holds the namespace). */
  'pause.start': { sandbox: string };
  'pause.stop': { sandbox: string };
  /** A test harness's direct change to the kernel. */
  test: Record<never, never>;
}

/** One iptables-restore/iptables run, with what it printed. */
export interface IptablesArgs {
  argv: string[];
  exitCode: number;
  stdout: string;
  stderr: string;
  readOnly: boolean;
}

export type KernelOp = keyof KernelArgs;

/** `kernel`: a kernel call; `pid` is the calling process's (absent for containerd's own calls). */
export type KernelPayload = {
  [O in KernelOp]: { op: O; pid?: number } & KernelArgs[O];
}[KernelOp];

/** Arguments of each file operation. */
export interface FsArgs {
  write: { data: string };
  mkdir: Record<never, never>;
  remove: Record<never, never>;
  rename: { to: string };
}

export type FsOp = keyof FsArgs;

/** `fs`: a file or directory change made by a process. */
export type FsPayload = {
  [O in FsOp]: { op: O; path: string; pid: number } & FsArgs[O];
}[FsOp];

/** The runtime configuration a libcni call is made with (libcni's RuntimeConf). */
export interface TraceRuntimeConf {
  containerId: string;
  netns: string;
  ifName: string;
  args: Array<[string, string]>;
  capabilityArgs: Record<string, unknown>;
  cacheDir?: string;
}

/** `libcni.call`: the runtime calls libcni. */
export type LibcniCallPayload =
  | { op: 'ADD' | 'CHECK' | 'DEL'; network: string; rt: TraceRuntimeConf }
  | {
      op: 'GC';
      network: string;
      valid: Array<{ containerID: string; ifname: string }> | null;
    }
  | { op: 'STATUS'; network: string }
  | { op: 'VERSION'; plugin: string };

export type LibcniOp = LibcniCallPayload['op'];

export type CacheAction =
  'written' | 'read' | 'removed' | 'remove-ignored-missing' | 'kept' | 'none';
export type CacheState = 'read' | 'missing' | 'unparsable' | 'not-read';

/** What libcni did with its result cache during a call. */
export interface CacheInfo {
  action: CacheAction;
  state?: CacheState;
  file?: string;
}

/** An error libcni returns, with what is known about its origin. */
export interface OutcomeError {
  code?: number;
  msg?: string;
  details?: string;
  /** The error string libcni returns (what the runtime logs). */
  message: string;
}

/** `libcni.return`: libcni's outcome (`result` is the CNI result as JSON). */
export type LibcniReturnPayload =
  | { op: LibcniOp; ok: true; result?: Record<string, unknown>; cache?: CacheInfo }
  | {
      op: LibcniOp;
      ok: false;
      error: OutcomeError;
      failedPluginIndex?: number;
      cache?: CacheInfo;
    };

/** `libcni.cache`: libcni read, wrote or removed its result cache. */
export interface LibcniCachePayload {
  op: LibcniOp;
  cache: CacheInfo;
}

/** A command a person (or a test) ran on a node, and how it ended. */
export interface CommandPayload {
  command: string;
  /** The line as typed, when it differs from the command's own text. */
  source?: string;
  exitCode?: number;
  stderr?: string;
}

/** `env`: a change made from outside (operator, fault, test driver). */
export type EnvPayload =
  | CommandPayload
  | { op: 'netns.add' | 'netns.del'; path: string }
  | { op: 'reboot' | 'env' }
  | { argv: string[] };

/** No details. */
export type EmptyPayload = Record<string, never>;

/** `note`: a marker with no state change. */
export type NotePayload = EmptyPayload;

/** A state machine's value: a state name, or nested states. */
export type MachineValue = string | Record<string, unknown>;

/** A pod as the CRI names it. */
export interface TracePodRef {
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
}

/** `state`: a state machine moved (`from` absent when it started), or a daemon/process changed. */
export type StatePayload =
  | { actor: string; machine: string; event?: string; from?: MachineValue; to: MachineValue }
  | { pid: number; blocked?: true }
  | { sandbox: string; pod: TracePodRef }
  | EmptyPayload;

/** `cri`: a CRI request (`detail`), its response (`ok`), or the runtime's network status. */
export type CriPayload =
  | { method: string; detail: string }
  | { method: string; ok: true; value: unknown }
  | { method: string; ok: false; error: string }
  | { method: 'Status'; networkReady: boolean; message: string };

/** A Kubernetes Event as recorded (the API server counts repeats; the trace holds each one). */
export interface TraceK8sEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** e.g. "pod/web-0" or "node/node-1". */
  object: string;
  uid?: string;
  namespace: string;
  source: string;
}

/** `api`: a write to the API server: a pod, a node's status, or an Event. */
export type ApiPayload =
  | { pod: string; op: 'create' | 'status' | 'delete' | 'remove' }
  | { node: string; op: 'nodeStatus' }
  | { event: TraceK8sEvent }
  /** An event the client's spam filter kept back (never sent: nothing changed in the API server). */
  | { dropped: TraceK8sEvent };

export type Unit = 'containerd' | 'crio' | 'kubelet';

/** `log`: a line in a node's journal. */
export interface LogPayload {
  unit: Unit;
  pid: number;
  /** The daemon's own line (what `journalctl -o cat` shows). */
  line: string;
  severity: 'info' | 'warning' | 'error';
}

/** A rule that matched a packet in a netfilter hook (or the chain policy that applied: rule -1). */
export interface PacketChainHit {
  table: string;
  chain: string;
  rule: number;
  text: string;
  target: string;
}

/**
 * `packet`: one hop of a packet's walk through the kernel (dataplane/), or the packets of a
 * command after its first that took the same way, recorded as one event (`repeat`).
 */
export type PacketPayload =
  | {
      op: 'hop';
      /** The packets of one command share a flow number; `seq` is the packet's (icmp_seq). */
      flow: number;
      seq: number;
      step: string;
      ns: string;
      dev?: string;
      packet: string;
      text: string;
      hook?: string;
      chains?: PacketChainHit[];
      conntrack?: string;
      drop?: string;
    }
  | { op: 'repeat'; flow: number; from: number; to: number; delivered: number; text: string };

/** The payload of each kind of event. */
export interface PayloadOf {
  'libcni.call': LibcniCallPayload; // runtime -> libcni: AddNetworkList / DelNetworkList / ...
  'libcni.return': LibcniReturnPayload; // libcni -> runtime: the outcome
  'libcni.cache': LibcniCachePayload; // libcni read/wrote/removed its result cache
  exec: ExecPayload; // a process starts (plugin binary, delegated IPAM)
  exit: ExitPayload; // a process exits
  kernel: KernelPayload; // a kernel operation (link, address, route, sysctl, iptables, netns)
  fs: FsPayload; // a file or directory change
  env: EnvPayload; // a change made from outside (operator, fault, test driver)
  note: NotePayload; // a marker with no state change
  state: StatePayload; // a state machine changed state (pod worker, sandbox, kubelet, ...)
  cri: CriPayload; // kubelet <-> containerd: a CRI request or its response
  api: ApiPayload; // kubelet -> API server: pod status, an event, node status
  log: LogPayload; // a line in a node's journal
  packet: PacketPayload; // a packet's hop through the kernel (dataplane)
}

export type EventKind = keyof PayloadOf;

// ---------------------------------------------------------------------------------------------
// Events

interface EventFields {
  /** Position in the trace (0-based). */
  seq: number;
  /** Virtual time in microseconds. */
  time: number;
  node: string | null;
  source: string;
  target: string;
  level: Level;
  /** One line a person can read, e.g. `add veth eth0 in /var/run/netns/pod-a (peer veth1a2b3c4d in host)`. */
  summary: string;
  /** Set when the operation failed (the state did not change). */
  error?: string;
  /** seq of the enclosing exec or libcni call, if any. */
  parent?: number;
}

/** An event of the trace; `TraceEvent<'exec'>` is an exec event. */
export type TraceEvent<K extends EventKind = EventKind> = {
  [P in K]: EventFields & { kind: P; payload: PayloadOf[P] };
}[K];

/** An event as it is recorded: the simulation gives it its `seq` and `time`. */
export type EventInit<K extends EventKind = EventKind> = {
  [P in K]: Omit<EventFields, 'seq' | 'time'> & { kind: P; payload: PayloadOf[P] };
}[K];

/** What a constructor takes: everything but the kind (and `error`, set when the change fails). */
export type EventSpec<K extends EventKind> = Omit<EventFields, 'seq' | 'time' | 'error'> & {
  payload: PayloadOf[K];
};

/** Builds an event with its keys in the trace's order (the JSON export keeps that order). */
function make<K extends EventKind>(kind: K, e: EventSpec<K>): EventInit<K> {
  const ev = {
    node: e.node,
    source: e.source,
    target: e.target,
    kind,
    level: e.level,
    summary: e.summary,
    payload: e.payload,
    ...(e.parent !== undefined ? { parent: e.parent } : {}),
  };
  return ev as EventInit<K>;
}

export const libcniCallEvent = (e: EventSpec<'libcni.call'>) => make('libcni.call', e);
export const libcniReturnEvent = (e: EventSpec<'libcni.return'>) => make('libcni.return', e);
export const libcniCacheEvent = (e: EventSpec<'libcni.cache'>) => make('libcni.cache', e);
export const execEvent = (e: EventSpec<'exec'>) => make('exec', e);
export const exitEvent = (e: EventSpec<'exit'>) => make('exit', e);
export const kernelEvent = (e: EventSpec<'kernel'>) => make('kernel', e);
export const fsEvent = (e: EventSpec<'fs'>) => make('fs', e);
export const envEvent = (e: EventSpec<'env'>) => make('env', e);
export const noteEvent = (e: EventSpec<'note'>) => make('note', e);
export const stateEvent = (e: EventSpec<'state'>) => make('state', e);
export const criEvent = (e: EventSpec<'cri'>) => make('cri', e);
export const apiEvent = (e: EventSpec<'api'>) => make('api', e);
export const logEvent = (e: EventSpec<'log'>) => make('log', e);
export const packetEvent = (e: EventSpec<'packet'>) => make('packet', e);

/** The CNI_COMMAND of an exec event ('' when it has none). */
export function cniCommand(e: TraceEvent<'exec'>): string {
  return e.payload.env['CNI_COMMAND'] ?? '';
}

/** A type guard for one kind: `events.filter(isKind('exec'))` is a list of exec events. */
export function isKind<K extends EventKind>(
  kind: K,
): (e: TraceEvent) => e is Extract<TraceEvent, { kind: K }> {
  return (e): e is Extract<TraceEvent, { kind: K }> => e.kind === kind;
}
