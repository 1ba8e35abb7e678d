/**
 * The kubelet on one node, as far as pod networking goes: a pod worker per pod (a state machine,
 * machines.ts) whose actions become CRI calls to containerd, pod status and events in the API
 * server, and kubelet journal lines; the runtime's network readiness; restarts.
 * Facts: ../shared/reference/kubelet-containerd.md §2-§7.
 *
 * The kubelet only talks to containerd (CRI) and to the API server, never to libcni or plugins.
 */
import {
  createPod as _createPod,
  DEFAULT_TOLERATION_US,
  markDeleting,
  NOT_READY_TAINT,
  podKey,
  forgetEventClient,
  recordEvent,
  removePod,
  setCondition,
  setNodeReady,
  updatePod,
} from '../apiserver/apiserver';
import { DEFAULT_APP_IMAGE, type ApiState, type K8sEvent, type PodObj } from '../state/api';
import { type KlogValue, kubeletLine, writeLog } from '../node/journal';
import type { Gen } from '../os/sys';
import {
  type Containerd,
  type CriResult,
  type PodSandboxConfig,
  rpcErrorText,
  sandboxActorId,
} from '../runtime/containerd';
import type { MachineHost } from '../sched/machines';
import { Ctx, type Scheduler, type Task } from '../sched/scheduler';
import type { Simulation } from '../sim/world';
import { tentries, tget } from '../state/table';
import { rfc3339Nano } from '../trace/time';
import { criEvent, stateEvent } from '../trace/trace';
import type { PodWorkerContext } from './machines';
import type { KubeletSettings, KubeletState } from '../state/kubelet';

void _createPod;

export const DEFAULT_KUBELET_SETTINGS: KubeletSettings = {
  runtimeRequestTimeoutUs: 120_000_000,
  backoffUs: 10_000_000,
  networkRetryUs: 1_000_000,
  statusPeriodUs: 5_000_000,
};

/** The kubelet's container and sandbox garbage collection period (ContainerGCPeriod). */
export const GC_PERIOD_US = 60_000_000;

/** How long pulling (already present) and starting the pod's container takes, ms. */
export const CONTAINER_START_MS = 800;

export interface KubeletDeps {
  sim: Simulation;
  sched: Scheduler;
  host: MachineHost;
}

export function podWorkerId(node: string, key: string): string {
  return `pod/${node}/${key}`;
}

export function kubeletActorId(node: string): string {
  return `kubelet/${node}`;
}

export function newKubeletState(settings: KubeletSettings, pid: number): KubeletState {
  return { up: false, pid, networkReady: false, networkMessage: '', settings };
}

/**
 * The journal lines the kubelet writes on every 5-s runtime status poll while the network is not
 * ready or the runtime does not answer: periodic, not part of any retry of a pod.
 */
export const STATUS_POLL_LINE =
  /\] "(Container runtime network not ready|Status from runtime service failed|Container runtime sanity check failed|Skipping pod synchronization)"/;

/** runtime_state.go baseRuntimeSyncThreshold: no good status for this long is "runtime is down". */
const RUNTIME_SYNC_THRESHOLD_US = 30_000_000;

const NOT_READY_PREFIX = 'NetworkReady=false reason:NetworkPluginNotReady message:';

/** What a CRI call gets while containerd is down: its socket refuses the connection. */
const RUNTIME_DOWN = {
  code: 'Unavailable' as const,
  desc: 'connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"',
};

export class Kubelet {
  /** Work in flight per pod worker (tasks die with the kubelet). */
  private readonly inflight = new Map<string, Set<Task>>();
  /** The runtime status check in flight (a CRI Status that runs CNI STATUS), if any. */
  private statusTask: Task | null = null;
  /** Something changed while it ran: check again. */
  private statusAgain = false;
  private startedAt = 0;
  /** A change was noticed since the last runtime status check: the next poll checks anew. */
  private checkDue = false;
  /**
   * When the runtime last answered a status check (runtimeState.lastBaseRuntimeSync); null until
   * it first does after a start (the zero time: "down" at once).
   */
  private lastRuntimeSync: number | null = null;
  /** containerd was down when a change was last noticed. */
  private downNoticed = false;

  constructor(
    readonly deps: KubeletDeps,
    readonly node: string,
    readonly containerd: Containerd,
  ) {}

  private get sim(): Simulation {
    return this.deps.sim;
  }

  /** What a CRI call gets while the runtime is down: its socket (CRI-O: /var/run/crio/crio.sock). */
  private runtimeDownError(): typeof RUNTIME_DOWN {
    if (this.containerd.unit !== 'crio') return RUNTIME_DOWN;
    return {
      ...RUNTIME_DOWN,
      desc: RUNTIME_DOWN.desc.replace('/run/containerd/containerd.sock', '/var/run/crio/crio.sock'),
    };
  }

