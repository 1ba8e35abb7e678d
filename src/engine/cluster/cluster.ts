/**
 * A cluster of simulated nodes: each with its kernel, filesystem, conflist, pod CIDR, IPAM,
 * containerd and kubelet, plus a minimal API server, all in one world and one trace. What a
 * person does to a cluster (kubectl, systemctl, a shell on a node, an operator's cnitool) is a
 * method here and an event in the trace; the daemons then run as scheduled tasks and state
 * machines in virtual time. `step()` computes the next event.
 *
 * Stepping back never undoes anything: every event keeps the world state after it
 * (`sim.states[i]`), and changing the past is replaying the actions from the start with the same
 * seed (the trace is a pure function of seed and actions).
 */
import { produce } from '../sim/world';
import * as vfs from '../fs/vfs';
import type { KernelState } from '../kernel/types';
import { iptablesModule } from '../kernel/iptables/provider';
import { unmountNetnsPath } from '../kernel/netns';
import {
  CNIConfig,
  type CNIConfigOptions,
  type LibcniOutcome,
  RUNTIME_PATH_ENV,
} from '../libcni/api';
import { confListFromBytes } from '../libcni/conf';
import { podWorkerMachine, kubeletMachine } from '../kubelet/machines';
import {
  DEFAULT_KUBELET_SETTINGS,
  Kubelet,
  kubeletActorId,
  newKubeletState,
  podWorkerId,
} from '../kubelet/kubelet';
import type { KubeletSettings } from '../state/kubelet';
import * as inspect from '../node/inspect';
import {
  addNode,
  flannelVxlan,
  writeMasqAgent,
  type MasqAgent,
  hostGwRoute,
  installPluginFiles,
  UNDERLAY,
  underlayAddress,
  wireUnderlay,
} from '../node/setup';
import { DEBIAN_ETC_DIRS, DEBIAN_ETC_FILES, DEBIAN_ETC_LINKS } from '../node/debian-etc';
import type { Gen } from '../os/sys';
import { ipamCapacity, usesHostLocal } from '../plugins/host-local';
import { PLUGIN_FACTORIES, PROGRAMS, REFERENCE_PACKAGE } from '../plugins/registry';
import {
  Containerd,
  containerdSettings,
  containerdActorId,
  newContainerdState,
} from '../runtime/containerd';
import { containerdMachine, sandboxMachine } from '../runtime/machines';
import type { Crio } from '../runtime/crio';
import { crioModule } from '../runtime/crio-provider';
import { parseRelease } from '../runtime/releases';
import type { ContainerdSettings } from '../state/containerd';
import { MachineHost } from '../sched/machines';
import { Scheduler, type Task } from '../sched/scheduler';
import type * as ShellModule from '../shell';
import type { ClusterHooks, RunResult, ShellSnapshot } from '../shell';
import { fsKind } from '../fs/kind';
import { confDirEvents, fsnotifyEventText, reloadsOn } from '../runtime/confwatch';
import { Simulation, newWorld, type WorldState } from '../sim/world';
import { tentries, tget, tkeys, tscan, tvalues } from '../state/table';
import { envEvent, type TraceEvent } from '../trace/trace';
import { createPod, emptyApi, markDeleting, podKey } from '../apiserver/apiserver';
import type { HostPort } from '../state/api';

export interface NodeSpec {
  name: string;
  /** The node's pod CIDR (spec.podCIDR), e.g. 10.244.1.0/24. */
  podCIDR: string;
  /** Files of /etc/cni/net.d by name; `undefined` gives the default bridge conflist. */
  cniConfigs?: Record<string, string>;
  /** Plugin build installed in /opt/cni/bin (default v1.1.1). */
  pluginBuild?: string;
  /** Plugins installed (default: every plugin of the package). */
  plugins?: string[];
  /** Per-plugin build overrides, e.g. { portmap: 'v0.8.7' }. */
  pluginBuilds?: Record<string, string>;
  /**
   * Files the node has before it boots, by absolute path (what an earlier life left in
   * /var/lib/cni, say); written after the CNI configs, so they win over them.
   */
  files?: Record<string, string>;
  containerd?: Partial<ContainerdSettings>;
  /** The node runs CRI-O (with ocicni) instead of containerd: runtime/crio.ts. */
  runtime?: { name: 'cri-o'; version?: string };
  kubelet?: Partial<KubeletSettings>;
}

export interface ClusterSpec {
  nodes: NodeSpec[];
  /**
   * How pod traffic crosses nodes. Absent: the nodes are not wired to each other at all (every
   * scenario before the underlay existed). `none`: an underlay joins the nodes, no pod routes.
   */
  network?: {
    mode: 'host-gw' | 'vxlan' | 'none';
    /**
     * The agent that writes each node's masquerade rule at start, excluding the cluster CIDR
     * (node/setup.ts `masqAgentRules`); absent: none (bridge's own `ipMasq` decides).
     */
    masqAgent?: MasqAgent;
  };
}

export { REFERENCE_PACKAGE };

/**
 * The conflist a node is given for `podCIDR`: containerd's example (`script/setup/install-cni`),
 * bridge + portmap. `ipMasq: false` and an `mtu` are the cluster presets' variants (presets.ts).
 */
