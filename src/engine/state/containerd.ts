/**
 * containerd's state on a node, as data in the world: its CRI plugin's CNI configuration (what
 * go-cni loaded from /etc/cni/net.d) and its sandbox store. Sandbox metadata is on disk
 * (/var/lib/containerd): it survives a containerd restart and a reboot; the rest does not.
 */
import type { Table } from './table';

export interface PodRef {
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
}

export type SandboxStateName = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';

export interface SandboxRec {
  /** 64 hex characters. */
  id: string;
  pod: PodRef;
  /** /var/run/netns/cni-<uuid>. */
  netns: string;
  state: SandboxStateName;
  /** Pod IP (first IPv4 of eth0) and the others, from the CNI result. */
  ip: string;
  additionalIps: string[];
  /** Whether a CNI result was recorded (DEL failures are then errors, not warnings). */
  hasCniResult: boolean;
  /** The pause container's process is running (it keeps the netns alive). */
  pauseRunning: boolean;
  createdAt: number;
  /** containerd's StateUnknown: a failed RunPodSandbox whose clean-up failed (CRI: NOTREADY). */
  unknown?: boolean;
  /** The PodSandboxConfig it was created with (part of its metadata): what later DELs pass. */
  config?: PodSandboxConfig;
}

/** What the kubelet sends in RunPodSandbox (the parts that reach CNI). */
export interface PodSandboxConfig {
  pod: PodRef;
  portMappings: Array<{
    protocol: 'TCP' | 'UDP' | 'SCTP';
    containerPort: number;
    hostPort: number;
    hostIp: string;
  }>;
  annotations: Record<string, string>;
  dns: { servers: string[]; searches: string[]; options: string[] };
  cgroupParent: string;
}

export interface CniNetwork {
  /** The conflist's network name, e.g. "cni-loopback" or "k8s-pod-network". */
  name: string;
  ifName: string;
  /** Source file (empty for the built-in loopback network). */
  file: string;
  /** The conflist bytes (what go-cni parsed; libcni re-parses them per call). */
  bytes: string;
  /**
   * libcni v1.3 (containerd 2.1+): the plugin configs loaded from `<conf dir>/<network name>/`
   * with the list, appended after its own plugins (their bytes as read).
   */
  dirPlugins?: string[];
}

export interface ContainerdState {
  up: boolean;
  pid: number;
  /** go-cni's loaded networks; `error` is set (and networks empty) when loading failed. */
  cni: { networks: CniNetwork[]; error: string | null };
  /**
   * The sandbox store by id, in creation order (a table: state/table.ts, so that one more sandbox
   * costs each trace step the same at 10 pods as at 500).
   */
  sandboxes: Table<SandboxRec>;
  /**
   * Sandboxes whose metadata is saved (from 1.6.9, with the netns, before the network is set up)
   * while RunPodSandbox still runs: not in the store, so not listed; a restart loads them.
   */
  saved?: Record<string, SandboxRec>;
  /**
   * The sandbox name index (pkg/registrar): `<pod>_<namespace>_<uid>_<attempt>` to the sandbox
   * id holding it. In memory: rebuilt from the recovered sandboxes at start.
   */
  names?: Table<string>;
  settings: ContainerdSettings;
  /**
   * A release installed on disk that the daemon does not run yet (the binary was replaced while
   * it ran): it runs from the daemon's next start, which moves it into `settings.version`.
   */
  installed?: string;
  /**
   * The conf dir was removed while the daemon ran: inotify dropped its watch (IN_DELETE_SELF,
   * IN_IGNORED), so nothing in a re-created directory is loaded until the next start.
   */
  confWatchLost?: boolean;
  /** CRI-O's own state, on a CRI-O node. */
  crio?: CrioState;
}

/** What CRI-O (its CNI manager and ocicni) keeps in memory, beside the shared records. */
export interface CrioState {
  /** ocicni's default network (the first valid file's network name), '' while there is none. */
  defaultNet: string;
  /**
   * CNIManager.lastError, what CRI Status reports (`cnimgr.go` ReadyOrError): null once the
   * start-up poll saw the plugin ready; never set again after that up to 1.35 (1.36 keeps
   * polling: runtime/crio.ts monitorPoll).
   */
  lastError: string | null;
  /** The start-up poll saw the plugin ready and stopped (pollUntilReady). */
  pollDone?: boolean;
  /**
   * 1.36: when the continuous STATUS poll first failed since the plugin was last healthy (the
   * clock, µs; `cnimgr.go` firstFailureTime), while within the grace period.
   */
  firstFailure?: number;
  /** Sandboxes whose network is stopped (`sb.NetworkStopped()`): a later stop runs no DEL. */
  networkStopped: string[];
  /**
   * resourcestore: a RunPodSandbox that outlived the kubelet's deadline keeps its sandbox here,
   * by sandbox name, for the kubelet's retry (`server/utils.go` getResourceOrWait).
   */
  resources: Record<string, { id: string; done: boolean }>;
}

export interface ContainerdSettings {
  /**
   * The CRI runtime the node runs: containerd (absent) or CRI-O with ocicni (runtime/crio.ts),
   * whose state shares this record's shape (its networks, sandboxes and name index).
   */
  runtime?: 'cri-o';
  /**
   * The release the node runs, e.g. "1.7.22" (runtime/releases.ts), or the CRI-O release on a
   * CRI-O node, e.g. "1.31.13" (runtime/crio-releases.ts).
   */
  version: string;
  confDir: string;
  binDirs: string[];
  maxConfNum: number;
  /** libcni generation containerd is built with (decided by `version`). */
  libcni: '1.1' | '1.2';
  ipPref: 'ipv4' | 'ipv6' | 'cni';
}