  get state(): KubeletState {
    const k = this.sim.node(this.node).kubelet;
    if (!k) throw new Error(`node ${this.node} has no kubelet`);
    return k;
  }

  private get settings(): KubeletSettings {
    return this.state.settings;
  }

  private log(
    sev: 'I' | 'W' | 'E',
    where: string,
    msg: string,
    fields: Record<string, KlogValue> = {},
  ): void {
    writeLog(
      this.sim,
      this.node,
      'kubelet',
      this.state.pid,
      sev === 'E' ? 'error' : sev === 'W' ? 'warning' : 'info',
      kubeletLine(this.sim.state.clock, sev, this.state.pid, where, msg, fields),
    );
  }

  /** An event about a pod, as this node's kubelet reports it to the API server. */
  private podEvent(p: PodObj, type: K8sEvent['type'], reason: string, message: string): void {
    recordEvent(
      this.sim,
      {
        type,
        reason,
        message,
        object: `pod/${p.spec.name}`,
        uid: p.spec.uid,
        namespace: p.spec.namespace,
        source: `kubelet, ${this.node}`,
      },
      this.node,
    );
  }

  private pod(key: string): PodObj | undefined {
    return tget(this.sim.state.api?.pods, key);
  }

  private jitter(baseUs: number): number {
    const f = this.sim.random((r) => r.int(1000)) / 1000;
    return Math.round((baseUs * (1 + 0.5 * f)) / 1000);
  }

  // ---------------------------------------------------------------------------------------------
  // The process

  start(): void {
    const pid = this.sim.state.nextPid;
    this.sim.apply(
      stateEvent({
        node: this.node,
        source: 'systemd',
        target: 'kubelet',
        level: 'cluster',
        summary: `kubelet started (pid ${pid})`,
        payload: { pid },
      }),
      (d) => {
        d.nextPid += 1;
        const k = d.nodes[this.node]!.kubelet!;
        k.up = true;
        k.pid = pid;
      },
    );
    this.startedAt = this.sim.state.clock;
    this.lastRuntimeSync = null;
    this.downNoticed = false;
    const id = kubeletActorId(this.node);
    if (this.deps.host.get(id)) this.deps.host.send(id, { type: 'START' });
    else this.deps.host.start(id, 'kubelet', { node: this.node });
    this.checkRuntime();
    this.noticeGarbage();
    // Rebuild from the API server and the runtime: every pod bound to this node gets a worker.
    for (const [key, p] of this.sim.state.api ? tentries(this.sim.state.api.pods) : []) {
      if (p.spec.nodeName !== this.node) continue;
      const w = this.deps.host.get(podWorkerId(this.node, key));
      if (w && w.status === 'active')
        this.deps.host.send(podWorkerId(this.node, key), { type: 'KUBELET_UP' });
      else if (!w || w.status !== 'active') {
        this.addPod(key);
        // Deleted while the kubelet was down, before it had a worker: terminate, not start.
        if (p.deletionTimestamp !== null) this.deletePod(key);
      }
    }
  }

  /** The kubelet stops (restart or crash): in-flight work is lost, CRI calls are cancelled. */
  stop(): void {
    for (const [, tasks] of this.inflight) for (const t of [...tasks]) this.deps.sched.kill(t);
    this.inflight.clear();
    this.deps.sched.cancel(`kubelet/${this.node}/status`);
    this.deps.sched.cancel(`kubelet/${this.node}/gc`);
    this.sim.apply(
      stateEvent({
        node: this.node,
        source: 'systemd',
        target: 'kubelet',
        level: 'cluster',
        summary: 'kubelet stopped',
        payload: {},
      }),
      (d) => {
        d.nodes[this.node]!.kubelet!.up = false;
        if (d.api) forgetEventClient(d.api as ApiState, `kubelet, ${this.node}`);
      },
    );
    this.deps.host.send(kubeletActorId(this.node), { type: 'STOP' });
    for (const [id, rec] of tentries(this.sim.state.actors)) {
      if (
        rec.machine === 'podWorker' &&
        rec.status === 'active' &&
        (rec.context as unknown as PodWorkerContext).node === this.node
      ) {
        this.deps.host.send(id, { type: 'KUBELET_DOWN' });
      }
    }
  }

  /** A pod was bound to this node. */
  addPod(key: string): void {
    this.scheduleTaintEviction();
    if (!this.state.up) return;
    this.deps.host.start(
      podWorkerId(this.node, key),
      'podWorker',
      { pod: key, node: this.node, containerStartMs: CONTAINER_START_MS },
      `kubelet: pod worker for ${key} started`,
    );
  }

  deletePod(key: string): void {
    this.deps.host.send(podWorkerId(this.node, key), { type: 'DELETE' });
  }

  // ---------------------------------------------------------------------------------------------
  // Runtime status (NetworkReady), polled every statusPeriodUs