export function defaultConflist(
  podCIDR: string,
  opts: { ipMasq?: boolean; mtu?: number } = {},
): string {
  return `${JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: 'containerd-net',
      plugins: [
        {
          type: 'bridge',
          bridge: 'cni0',
          isGateway: true,
          ipMasq: opts.ipMasq ?? true,
          promiscMode: true,
          ...(opts.mtu ? { mtu: opts.mtu } : {}),
          ipam: {
            type: 'host-local',
            ranges: [[{ subnet: podCIDR }]],
            routes: [{ dst: '0.0.0.0/0' }],
          },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  )}\n`;
}

export const DEFAULT_CLUSTER: ClusterSpec = {
  nodes: [
    { name: 'node-1', podCIDR: '10.244.1.0/24' },
    { name: 'node-2', podCIDR: '10.244.2.0/24' },
  ],
};

export interface PodOptions {
  name: string;
  namespace?: string;
  /** The node to run on; otherwise the node with the fewest pods. */
  node?: string;
  hostPorts?: HostPort[];
  annotations?: Record<string, string>;
}

export interface AuditFinding {
  node: string;
  kind:
    | 'orphan-veth'
    | 'orphan-cache'
    | 'orphan-reservation'
    | 'orphan-netns'
    | 'orphan-iptables'
    | 'duplicate-ip'
    | 'pod-ip-not-reserved'
    | 'stuck-pod';
  detail: string;
}

export interface NodeAudit {
  node: string;
  pods: number;
  reservations: number;
  ipamCapacity: number | null;
  hostVeths: number;
  cacheFiles: number;
  findings: AuditFinding[];
}

interface NodeRuntime {
  containerd: Containerd;
  kubelet: Kubelet;
}

/** The trace's name for the caller of the cluster's CHECK, GC and STATUS actions. */
export const LIBCNI_CALLER = 'libcni-caller';

/**
 * The node shell (src/engine/shell: the interpreter and its commands, the largest part of the
 * engine) is not imported here, so that the landing's cluster loads without it. Importing
 * `cluster/with-shell.ts` provides it: the fault catalogue, scenario runs, the terminal, the
 * app's whole engine (app.ts) and the tests (vitest.setup.ts) do; `shell()` throws before.
 */
let shellModule: typeof ShellModule | null = null;

/** Gives clusters their shell (see `shellModule`). */
export function provideShell(m: typeof ShellModule): void {
  shellModule = m;
}

export class Cluster implements ClusterHooks {
  readonly sim: Simulation;
  readonly sched: Scheduler;
  readonly host: MachineHost;
  readonly nodes = new Map<string, NodeRuntime>();
  readonly spec: ClusterSpec;

  constructor(spec: ClusterSpec = DEFAULT_CLUSTER, opts: { seed?: number } = {}) {
    this.spec = spec;
    let world: WorldState = newWorld(opts.seed ?? 1);
    world = produce(world, (d) => {
      d.api = emptyApi();
    });
    for (const n of spec.nodes) world = buildNode(world, n);
    if (spec.network) world = buildNetwork(world, spec);
    this.sim = new Simulation(world);
    this.sched = new Scheduler(this.sim);
    this.host = new MachineHost(this.sim, this.sched);
    const deps = {
      sim: this.sim,
      sched: this.sched,
      host: this.host,
      programs: PROGRAMS,
      cni: (o: CNIConfigOptions) => new CNIConfig(o),
    };
    for (const n of spec.nodes) {
      const crio = n.runtime?.name === 'cri-o' ? new (crioModule().Crio)(deps, n.name) : null;
      const containerd = crio ?? new Containerd(deps, n.name);
      const kubelet = new Kubelet(deps, n.name, containerd);
      if (crio) crio.onStatusChange = () => kubelet.noticeRuntimeChange();
      this.nodes.set(n.name, { containerd, kubelet });
    }
    this.registerMachines();
    for (const n of spec.nodes) {
      const rt = this.rt(n.name);
      rt.containerd.start();
      rt.kubelet.start();
    }
  }

  private registerMachines(): void {
    const nodeOf = (ctx: unknown) => (ctx as { node: string }).node;
    // The runtime's machines speak for the daemon that runs them (containerd or crio).
    const unitOf = (ctx: unknown) => this.nodes.get(nodeOf(ctx))?.containerd.unit ?? 'containerd';
    this.host.register('containerd', {
      machine: containerdMachine,
      level: 'runtime',
      effects: {},
      actor: (_id, ctx) => ({ node: nodeOf(ctx), source: unitOf(ctx) }),
    });
    this.host.register('sandbox', {
      machine: sandboxMachine,
      level: 'runtime',
      effects: {},
      actor: (_id, ctx) => ({ node: nodeOf(ctx), source: unitOf(ctx) }),
    });
    this.host.register('kubelet', {
      machine: kubeletMachine,
      level: 'cluster',
      effects: {},
      actor: (_id, ctx) => ({ node: nodeOf(ctx), source: 'kubelet' }),
    });
    // One pod worker kind; its effects go to the kubelet of the worker's node.
    const route =
      (name: keyof Kubelet['effects']) =>
      (
        host: MachineHost,
        id: string,
        params: Record<string, unknown>,
        context: Record<string, unknown>,
      ) => {
        const node = nodeOf(context);
        (
          this.rt(node).kubelet.effects[name] as (
            h: MachineHost,
            i: string,
            p: Record<string, unknown>,
            c: Record<string, unknown>,
          ) => void
        )(host, id, params, context);
      };
    const names = [
      'sync',
      'runPodSandbox',
      'failedCreate',
      'networkNotReady',
      'containersStarted',
      'sandboxChanged',
      'stopSandbox',
      'killPod',
      'failedKill',
      'podGone',
      'cancelInflight',
    ] as const;
    this.host.register('podWorker', {
      machine: podWorkerMachine,
      level: 'cluster',
      effects: Object.fromEntries(names.map((n) => [n, route(n)])),
      actor: (_id, ctx) => ({ node: nodeOf(ctx), source: 'kubelet' }),
    });
  }

