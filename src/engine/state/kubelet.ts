/** The kubelet's process state on a node (the pod workers are state machines in `actors`). */
export interface KubeletState {
  up: boolean;
  pid: number;
  /** What the last runtime Status call said about the network (NetworkReady). */
  networkReady: boolean;
  networkMessage: string;
  settings: KubeletSettings;
}

export interface KubeletSettings {
  /** --runtime-request-timeout, µs (default 2 min). */
  runtimeRequestTimeoutUs: number;
  /** Pod worker back-off after a failed sync, µs (10 s, jittered up to +50%). */
  backoffUs: number;
  /** Retry while the network is not ready, µs (1 s, jittered up to +50%). */
  networkRetryUs: number;
  /** How often the runtime's Status is polled, µs (5 s). */
  statusPeriodUs: number;
}