  /** Asks for a runtime status check at the kubelet's next poll. */
  noticeRuntimeChange(): void {
    if (!this.state.up) return;
    // containerd just went down: it answered every poll until now (polls that change nothing
    // are not shown).
    if (!this.containerd.state.up && !this.downNoticed && this.lastRuntimeSync !== null) {
      this.lastRuntimeSync = Math.max(this.lastRuntimeSync, this.lastPoll());
    }
    this.downNoticed = !this.containerd.state.up;
    this.checkDue = true;
    this.schedulePoll();
  }

  /** The time of the kubelet's last 5-s poll at or before now. */
  private lastPoll(): number {
    const period = this.settings.statusPeriodUs;
    return this.startedAt + Math.floor((this.sim.state.clock - this.startedAt) / period) * period;
  }

  private schedulePoll(): void {
    const key = `kubelet/${this.node}/status`;
    const at = this.lastPoll() + this.settings.statusPeriodUs;
    if (!this.deps.sched.hasTimer(key))
      this.deps.sched.at(at, key, () => (this.checkDue ? this.checkRuntime() : this.poll()));
  }

  /**
   * A poll with nothing noticed since the last check: the runtime answers as it did, so only what
   * the kubelet logs on every poll shows (kubelet.go updateRuntimeUp, every 5 s): the network
   * not being ready, or the runtime not answering at all. A node whose runtime is fine records
   * nothing. (A 2.0.1+ node would run CNI STATUS again on each of these polls; they are not shown.)
   */
  private poll(): void {
    if (!this.state.up) return;
    if (!this.containerd.state.up) {
      this.runtimeDown();
      return;
    }
    if (this.state.networkReady) return;
    this.logNetworkNotReady(this.state.networkMessage);
    this.schedulePoll();
  }

  /**
   * CRI Status fails while the runtime is down: "Container runtime sanity check failed" on every
   * poll, and nothing else changes until 30 s have passed without a good status
   * (runtime_state.go runtimeErrors, baseRuntimeSyncThreshold); then the node goes NotReady with
   * "container runtime is down" and the sync loop skips pods (kubelet.go syncLoop).
   */
  private runtimeDown(): void {
    const down = this.runtimeDownError();
    const err = `rpc error: code = ${down.code} desc = ${down.desc}`;
    this.log('E', 'log.go:32', 'Status from runtime service failed', { err });
    this.log('E', 'kubelet.go:2986', 'Container runtime sanity check failed', { err });
    const since = this.lastRuntimeSync;
    if (since === null || this.sim.state.clock - since >= RUNTIME_SYNC_THRESHOLD_US) {
      this.log('E', 'kubelet.go:2405', 'Skipping pod synchronization', {
        err: 'container runtime is down',
      });
      if (this.sim.state.api?.nodes[this.node]?.ready.message !== 'container runtime is down') {
        setNodeReady(this.sim, this.node, {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message: 'container runtime is down',
        });
        this.scheduleTaintEviction();
      }
    }
    this.schedulePoll();
  }

  private logNetworkNotReady(message: string): void {
    this.log('E', 'kubelet.go:3002', 'Container runtime network not ready', {
      networkReady: `${NOT_READY_PREFIX}${message}`,
    });
  }

  /**
   * The runtime status check (kubelet.go updateRuntimeUp → CRI Status). On containerd 2.0.1+
   * with a list of cniVersion 1.1.0 or newer, Status runs CNI STATUS through libcni (plugin
   * processes), so it is a CRI call of its own; elsewhere it reads containerd's state.
   *
   * The kubelet asks every 5 s. cnisim checks only when something its answer depends on may have
   * changed (containerd started or stopped, the conf dir or the plugin binaries changed): the
   * polls in between give the same answer and are not shown, so an idle node records nothing.
   */
  private checkRuntime(): void {
    this.checkDue = false;
    if (!this.containerd.state.up) {
      this.runtimeDown();
      return;
    }
    if (this.containerd.statusNetworks().length === 0) {
      this.applyStatus(this.containerd.status());
      return;
    }
    if (this.statusTask && !this.statusTask.done) {
      this.statusAgain = true;
      return;
    }
    this.statusAgain = false;
    const body = function* (this: Kubelet): Gen<void> {
      const r = yield* this.cri('Status', 'NetworkReady', (_ctx, seq) =>
        this.containerd.statusWithCni(seq),
      );
      if (!r.ok && !this.containerd.state.up) this.runtimeDown();
      else this.applyStatus(r.ok ? r.value : this.containerd.status());
      if (this.statusAgain) this.noticeRuntimeChange();
    }.call(this);
    const t = this.deps.sched.spawn(body, {
      name: 'kubelet Status',
      node: this.node,
      onDone: (task) => this.untrack('status', task as Task),
    });
    this.track('status', t as Task);
    this.statusTask = t as Task;
  }