  rt(node: string): NodeRuntime {
    const r = this.nodes.get(node);
    if (!r) throw new Error(`no such node: ${node}`);
    return r;
  }

  get events(): readonly TraceEvent[] {
    return this.sim.events;
  }

  get now(): number {
    return this.sim.state.clock;
  }

  // ---------------------------------------------------------------------------------------------
  // Running

  /** Computes the next event; false when nothing is left to happen (or it is after `until`). */
  step(until = Infinity): boolean {
    return this.sched.step(until);
  }

  /**
   * Runs until `stop` holds for a new event, nothing is left, virtual time passes `until` (µs),
   * or `maxEvents` more events were recorded. Returns the event `stop` matched, if any.
   */
  run(
    opts: { until?: number; maxEvents?: number; stop?: (e: TraceEvent) => boolean } = {},
  ): TraceEvent | null {
    const until = opts.until ?? Infinity;
    const max = opts.maxEvents ?? 1_000_000;
    const start = this.sim.events.length;
    let checked = start;
    while (this.sim.events.length - start < max) {
      if (!this.step(until)) break;
      if (opts.stop) {
        for (; checked < this.sim.events.length; checked++) {
          const e = this.sim.events[checked]!;
          if (opts.stop(e)) return e;
        }
      }
    }
    if (until !== Infinity) this.sim.advanceTo(until);
    return null;
  }

  /** Runs for `us` of virtual time from now. */
  runFor(us: number, maxEvents?: number): void {
    this.run({ until: this.now + us, ...(maxEvents !== undefined ? { maxEvents } : {}) });
  }

  // ---------------------------------------------------------------------------------------------
  // kubectl

  /** The node with the fewest pods (ties: the first by name), counting all pods once. */
  private leastLoaded(nodes: string[]): string {
    const count = new Map(nodes.map((n) => [n, 0]));
    for (const p of tscan(this.sim.state.api!.pods)) {
      const c = count.get(p.spec.nodeName);
      if (c !== undefined) count.set(p.spec.nodeName, c + 1);
    }
    return [...nodes].sort((a, b) => count.get(a)! - count.get(b)! || (a < b ? -1 : 1))[0]!;
  }

  createPod(o: PodOptions): string {
    const ns = o.namespace ?? 'default';
    const key = podKey(ns, o.name);
    if (tget(this.sim.state.api!.pods, key)) throw new Error(`pods "${o.name}" already exists`);
    const nodes = [...this.nodes.keys()];
    const node = o.node ?? this.leastLoaded(nodes);
    if (!this.nodes.has(node)) throw new Error(`no such node: ${node}`);
    const uid = this.sim.random((r) => uuid4(r.hex(16)));
    createPod(this.sim, {
      name: o.name,
      namespace: ns,
      uid,
      nodeName: node,
      hostPorts: o.hostPorts ?? [],
      annotations: o.annotations ?? {},
    });
    this.rt(node).kubelet.addPod(key);
    return key;
  }

  deletePod(nameOrKey: string): void {
    const key = nameOrKey.includes('/') ? nameOrKey : podKey('default', nameOrKey);
    const p = tget(this.sim.state.api!.pods, key);
    if (!p) throw new Error(`pods "${nameOrKey}" not found`);
    if (p.deletionTimestamp === null) markDeleting(this.sim, key);
    this.rt(p.spec.nodeName).kubelet.deletePod(key);
  }

  /** Pods of a deployment are named <deployment>-<10 hex>-<5 chars> (a ReplicaSet's pods). */
  scale(deployment: string, replicas: number, opts: Omit<PodOptions, 'name'> = {}): string[] {
    const job = this.scaleJob(deployment, replicas, opts);
    for (;;) {
      const r = job.next();
      if (r.done) return r.value;
    }
  }

  /**
   * `scale`, one pod at a time: yields after each pod created or deleted, so that a session's
   * job can spread 110 pods over several tasks (session.ts). The same calls in the same order
   * as `scale`, whichever way it is driven.
   */
  *scaleJob(
    deployment: string,
    replicas: number,
    opts: Omit<PodOptions, 'name'> = {},
  ): Generator<void, string[], void> {
    const ns = opts.namespace ?? 'default';
    const prefix = `${deployment}-${this.rsHash(deployment)}-`;
    const mine = tvalues(this.sim.state.api!.pods)
      .filter(
        (p) =>
          p.spec.namespace === ns && p.spec.name.startsWith(prefix) && p.deletionTimestamp === null,
      )
      .map((p) => p.spec.name)
      .sort();
    const created: string[] = [];
    if (mine.length < replicas) {
      for (let i = mine.length; i < replicas; i++) {
        const suffix = this.sim.random((r) => {
          const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
          let s = '';
          for (let j = 0; j < 5; j++) s += alphabet[r.int(alphabet.length)];
          return s;
        });
        created.push(this.createPod({ ...opts, name: `${prefix}${suffix}` }));
        if (i + 1 < replicas) yield;
      }
    } else {
      const gone = mine.slice(replicas).reverse();
      for (const [i, name] of gone.entries()) {
        this.deletePod(podKey(ns, name));
        if (i + 1 < gone.length) yield;
      }
    }
    return created;
  }

  private rsHash(deployment: string): string {
    let h = 2166136261;
    for (const c of deployment) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
    return h.toString(16).padStart(8, '0').slice(0, 8) + 'd9';
  }

  // ---------------------------------------------------------------------------------------------
  // Nodes: systemctl and power

  restartKubelet(node: string, downUs = 2_000_000): void {
    const rt = this.rt(node);
    rt.kubelet.stop();
    this.sched.after(downUs, `restart/${node}/kubelet`, () => rt.kubelet.start());
  }

  restartContainerd(node: string, downUs = 1_000_000): void {
    const rt = this.rt(node);
    rt.containerd.crash();
    rt.kubelet.noticeRuntimeChange();
    this.sched.after(downUs, `restart/${node}/containerd`, () => {
      rt.containerd.start();
      rt.kubelet.noticeRuntimeChange();
      // The kubelet notices sandboxes that are no longer ready at its next relist.
      this.relistSoon(node);
    });
  }

  /**
   * Installs a containerd release on the node (its binary replaced on disk). The daemon that
   * runs keeps its release, and its behaviours, until it starts again (`restartContainerd`,
   * `systemctl restart containerd`, a reboot). Installing the release it runs cancels a pending
   * one. Throws the release's error for a number that is not a containerd release.
   */
  setContainerdVersion(node: string, version: string): void {
    if (isCrio(this.rt(node).containerd))
      throw new Error(`${node} runs CRI-O, not containerd: no containerd release to install`);
    const r = parseRelease(version);
    if (!r.ok) throw new Error(r.error);
    const running = this.rt(node).containerd.state.settings.version;
    const v = r.release.version;
    this.sim.apply(
      envEvent({
        node,
        source: 'operator',
        target: 'containerd',
        level: 'runtime',
        summary:
          v === running
            ? `containerd ${v} installed: the release that runs`
            : `containerd ${v} installed: it runs from containerd's next start (${running} runs until then)`,
        payload: { op: 'env' },
      }),
      (d) => {
        const c = d.nodes[node]!.containerd!;
        if (v === c.settings.version) delete c.installed;
        else c.installed = v;
      },
    );
  }

  /** `systemctl stop UNIT`: the daemon stops (containerd as when it dies: pods keep running). */
  stopUnit(node: string, unit: 'kubelet' | 'containerd'): void {
    const rt = this.rt(node);
    if (unit === 'kubelet') return rt.kubelet.stop();
    rt.containerd.crash();
    rt.kubelet.noticeRuntimeChange();
  }

  /** `systemctl start UNIT`. */
  startUnit(node: string, unit: 'kubelet' | 'containerd'): void {
    const rt = this.rt(node);
    if (unit === 'kubelet') return rt.kubelet.start();
    rt.containerd.start();
    rt.kubelet.noticeRuntimeChange();
    this.relistSoon(node);
  }

  /**
   * Reboot: every process and everything in memory or on tmpfs is gone (network namespaces and
   * their links, cni0, iptables rules, sysctls, /run); /var/lib (IPAM reservations, result
   * cache, containerd's metadata) and /etc persist. Then containerd and the kubelet start again.
   */
  reboot(node: string, downUs = 30_000_000): void {
    const rt = this.rt(node);
    // Processes die where they stand: no clean-up of any kind.
    for (const t of this.sched.liveTasks()) if (t.opts.node === node) this.sched.kill(t);
    rt.kubelet.stop();
    rt.containerd.crash();
    rt.containerd.rebooted();
    this.sim.apply(
      envEvent({
        node,
        source: 'operator',
        target: 'kernel',
        level: 'cluster',
        summary: `reboot ${node}`,
        payload: { op: 'reboot' },
      }),
      (d) => {
        const n = d.nodes[node]!;
        const fresh = produce(addNode(newWorld(0), { name: node, plugins: [] }), () => undefined)
          .nodes[node]!;
        n.kernel = fresh.kernel as never;
        // /run is tmpfs (and /var/run a link to it): empty after boot but for the netns directory.
        let fs = n.fs as vfs.FsState;
        for (const dir of ['/run/netns', '/run']) {
          for (const p of vfs.stat(fs, dir) ? vfs.readDir(fs, dir) : [])
            if (dir !== '/run' || p !== 'netns') fs = vfs.removeAll(fs, vfs.joinPath(dir, p));
        }
        n.fs = fs as never;
      },
    );
    this.sched.after(downUs, `boot/${node}`, () => {
      rt.containerd.start();
      rt.kubelet.start();
      this.relistSoon(node);
    });
  }