  private applyStatus(st: { ready: boolean; message: string }): void {
    const k = this.state;
    const message = st.ready ? '' : st.message;
    this.lastRuntimeSync = this.sim.state.clock;
    if (!st.ready) this.schedulePoll();
    if (
      k.networkReady === st.ready &&
      k.networkMessage === message &&
      this.sim.state.api?.nodes[this.node]?.ready.status === (st.ready ? 'True' : 'False') &&
      this.sim.state.api?.nodes[this.node]?.ready.message !== 'container runtime is down'
    ) {
      if (!st.ready) this.logNetworkNotReady(message);
      return;
    }
    this.sim.apply(
      criEvent({
        node: this.node,
        source: 'kubelet',
        target: this.containerd.unit,
        level: 'runtime',
        summary: st.ready ? 'Status: NetworkReady=true' : `Status: NetworkReady=false (${message})`,
        payload: { method: 'Status', networkReady: st.ready, message },
      }),
      (d) => {
        const kk = d.nodes[this.node]!.kubelet!;
        kk.networkReady = st.ready;
        kk.networkMessage = message;
      },
    );
    this.noticeGarbage();
    if (st.ready) {
      setNodeReady(this.sim, this.node, {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
      });
    } else {
      this.logNetworkNotReady(message);
      setNodeReady(this.sim, this.node, {
        type: 'Ready',
        status: 'False',
        reason: 'KubeletNotReady',
        message: `container runtime network not ready: ${NOT_READY_PREFIX}${message}`,
      });
    }
    this.scheduleTaintEviction();
  }

  // ---------------------------------------------------------------------------------------------
  // Taint-based eviction (kube-controller-manager, not the kubelet; kept here, beside the status
  // that decides it, because it acts on this node's pods only)

  /**
   * The taint eviction controller (pkg/controller/tainteviction/taint_eviction.go
   * processPodOnNode): a pod on a node with a NoExecute taint it tolerates for 300 s (every pod's
   * default toleration of node.kubernetes.io/not-ready) is deleted 300 s after the controller saw
   * it there: the taint's time for the pods already on the node, the pod's creation for later
   * ones. The node turning Ready again takes the taint away and cancels the evictions. Until
   * then the pods stay Ready and in their Services' endpoints (only an Unknown node, a kubelet
   * that stopped posting, has its pods marked NotReady: not modelled).
   */
  private scheduleTaintEviction(): void {
    const key = `taint-eviction/${this.node}`;
    const due = this.evictionsDue();
    if (due === null) this.deps.sched.cancel(key);
    else this.deps.sched.at(due, key, () => this.evictPods());
  }

  /** When the next pod of this node is to be evicted, or null if none is. */
  private evictionsDue(): number | null {
    const api = this.sim.state.api;
    const taint = api?.nodes[this.node]?.taints?.find(
      (t) => t.key === NOT_READY_TAINT && t.effect === 'NoExecute',
    );
    if (!api || !taint) return null;
    let due: number | null = null;
    for (const [, p] of tentries(api.pods)) {
      if (p.spec.nodeName !== this.node || p.deletionTimestamp !== null) continue;
      const at = Math.max(taint.timeAdded, p.createdAt) + DEFAULT_TOLERATION_US;
      if (due === null || at < due) due = at;
    }
    return due;
  }

  private evictPods(): void {
    const api = this.sim.state.api;
    const taint = api?.nodes[this.node]?.taints?.find(
      (t) => t.key === NOT_READY_TAINT && t.effect === 'NoExecute',
    );
    if (!api || !taint) return;
    const now = this.sim.state.clock;
    for (const [key, p] of tentries(api.pods)) {
      if (p.spec.nodeName !== this.node || p.deletionTimestamp !== null) continue;
      if (Math.max(taint.timeAdded, p.createdAt) + DEFAULT_TOLERATION_US > now) continue;
      // taint_eviction.go deletePodHandler: a DisruptionTarget condition, the event, then a
      // graceful delete (the pod's own grace period).
      const source = 'taint-eviction-controller';
      recordEvent(this.sim, {
        type: 'Normal',
        reason: 'TaintManagerEviction',
        message: `Marking for deletion Pod ${key}`,
        object: `pod/${p.spec.name}`,
        uid: p.spec.uid,
        namespace: p.spec.namespace,
        source,
      });
      markDeleting(this.sim, key, source, (pp) =>
        setCondition(pp, {
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'DeletionByTaintManager',
          message: 'Taint manager: deleting due to NoExecute taint',
        }),
      );
      if (this.state.up) this.deletePod(key);
    }
    this.scheduleTaintEviction();
  }

  // ---------------------------------------------------------------------------------------------
  // Garbage collection of sandboxes (kuberuntime_gc.go evictSandboxes), every GC_PERIOD_US