  /** PLEG: the kubelet finds sandboxes that died and makes their pods re-create them. */
  private relistSoon(node: string, tries = 60): void {
    this.sched.after(1_000_000, `relist/${node}`, () => {
      const rt = this.rt(node);
      // PLEG's relist asks the runtime for its sandboxes; while the runtime does not answer the
      // relist fails ("GenericPLEG: Unable to retrieve pods") and changes nothing: no pod is
      // taken for dead. It runs every second, so it tries again (a start relists anew anyway).
      if (!rt.containerd.state.up) {
        if (tries > 1) this.relistSoon(node, tries - 1);
        return;
      }
      for (const [id, rec] of tentries(this.sim.state.actors)) {
        if (rec.machine !== 'podWorker' || rec.status !== 'active' || rec.value !== 'running')
          continue;
        const ctx = rec.context as { node: string; sandboxId: string | null };
        if (ctx.node !== node || !ctx.sandboxId) continue;
        const sb = tget(rt.containerd.state.sandboxes, ctx.sandboxId);
        if (!sb || sb.state !== 'SANDBOX_READY') this.host.send(id, { type: 'SANDBOX_DIED' });
      }
    });
  }

  // ---------------------------------------------------------------------------------------------
  // A person on a node

  /**
   * Runs a shell line on the node as root (an `env` event per change); `resume` continues a
   * terminal's session (its directory, variables and `$?`); `tty`: the output is a terminal's.
   * Returns the session's state after.
   */
  shell(
    node: string,
    line: string,
    opts: { resume?: Partial<ShellSnapshot>; tty?: boolean } = {},
  ): RunResult & { state: ShellSnapshot } {
    if (shellModule === null)
      throw new Error('cnisim: the node shell is not loaded (import cluster/with-shell.ts)');
    this.rt(node);
    const before = this.sim.node(node).fs;
    const sh = new shellModule.Shell(this.sim, node, {
      actor: 'operator',
      cluster: this,
      tty: opts.tty ?? false,
      ...(opts.resume ? { resume: opts.resume } : {}),
    });
    const r = sh.run(line);
    this.afterEnv(node, before);
    return { ...r, state: sh.snapshot() };
  }

  /** Changes the node's files or kernel from outside (an `env` event), then lets daemons notice. */
  env(
    node: string,
    summary: string,
    change: (n: { kernel: KernelState; fs: vfs.FsState }) => { fs?: vfs.FsState } | void,
    source = 'operator',
  ): void {
    const before = this.sim.node(node).fs;
    this.sim.apply(
      envEvent({
        node,
        source,
        target: 'node',
        level: 'kernel',
        summary,
        payload: { op: 'env' },
      }),
      (d) => {
        const n = d.nodes[node]!;
        const k = n.kernel as KernelState;
        k.now = d.clock;
        const out = change({ kernel: k, fs: n.fs as vfs.FsState });
        if (out && out.fs) n.fs = out.fs as never;
      },
    );
    this.afterEnv(node, before);
  }

  writeFile(node: string, path: string, data: string, mode = 0o644): void {
    this.env(node, `write ${path} (${data.length} bytes)`, ({ fs }) => ({
      fs: vfs.writeFile(vfs.mkdirAll(fs, vfs.dirname(path)), path, data, { mode }),
    }));
  }

  removeFile(node: string, path: string): void {
    this.env(node, `rm ${path}`, ({ fs }) => ({ fs: vfs.remove(fs, path) }));
  }

  /** Installs a plugin binary of a build (e.g. an old portmap) into the node's CNI bin dir. */
  installPlugin(node: string, plugin: string, build: string, dir = '/opt/cni/bin'): void {
    if (!PLUGIN_FACTORIES[plugin]) throw new Error(`unknown plugin ${plugin}`);
    this.env(node, `install ${plugin} ${build} into ${dir}`, ({ fs }) => ({
      fs: installPluginFiles(fs, dir, build, [plugin]),
    }));
  }

  /**
   * Makes a plugin binary block forever on the given CNI commands (a plugin stuck on a lock or
   * a datastore); an empty list makes it behave again.
   */
  hangPlugin(node: string, plugin: string, commands: string[], dir = '/opt/cni/bin'): void {
    const path = vfs.joinPath(dir, plugin);
    this.env(
      node,
      commands.length ? `${path} now hangs on ${commands.join(', ')}` : `${path} no longer hangs`,
      ({ fs }) => {
        const e = vfs.stat(fs, path);
        if (!e || e.kind !== 'file' || !e.exec) throw new Error(`${path}: not a plugin binary`);
        const exec = commands.length
          ? { ...e.exec, hangOn: commands }
          : { program: e.exec.program, build: e.exec.build };
        return { fs: vfs.writeFile(fs, path, e.data, { mode: e.mode, exec }) };
      },
    );
  }

  /**
   * Makes a plugin binary write a line that is not JSON to stdout before its output (a wrapper or
   * a debug build logging to stdout), or stop doing so.
   */
  noisyPlugin(node: string, plugin: string, noisy: boolean, dir = '/opt/cni/bin'): void {
    const path = vfs.joinPath(dir, plugin);
    this.env(
      node,
      noisy ? `${path} now writes a debug line to stdout` : `${path} no longer writes to stdout`,
      ({ fs }) => {
        const e = vfs.stat(fs, path);
        if (!e || e.kind !== 'file' || !e.exec) throw new Error(`${path}: not a plugin binary`);
        const { stdoutNoise: _, ...rest } = e.exec;
        const exec = noisy ? { ...rest, stdoutNoise: true } : rest;
        return { fs: vfs.writeFile(fs, path, e.data, { mode: e.mode, exec }) };
      },
    );
  }