  /**
   * The sandboxes the GC removes: not ready, and either of a pod that is gone or not the newest
   * sandbox of their pod. (Sandboxes being stopped right now are left for the next round.)
   */
  private garbage(): string[] {
    if (!this.state.up || !this.containerd.state.up) return [];
    const byPod = new Map<string, ReturnType<Containerd['listPodSandbox']>>();
    for (const sb of this.containerd.listPodSandbox()) {
      const l = byPod.get(sb.pod.uid) ?? [];
      l.push(sb);
      byPod.set(sb.pod.uid, l);
    }
    const live = new Set<string>();
    for (const [, p] of this.sim.state.api ? tentries(this.sim.state.api.pods) : []) {
      if (p.spec.nodeName === this.node) live.add(p.spec.uid);
    }
    const out: string[] = [];
    for (const [uid, sbs] of byPod) {
      const candidates = live.has(uid) ? sbs.slice(0, -1) : sbs;
      for (const sb of candidates) {
        const v = this.deps.host.get(sandboxActorId(this.node, sb.id))?.value;
        if (sb.state !== 'SANDBOX_READY' && v !== 'stopping') out.push(sb.id);
      }
    }
    return out;
  }

  /**
   * Something may have become garbage (a sandbox stopped, a pod gone): the GC's next round, on
   * the kubelet's one-minute grid, looks. Nothing is scheduled while there is nothing to collect,
   * so an idle node stays idle.
   */
  noticeGarbage(): void {
    if (!this.state.up || this.garbage().length === 0) return;
    const key = `kubelet/${this.node}/gc`;
    if (this.deps.sched.hasTimer(key)) return;
    const since = this.sim.state.clock - this.startedAt;
    const at = this.startedAt + (Math.floor(since / GC_PERIOD_US) + 1) * GC_PERIOD_US;
    this.deps.sched.at(at, key, () => this.collectGarbage());
  }

  private collectGarbage(): void {
    const ids = this.garbage();
    if (ids.length === 0) return;
    this.work(
      `gc/${this.node}`,
      'GarbageCollect',
      function* (this: Kubelet) {
        let failed = false;
        for (const id of ids) {
          if (!tget(this.containerd.state.sandboxes, id)) continue;
          const r = yield* this.cri('RemovePodSandbox', id.slice(0, 13), (_c, seq) =>
            this.containerd.removePodSandbox(id, undefined, seq),
          );
          if (!r.ok) {
            failed = true;
            this.log('E', 'kuberuntime_gc.go:180', 'Failed to remove sandbox', {
              err: rpcErrorText(r.error),
              sandboxID: id,
            });
          }
        }
        // What is left (a removal that failed) is looked at again a minute later.
        if (failed) this.noticeGarbage();
      }.call(this),
    );
  }

  // ---------------------------------------------------------------------------------------------
  // CRI calls

  private track(worker: string, t: Task): void {
    let s = this.inflight.get(worker);
    if (!s) this.inflight.set(worker, (s = new Set()));
    s.add(t);
  }

  private untrack(worker: string, t: Task): void {
    this.inflight.get(worker)?.delete(t);
  }

  /** Runs `body` as a kubelet task on behalf of a pod worker. */
  private work(worker: string, name: string, body: Gen<void>): void {
    const t = this.deps.sched.spawn(body, {
      name: `kubelet ${name}`,
      node: this.node,
      onDone: (task) => this.untrack(worker, task as Task),
    });
    this.track(worker, t as Task);
  }

  /**
   * One CRI call: the request event, containerd serving it as a task of its own, the kubelet's
   * deadline and the response event. The deadline is --runtime-request-timeout, twice that for
   * RunPodSandbox (cri-client remote_runtime.go RunPodSandbox: `timeout := r.timeout * 2`).
   */
  private *cri<T>(
    method: string,
    detail: string,
    call: (ctx: Ctx, seq: number) => Gen<CriResult<T>>,
  ): Gen<CriResult<T>> {
    const req = this.sim.note(
      criEvent({
        node: this.node,
        source: 'kubelet',
        target: this.containerd.unit,
        level: 'runtime',
        summary: `${method} ${detail}`,
        payload: { method, detail },
      }),
    );
    let r: CriResult<T>;
    if (!this.containerd.state.up) {
      r = { ok: false, error: this.runtimeDownError() };
    } else {
      const ctx = new Ctx();
      const task = this.containerd.serve(method, call(ctx, req.seq), () => {});
      let timedOut = false;
      const key = `kubelet/${this.node}/deadline/${req.seq}`;
      const timeoutUs =
        method === 'RunPodSandbox'
          ? 2 * this.settings.runtimeRequestTimeoutUs
          : this.settings.runtimeRequestTimeoutUs;
      this.deps.sched.after(timeoutUs, key, () => {
        timedOut = true;
        ctx.cancel('context deadline exceeded');
      });
      const waitable = {
        get done() {
          return task.done || timedOut;
        },
      };
      try {
        while (!waitable.done) yield { tick: true, wait: waitable };
      } finally {
        this.deps.sched.cancel(key);
        // The kubelet gave up or went away: the request's context is cancelled.
        if (!task.done) ctx.cancel('context canceled');
      }
      if (!task.done)
        r = { ok: false, error: { code: 'DeadlineExceeded', desc: 'context deadline exceeded' } };
      else if (task.killed)
        r = { ok: false, error: { code: 'Unavailable', desc: 'error reading from server: EOF' } };
      else r = task.value as CriResult<T>;
    }
    this.sim.note(
      criEvent({
        node: this.node,
        source: this.containerd.unit,
        target: 'kubelet',
        level: 'runtime',
        summary: r.ok
          ? `${method} ok${typeof r.value === 'string' ? `: ${r.value.slice(0, 13)}` : ''}`
          : `${method}: ${rpcErrorText(r.error)}`,
        payload: r.ok
          ? { method, ok: true, value: r.value }
          : { method, ok: false, error: rpcErrorText(r.error) },
        parent: req.seq,
      }),
    );
    return r;
  }