  /** `ip netns del` of a sandbox's namespace mount (the pause process keeps it alive). */
  deleteNetnsMount(node: string, path: string): void {
    this.env(node, `ip netns del ${vfs.basename(path)}`, ({ kernel, fs }) => {
      unmountNetnsPath(kernel, path);
      return { fs: vfs.remove(fs, path) };
    });
  }

  /**
   * fsnotify on the conf dir (runtime/confwatch.ts): the events the change sent, and containerd's
   * syncer (cni_conf_syncer.go) reloading on each Write, Rename and Remove; Create and Chmod are
   * skipped, so a conflist renamed in from another directory is not loaded. On a release whose
   * CRI Status runs CNI STATUS (2.0.1+), a change of the plugin binaries also makes the kubelet
   * check the runtime's status again.
   */
  private afterEnv(node: string, before: vfs.FsState): void {
    const after = this.sim.node(node).fs;
    if (after === before) return;
    const rt = this.rt(node);
    const c = rt.containerd;
    const dir =
      vfs.stat(after, c.state.settings.confDir)?.kind === 'dir'
        ? vfs.resolvePath(after, c.state.settings.confDir)
        : c.state.settings.confDir;
    const events = confDirEvents(before, after, dir, fsKind);
    if (isCrio(c)) {
      // ocicni watches the conf dir and the plugin dirs (newWatcher); fsnotify v1.7+ prints
      // events as containerd 1.7's v1.6 does.
      let again = false;
      const all = [
        ...events,
        // (CRI-O's default plugin dir is "/opt/cni/bin/": fsnotify names its files without "//".)
        ...c.state.settings.binDirs
          .map((d) => d.replace(/(.)\/+$/, '$1'))
          .flatMap((d) =>
            vfs.stat(after, d)?.kind === 'dir' || vfs.stat(before, d)?.kind === 'dir'
              ? confDirEvents(before, after, d, fsKind)
              : [],
          ),
      ];
      for (const ev of all)
        if (c.reloadOn(ev.op, fsnotifyEventText('1.7', ev), ev.path)) again = true;
      if (again) rt.kubelet.noticeRuntimeChange();
      return;
    }
    const minor = c.release.version.split('.').slice(0, 2).join('.');
    let reloaded = false;
    // The watch went with the directory (confWatchLost): nothing is heard until a restart.
    for (const ev of c.state.confWatchLost ? [] : events) {
      if (!reloadsOn(ev.op)) continue;
      c.reload(fsnotifyEventText(minor, ev));
      reloaded = true;
    }
    // The conf dir itself removed (IN_DELETE_SELF: fsnotify Remove) or renamed away
    // (IN_MOVE_SELF: Rename), after the events of its files.
    const confDir = c.state.settings.confDir;
    if (
      c.state.up &&
      !c.state.confWatchLost &&
      vfs.stat(before, confDir)?.kind === 'dir' &&
      vfs.stat(after, confDir)?.kind !== 'dir'
    ) {
      const children = tget(before.dirs, vfs.resolvePath(before, confDir));
      const moved = tentries(after.dirs).some(([, ch]) => ch === children);
      const ev = { path: dir, op: moved ? ('RENAME' as const) : ('REMOVE' as const) };
      if (c.confDirGone(fsnotifyEventText(minor, ev))) {
        // containerd exits (Fatal); systemd starts it again 5 s later (RestartSec=5).
        this.restartContainerd(node, 5_000_000);
        return;
      }
      reloaded = true;
    }
    const binsChanged =
      c.state.settings.binDirs.some((d) => tget(before.dirs, d) !== tget(after.dirs, d)) &&
      c.statusNetworks().length > 0;
    if (reloaded || binsChanged) rt.kubelet.noticeRuntimeChange();
  }

  // ---------------------------------------------------------------------------------------------
  // CHECK, GC and STATUS of a node's pod network, called the way a runtime calls libcni (with
  // containerd's network and the sandboxes' ids). No tool on a containerd node makes these calls:
  // cnitool names its own container id after the netns path and its gc passes no valid list. The
  // trace calls their caller `libcni-caller`, not cnitool.

  private opLibcni(node: string): CNIConfig {
    const s = this.rt(node).containerd.state.settings;
    return new CNIConfig({
      sim: this.sim,
      node,
      programs: PROGRAMS,
      path: s.binDirs,
      version: s.libcni,
      env: { PATH: RUNTIME_PATH_ENV },
      caller: LIBCNI_CALLER,
      sched: this.sched,
    });
  }

  private podNetwork(node: string) {
    const c = this.rt(node).containerd.state;
    const net = c.cni.networks.find((n) => n.ifName === 'eth0');
    if (!net) throw new Error(`${node}: containerd has no pod network loaded`);
    return { net, list: confListFromBytes(net.bytes, { libcni: c.settings.libcni }) };
  }

  private runOp<T>(node: string, name: string, gen: Gen<T>): Task<T> {
    return this.sched.spawn(gen, { name: `${LIBCNI_CALLER} ${name}`, node });
  }