  /** generatePodSandboxConfig: what reaches CNI. */
  private sandboxConfig(p: PodObj, attempt: number): PodSandboxConfig {
    return {
      pod: { name: p.spec.name, namespace: p.spec.namespace, uid: p.spec.uid, attempt },
      portMappings: p.spec.hostPorts.map((h) => ({
        protocol: h.protocol,
        containerPort: h.containerPort,
        hostPort: h.hostPort,
        hostIp: h.hostIP ?? '',
      })),
      annotations: {
        'kubernetes.io/config.seen': rfc3339Nano(p.createdAt).replace(/000Z$/, 'Z'),
        'kubernetes.io/config.source': 'api',
        ...p.spec.annotations,
      },
      dns: {
        servers: ['10.96.0.10'],
        searches: [`${p.spec.namespace}.svc.cluster.local`, 'svc.cluster.local', 'cluster.local'],
        options: ['ndots:5'],
      },
      cgroupParent: `/kubepods/besteffort/pod${p.spec.uid}`,
    };
  }

  private podSandboxes(uid: string) {
    return this.containerd.state.up
      ? this.containerd.listPodSandbox().filter((s) => s.pod.uid === uid)
      : [];
  }

  private podLabel(p: PodObj): string {
    return `${p.spec.name}_${p.spec.namespace}(${p.spec.uid})`;
  }

  // ---------------------------------------------------------------------------------------------
  // Effects of the pod worker's actions

  readonly effects = {
    sync: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) => {
      const ctx = c as unknown as PodWorkerContext;
      const p = this.pod(ctx.pod);
      if (!p) return;
      if (!this.state.networkReady) {
        host.send(id, {
          type: 'NETWORK_NOT_READY',
          retryMs: this.jitter(this.settings.networkRetryUs),
        });
        return;
      }
      const sbs = this.podSandboxes(p.spec.uid);
      const newest = sbs[sbs.length - 1];
      if (newest && newest.state === 'SANDBOX_READY' && newest.ip) {
        host.send(id, { type: 'HAS_SANDBOX', sandboxId: newest.id });
        return;
      }
      const needsKill = sbs.find((s) => {
        const v = host.get(sandboxActorId(this.node, s.id))?.value;
        return v !== 'stopped' && v !== 'removed';
      });
      if (needsKill) host.send(id, { type: 'SANDBOX_CHANGED', sandboxId: needsKill.id });
      else host.send(id, { type: 'NEED_SANDBOX' });
    },