  /** CHECK of a pod's attachment with its sandbox's id, netns and interface, as a runtime calls it. */
  cniCheck(podName: string): Task<LibcniOutcome> {
    const key = podName.includes('/') ? podName : podKey('default', podName);
    const p = tget(this.sim.state.api!.pods, key);
    if (!p) throw new Error(`pods "${podName}" not found`);
    const node = p.spec.nodeName;
    const c = this.rt(node).containerd.state;
    const sb = tvalues(c.sandboxes)
      .filter((s) => s.pod.uid === p.spec.uid)
      .pop();
    if (!sb) throw new Error(`pod ${key} has no sandbox`);
    const { list } = this.podNetwork(node);
    const lib = this.opLibcni(node);
    return this.runOp(
      node,
      `check ${key}`,
      lib.checkNetworkList(list, {
        containerId: sb.id,
        netns: sb.netns,
        ifName: 'eth0',
        args: [
          ['IgnoreUnknown', '1'],
          ['K8S_POD_NAMESPACE', p.spec.namespace],
          ['K8S_POD_NAME', p.spec.name],
          ['K8S_POD_INFRA_CONTAINER_ID', sb.id],
          ['K8S_POD_UID', p.spec.uid],
        ],
        capabilityArgs: {},
      }),
    );
  }

  /** GC of the node's pod network: every READY sandbox is a valid attachment. */
  cniGc(node: string): Task<LibcniOutcome> {
    const c = this.rt(node).containerd.state;
    const { list } = this.podNetwork(node);
    const valid = tvalues(c.sandboxes)
      .filter((s) => s.state === 'SANDBOX_READY')
      .map((s) => ({ containerID: s.id, ifname: 'eth0' }));
    return this.runOp(node, 'gc', this.opLibcni(node).gcNetworkList(list, valid));
  }

  cniStatus(node: string): Task<LibcniOutcome> {
    const { list } = this.podNetwork(node);
    return this.runOp(node, 'status', this.opLibcni(node).getStatusNetworkList(list));
  }

  // ---------------------------------------------------------------------------------------------
  // Audit

  /**
   * The staging check operators run: per node, IPAM use against pods, and everything left behind
   * (host veths, cache files, reservations, namespaces no live sandbox owns), plus IPs given to
   * two live pods and pods stuck in a non-final state.
   */
  audit(state: WorldState = this.sim.state): NodeAudit[] {
    const out: NodeAudit[] = [];
    const seenIps = new Map<string, string>();
    const inflightByNode = inspect.inflightSandboxes(state.actors);
    for (const name of this.nodes.keys()) {
      const n = state.nodes[name]!;
      const c = n.containerd!;
      const k = n.kernel;
      const fs = n.fs;
      const findings: AuditFinding[] = [];
      const live = tvalues(c.sandboxes).filter((s) => s.state === 'SANDBOX_READY');
      const liveIds = new Set(live.map((s) => s.id));
      // Sandboxes being set up (or cleaned up) right now own their namespace and files too.
      const inflight = inflightByNode.get(name) ?? inspect.NO_INFLIGHT;
      const knownIds = new Set([...tkeys(c.sandboxes), ...inflight.ids]);
      const ownedNetns = new Set([...tvalues(c.sandboxes).map((s) => s.netns), ...inflight.netns]);
      const pods = (state.api ? tvalues(state.api.pods) : []).filter(
        (p) => p.spec.nodeName === name,
      );
      // Host veths whose pod end is in no namespace a sandbox still owns: a live one, one being
      // set up, or one whose StopPodSandbox failed (its netns is kept for the next retry).
      const hostVeths = inspect.hostVeths(k).length;
      for (const l of inspect.orphanVeths(k, ownedNetns, knownIds)) {
        findings.push({
          node: name,
          kind: 'orphan-veth',
          detail: `${l.name} (pod end in a namespace no sandbox owns)`,
        });
      }
      for (const path of inspect.orphanNetnsMounts(k, ownedNetns)) {
        findings.push({
          node: name,
          kind: 'orphan-netns',
          detail: `${path} (${tget(k.mounts, path)})`,
        });
      }
      // iptables rules the plugins tagged with a sandbox's id (bridge's ipMasq chain, portmap's
      // DNAT rules) that no sandbox owns any more: a DEL that never ran, or ran without a netns.
      const root = inspect.hostNetns(k);
      for (const family of ['ipv4', 'ipv6'] as const) {
        const perId = new Map<string, { table: string; rules: number }>();
        let table = '';
        for (const line of iptablesModule().saveLines(root.iptables, family)) {
          if (line.startsWith('*')) table = line.slice(1);
          const id = line.startsWith('-A ') ? inspect.taggedRuleId(line) : undefined;
          if (!id || knownIds.has(id)) continue;
          const key = `${table} ${id}`;
          perId.set(key, { table, rules: (perId.get(key)?.rules ?? 0) + 1 });
        }
        for (const [key, v] of perId) {
          findings.push({
            node: name,
            kind: 'orphan-iptables',
            detail: `${v.rules} ${family === 'ipv6' ? 'ip6tables' : 'iptables'} rule${v.rules > 1 ? 's' : ''} in ${v.table} for sandbox ${key.split(' ')[1]!.slice(0, 13)} (no such sandbox)`,
          });
        }
      }
      // Result cache.
      const cacheFiles = inspect.cacheFiles(fs);
      for (const f of cacheFiles) {
        const m = inspect.parseResultCacheName(f);
        if (!m || !knownIds.has(m.containerId))
          findings.push({
            node: name,
            kind: 'orphan-cache',
            detail: vfs.joinPath(inspect.resultsDir(), f),
          });
      }
      // host-local reservations of every network directory.
      const reservations = inspect.reservations(fs);
      const reservedIps = new Set(reservations.map((r) => r.ip));
      for (const r of reservations) {
        if (!knownIds.has(r.containerId)) {
          findings.push({
            node: name,
            kind: 'orphan-reservation',
            detail: `${r.path} (held by ${r.containerId.slice(0, 13)}, no such sandbox)`,
          });
        }
      }
      for (const p of pods) {
        if (p.podIP && p.containerRunning) {
          const other = seenIps.get(p.podIP);
          if (other)
            findings.push({
              node: name,
              kind: 'duplicate-ip',
              detail: `${p.podIP}: ${other} and ${p.spec.namespace}/${p.spec.name}`,
            });
          seenIps.set(p.podIP, `${p.spec.namespace}/${p.spec.name}`);
          if (!reservedIps.has(p.podIP) && this.usesHostLocal(state, name)) {
            findings.push({
              node: name,
              kind: 'pod-ip-not-reserved',
              detail: `${p.spec.namespace}/${p.spec.name} ${p.podIP}`,
            });
          }
        }
        if (p.deletionTimestamp !== null || !p.containerRunning) {
          const age = state.clock - (p.deletionTimestamp ?? p.createdAt);
          if (age > 60_000_000) {
            findings.push({
              node: name,
              kind: 'stuck-pod',
              detail: `${p.spec.namespace}/${p.spec.name} ${p.deletionTimestamp !== null ? 'Terminating' : 'not running'} for ${Math.round(age / 1e6)}s`,
            });
          }
        }
      }
      void liveIds;
      out.push({
        node: name,
        pods: pods.length,
        reservations: reservations.length,
        ipamCapacity: this.ipamCapacity(state, name),
        hostVeths,
        cacheFiles: cacheFiles.length,
        findings,
      });
    }
    return out;
  }

  private usesHostLocal(state: WorldState, node: string): boolean {
    const c = state.nodes[node]!.containerd!;
    return c.cni.networks.some((n) => usesHostLocal(n.bytes));
  }

  private ipamCapacity(state: WorldState, node: string): number | null {
    const c = state.nodes[node]!.containerd!;
    const net = c.cni.networks.find((n) => n.ifName === 'eth0');
    return net ? ipamCapacity(net.bytes) : null;
  }
}

function uuid4(hex: string): string {
  const h = hex.split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16]!, 16) & 3]!;
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** A node of the world: base filesystem, plugins, CNI config, containerd and kubelet state. */
/** The underlay joining the nodes and the pod routes of `spec.network.mode`. */
function buildNetwork(w: WorldState, spec: ClusterSpec): WorldState {
  const mode = spec.network!.mode;
  let out = produce(w, (d) => {
    d.underlay = { ...UNDERLAY, mode };
  });
  spec.nodes.forEach((n, i) => {
    out = wireUnderlay(out, n.name, i);
  });
  if (mode === 'host-gw') {
    spec.nodes.forEach((n) => {
      spec.nodes.forEach((m, j) => {
        if (m !== n) out = hostGwRoute(out, n.name, m.podCIDR, underlayAddress(j));
      });
    });
  }
  if (mode === 'vxlan') {
    spec.nodes.forEach((_n, i) => {
      out = flannelVxlan(out, spec.nodes, i);
    });
  }
  const agent = spec.network!.masqAgent;
  if (agent) for (const n of spec.nodes) out = writeMasqAgent(out, n.name, agent, n.podCIDR);
  return out;
}

function buildNode(w: WorldState, n: NodeSpec): WorldState {
  const build = n.pluginBuild ?? 'v1.1.1';
  const plugins = n.plugins ?? REFERENCE_PACKAGE;
  const configs = n.cniConfigs ?? { '10-containerd-net.conflist': defaultConflist(n.podCIDR) };
  const files: Record<string, string> = {};
  for (const [f, data] of Object.entries(configs)) files[`/etc/cni/net.d/${f}`] = data;
  Object.assign(files, DEBIAN_ETC_FILES, n.files);
  let out = addNode(w, { name: n.name, build, plugins, files });
  out = produce(out, (d) => {
    const node = d.nodes[n.name]!;
    let fs = node.fs as vfs.FsState;
    // What an operator finds next to the CNI files on a Debian node (node/debian-etc.ts).
    for (const dir of DEBIAN_ETC_DIRS) fs = vfs.mkdirAll(fs, dir);
    for (const [p, target] of Object.entries(DEBIAN_ETC_LINKS))
      if (!vfs.lstat(fs, p)) fs = vfs.symlink(fs, target, p);
    for (const [p, b] of Object.entries(n.pluginBuilds ?? {}))
      fs = installPluginFiles(fs, '/opt/cni/bin', b, [p]);
    node.fs = fs as never;
    node.containerd = (
      n.runtime?.name === 'cri-o'
        ? crioModule().newCrioState(crioModule().crioSettings(n.runtime.version), 0)
        : newContainerdState(containerdSettings(n.containerd), 0)
    ) as never;
    node.kubelet = newKubeletState({ ...DEFAULT_KUBELET_SETTINGS, ...n.kubelet }, 0) as never;
    d.api!.nodes[n.name] = {
      name: n.name,
      podCIDR: n.podCIDR,
      ready: { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' },
    } as never;
  });
  return out;
}

export { containerdActorId, kubeletActorId, podWorkerId };

/** A node's runtime is CRI-O (runtime/crio.ts, loaded late: crio-provider.ts). */
function isCrio(c: Containerd): c is Crio {
  return c.unit === 'crio';
}