    networkNotReady: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) => {
      const ctx = c as unknown as PodWorkerContext;
      const p = this.pod(ctx.pod);
      if (!p) return;
      // No status answered since the kubelet started: runtime_state.go's ErrNetworkUnknown.
      const msg = this.state.networkMessage
        ? `network is not ready: container runtime network not ready: ${NOT_READY_PREFIX}${this.state.networkMessage}`
        : 'network is not ready: network state unknown';
      this.podEvent(p, 'Warning', 'NetworkNotReady', msg);
      this.log('E', 'pod_workers.go:1301', 'Error syncing pod, skipping', {
        err: msg,
        pod: ctx.pod,
        podUID: p.spec.uid,
      });
    },

    runPodSandbox: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) => {
      const ctx = c as unknown as PodWorkerContext;
      const p = this.pod(ctx.pod);
      if (!p) return;
      const attempt = ctx.attempt;
      // computePodActions: the newest sandbox's attempt + 1 (0 for the first).
      const newest = this.podSandboxes(p.spec.uid).pop();
      const sbAttempt = newest ? newest.pod.attempt + 1 : 0;
      const cfg = this.sandboxConfig(p, sbAttempt);
      this.work(
        id,
        `CreatePodSandbox ${ctx.pod}`,
        function* (this: Kubelet) {
          const r = yield* this.cri('RunPodSandbox', ctx.pod, (c, seq) =>
            this.containerd.runPodSandbox(cfg, c, seq),
          );
          // An older sandbox of the pod is garbage now (the newest one is kept).
          this.noticeGarbage();
          if (r.ok) {
            host.send(id, { type: 'SANDBOX_READY', attempt, sandboxId: r.value });
            return;
          }
          const err = rpcErrorText(r.error);
          const label = this.podLabel(p);
          this.log('E', 'log.go:32', 'RunPodSandbox from runtime service failed', { err });
          this.log('E', 'kuberuntime_sandbox.go:72', 'Failed to create sandbox for pod', {
            err,
            pod: ctx.pod,
          });
          this.log('E', 'kuberuntime_manager.go:1172', 'CreatePodSandbox for pod failed', {
            err,
            pod: ctx.pod,
          });
          this.log('E', 'pod_workers.go:1301', 'Error syncing pod, skipping', {
            err: `failed to "CreatePodSandbox" for "${label}" with CreatePodSandboxError: "Failed to create sandbox for pod \\"${label}\\": ${err.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
            pod: ctx.pod,
            podUID: p.spec.uid,
          });
          host.send(id, {
            type: 'SANDBOX_FAILED',
            attempt,
            error: err,
            retryMs: this.jitter(this.settings.backoffUs),
          });
        }.call(this),
      );
    },

    failedCreate: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) => {
      const ctx = c as unknown as PodWorkerContext;
      const p = this.pod(ctx.pod);
      if (!p || p.deletionTimestamp !== null) return;
      this.podEvent(
        p,
        'Warning',
        'FailedCreatePodSandBox',
        `Failed to create pod sandbox: ${ctx.lastError ?? ''}`,
      );
    },

    containersStarted: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) => {
      const ctx = c as unknown as PodWorkerContext;
      const p = this.pod(ctx.pod);
      const sb = ctx.sandboxId ? tget(this.containerd.state.sandboxes, ctx.sandboxId) : undefined;
      if (!p || !sb) return;
      // The kubelet came back to a pod whose sandbox and container still run: nothing new.
      if (p.containerRunning && p.podIP === sb.ip) return;
      const restarted = p.phase === 'Running';
      for (const [reason, message] of [
        // The app's image (IfNotPresent, already there); the pause image never shows in events.
        [
          'Pulled',
          `Container image "${p.spec.image ?? DEFAULT_APP_IMAGE}" already present on machine`,
        ],
        ['Created', `Created container ${containerName(p)}`],
        ['Started', `Started container ${containerName(p)}`],
      ] as const) {
        this.podEvent(p, 'Normal', reason, message);
      }
      updatePod(
        this.sim,
        ctx.pod,
        `pod ${ctx.pod} Running, IP ${sb.ip}`,
        (pp) => {
          pp.phase = 'Running';
          pp.podIP = sb.ip;
          pp.podIPs = [sb.ip, ...sb.additionalIps];
          pp.containerRunning = true;
          pp.waitingReason = null;
          if (restarted) pp.restarts += 1;
          setCondition(pp, { type: 'Ready', status: 'True' });
          setCondition(pp, { type: 'ContainersReady', status: 'True' });
        },
        this.node,
      );
    },

    sandboxChanged: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) => {
      const ctx = c as unknown as PodWorkerContext;
      const p = this.pod(ctx.pod);
      if (!p) return;
      this.podEvent(
        p,
        'Normal',
        'SandboxChanged',
        'Pod sandbox changed, it will be killed and re-created.',
      );
      updatePod(
        this.sim,
        ctx.pod,
        `pod ${ctx.pod}: sandbox not ready`,
        (pp) => {
          pp.containerRunning = false;
          pp.waitingReason = 'ContainerCreating';
          setCondition(pp, { type: 'Ready', status: 'False', reason: 'ContainersNotReady' });
          setCondition(pp, {
            type: 'ContainersReady',
            status: 'False',
            reason: 'ContainersNotReady',
          });
        },
        this.node,
      );
    },

    stopSandbox: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) =>
      this.stopAll(host, id, c as unknown as PodWorkerContext, false),
    killPod: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) =>
      this.stopAll(host, id, c as unknown as PodWorkerContext, true),

    failedKill: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) => {
      const ctx = c as unknown as PodWorkerContext;
      const p = this.pod(ctx.pod);
      // FailedKillPod comes from a terminating pod (syncTerminatingPod); a live pod whose sandbox
      // is being replaced only logs "killPodWithSyncResult failed" (SyncPod), and its next sync
      // records SandboxChanged again.
      if (!p || !ctx.deleting) return;
      this.podEvent(p, 'Warning', 'FailedKillPod', `error killing pod: ${ctx.lastError ?? ''}`);
    },

    podGone: (host: MachineHost, id: string, _p: unknown, c: Record<string, unknown>) => {
      const ctx = c as unknown as PodWorkerContext;
      removePod(this.sim, ctx.pod, this.node);
      this.noticeGarbage();
    },

    cancelInflight: (_host: MachineHost, id: string) => {
      const tasks = this.inflight.get(id);
      if (!tasks) return;
      for (const t of [...tasks]) this.deps.sched.kill(t);
      this.inflight.delete(id);
    },
  };

  /**
   * Listing the pod's sandboxes failed (containerd is down): the kubelet cannot know what to
   * stop or remove, so the pod is not gone; the worker backs off and tries again.
   */
  private listFailed(host: MachineHost, id: string, attempt: number): void {
    const err = rpcErrorText(this.runtimeDownError());
    this.log('E', 'log.go:32', 'ListPodSandbox with filter from runtime service failed', { err });
    host.send(id, {
      type: 'STOP_FAILED',
      attempt,
      error: err,
      retryMs: this.jitter(this.settings.backoffUs),
    });
  }

  /** killPodWithSyncResult: StopPodSandbox for every sandbox of the pod that is not stopped. */
  private stopAll(host: MachineHost, id: string, ctx: PodWorkerContext, deleting: boolean): void {
    const p = this.pod(ctx.pod);
    const attempt = ctx.attempt;
    if (!p) {
      host.send(id, { type: 'STOPPED', attempt });
      return;
    }
    if (deleting) {
      // killContainersWithSyncResult: the running container is stopped first, with its event
      // (once: on a retry the container is already stopped and only the sandbox is left).
      if (p.containerRunning) {
        this.podEvent(p, 'Normal', 'Killing', `Stopping container ${containerName(p)}`);
      }
      updatePod(
        this.sim,
        ctx.pod,
        `pod ${ctx.pod}: killing`,
        (pp) => {
          pp.containerRunning = false;
        },
        this.node,
      );
    }
    const cfg = this.sandboxConfig(p, 0);
    this.work(
      id,
      `KillPodSandbox ${ctx.pod}`,
      function* (this: Kubelet) {
        if (!this.containerd.state.up) {
          this.listFailed(host, id, attempt);
          return;
        }
        // killPodWithSyncResult (`kuberuntime_manager.go`): StopPodSandbox for every sandbox of
        // the pod, on to the next after a failure; the last failure is the kill's error. A
        // NotFound answer is no failure (`crierror.IsNotFound`): containerd before 1.6.35 and
        // 1.7.21 gives it for a sandbox that is gone already.
        let failure: string | null = null;
        for (const sb of this.podSandboxes(p.spec.uid)) {
          const v = host.get(sandboxActorId(this.node, sb.id))?.value;
          if (v === 'stopped' || v === 'removed') continue;
          const r = yield* this.cri('StopPodSandbox', sb.id.slice(0, 13), (c, seq) =>
            this.containerd.stopPodSandbox(sb.id, cfg, seq, c),
          );
          if (r.ok) continue;
          // The CRI client logs every failed call (cri-client `remote_runtime.go`).
          this.log('E', 'log.go:32', 'StopPodSandbox from runtime service failed', {
            err: rpcErrorText(r.error),
            podSandboxID: sb.id,
          });
          if (r.error.code === 'NotFound') continue;
          failure = rpcErrorText(r.error);
          // klog.ErrorS(nil, "Failed to stop sandbox", "podSandboxID", podSandbox.ID): a
          // kubecontainer.ContainerID value (its String and MarshalJSON take a pointer), which
          // klog serializes as JSON: podSandboxID={"Type":"containerd","ID":"<id>"}.
          const type = this.containerd.unit === 'crio' ? 'cri-o' : 'containerd';
          this.log('E', 'kuberuntime_manager.go:1308', 'Failed to stop sandbox', {
            podSandboxID: { raw: JSON.stringify({ Type: type, ID: sb.id }) },
          });
        }
        if (failure !== null) {
          const full = `failed to "KillPodSandbox" for "${p.spec.uid}" with KillPodSandboxError: "${failure.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
          if (!deleting) {
            this.log('E', 'kuberuntime_manager.go:1097', 'killPodWithSyncResult failed', {
              err: full,
            });
          }
          this.log('E', 'pod_workers.go:1301', 'Error syncing pod, skipping', {
            err: full,
            pod: ctx.pod,
            podUID: p.spec.uid,
          });
          host.send(id, {
            type: 'STOP_FAILED',
            attempt,
            error: full,
            retryMs: this.jitter(this.settings.backoffUs),
          });
          return;
        }
        host.send(id, { type: 'STOPPED', attempt });
        this.noticeGarbage();
      }.call(this),
    );
  }
}

/**
 * The pod's one container: a Deployment's pods (<deployment>-<pod-template-hash>-<5 chars>) are
 * given the deployment's name, a bare pod its own name (as `kubectl run` does).
 */
function containerName(p: PodObj): string {
  return p.spec.name.replace(/-[a-z0-9]{8,10}-[a-z0-9]{5}$/, '');
}

export { podKey };
