/**
 * containerd's CRI plugin on one node, as far as pod networking goes: loading the CNI
 * configuration the way go-cni does (the built-in loopback network, then the first file of
 * /etc/cni/net.d), RunPodSandbox / StopPodSandbox / RemovePodSandbox with their network setup
 * and teardown through libcni, their clean-up and error handling, their journal lines, and what a
 * restart keeps. Facts: ../shared/reference/kubelet-containerd.md §1-§7.
 *
 * Assumptions where real nodes vary:
 * - networks are set up one after the other, in load order (go-cni starts them all at once unless
 *   `setup_serially`), so traces read top to bottom; as go-cni waits for all of them, every
 *   network's ADD still runs after an earlier one failed, and the first error wins;
 * - go-cni passes CNI_ARGS from a Go map (random order on a real node); cnisim uses one fixed
 *   order: IgnoreUnknown, K8S_POD_NAMESPACE, K8S_POD_NAME, K8S_POD_INFRA_CONTAINER_ID, K8S_POD_UID;
 * - sandbox metadata is saved once the sandbox is up (containerd 1.7's order): a crash during
 *   network setup leaves whatever the plugins did, unknown to containerd after its restart;
 * - containerd runs with systemd's KillMode=process: a crash does not kill a running plugin,
 *   which finishes on its own (its result is lost).
 */
import { type Draft } from 'immer';
import { produce } from '../sim/world';
import { goMarshal } from '../cni/json';
import { LIB_V1_1, LIB_V1_2, type Result, toCurrent } from '../cni/result';
import * as vfs from '../fs/vfs';
import { q } from '../gofmt';
import * as K from '../kernel/kernel';
import { holdNetns, releaseNetns, unmountNetnsPath } from '../kernel/netns';
import type { KernelState } from '../kernel/types';
import {
  type CNI,
  type CNIConfigOptions,
  type LibcniOutcome,
  type RuntimeConf,
  RUNTIME_PATH_ENV,
} from '../libcni/api';
import {
  confFiles,
  confFromBytes,
  confListFromBytes,
  confListFromConf,
  confListFromFile,
  type NetworkConfigList,
  withPlugins,
} from '../libcni/conf';
import { versionGte } from '../cni/version';
import { ipString } from '../net/ip';
import { containerdLine, writeLog } from '../node/journal';
import type { ProgramRegistry } from '../os/process';
import { DEFAULT_CONTAINERD_VERSION, LIBCNI_SHORTHAND, type Release, releaseOf } from './releases';
import { type Gen, TICK } from '../os/sys';
import type { MachineHost } from '../sched/machines';
import { Ctx, type Scheduler, type Task } from '../sched/scheduler';
import { settled, type NodeState, type Simulation } from '../sim/world';
import { freezeFresh } from '../state/freeze';
import {
  emptyTable,
  tableOf,
  tdel,
  tentries,
  tget,
  tset,
  tvalues,
  type Table,
} from '../state/table';
import { kernelEvent, stateEvent, type KernelPayload, type Unit } from '../trace/trace';
import type {
  CniNetwork,
  ContainerdSettings,
  ContainerdState,
  PodRef,
  PodSandboxConfig,
  SandboxRec,
} from '../state/containerd';

export const LOOPBACK_NETWORK =
  '{"cniVersion":"0.3.1","name":"cni-loopback","plugins":[{"type":"loopback"}]}';

export const DEFAULT_CONTAINERD_SETTINGS: ContainerdSettings = {
  version: DEFAULT_CONTAINERD_VERSION,
  confDir: '/etc/cni/net.d',
  binDirs: ['/opt/cni/bin'],
  maxConfNum: 1,
  libcni: '1.1',
  ipPref: 'ipv4',
};

/**
 * A node's settings from what a scenario gives: `version` names the release, and decides the
 * libcni it uses; without it, `libcni` is a shorthand for a release (1.1: 1.7.22, 1.2: 2.0.0).
 */
export function containerdSettings(given: Partial<ContainerdSettings> = {}): ContainerdSettings {
  const version =
    given.version ?? (given.libcni ? LIBCNI_SHORTHAND[given.libcni] : DEFAULT_CONTAINERD_VERSION);
  const rel = releaseOf({ version, libcni: '1.1' });
  return { ...DEFAULT_CONTAINERD_SETTINGS, ...given, version: rel.version, libcni: rel.libcni };
}

export type { PodSandboxConfig };

export type GrpcCode =
  'Unknown' | 'DeadlineExceeded' | 'Unavailable' | 'Canceled' | 'NotFound' | 'FailedPrecondition';

export interface CriError {
  code: GrpcCode;
  desc: string;
}

export type CriResult<T> = { ok: true; value: T } | { ok: false; error: CriError };

/** How the kubelet prints a CRI error: `rpc error: code = Unknown desc = ...`. */
export function rpcErrorText(e: CriError): string {
  return `rpc error: code = ${e.code} desc = ${e.desc}`;
}

/**
 * PodSandboxMetadata as containerd logs it (`instrumented_service.go` RunPodSandbox, `%+v`): the
 * String() of the k8s.io/cri-api it vendors. Up to 2.1 (cri-api ≤ v0.32, gogo-protobuf) a Go
 * struct literal, `&PodSandboxMetadata{Name:web-0,Uid:…,Namespace:default,Attempt:0,}`; from 2.2
 * (cri-api v0.34+, google.golang.org/protobuf) the protobuf text format, which leaves out a zero
 * `attempt`: `name:"web-0" uid:"…" namespace:"default"`. (protobuf-go may add a second space
 * between fields, fixed per binary (internal/detrand); cnisim prints one.)
 */
export function sandboxMetadataText(p: PodRef, protoText = false): string {
  if (protoText) {
    const s = (v: string) => JSON.stringify(v);
    const attempt = p.attempt !== 0 ? ` attempt:${p.attempt}` : '';
    return `name:${s(p.name)} uid:${s(p.uid)} namespace:${s(p.namespace)}${attempt}`;
  }
  return `&PodSandboxMetadata{Name:${p.name},Uid:${p.uid},Namespace:${p.namespace},Attempt:${p.attempt},}`;
}

/**
 * The name containerd gives a sandbox's netns (`pkg/netns/netns_linux.go` newNS, the same in
 * 1.6.0 – 2.3.4): 16 bytes from crypto/rand printed as `cni-%x-%x-%x-%x-%x` over bytes 0–4,
 * 4–6, 6–8, 8–10 and 10–16. It has a UUID's shape but no version or variant bits: every digit
 * is random (CRI-O's netns names are version-4 UUIDs).
 */
export function containerdNetnsName(hex: string): string {
  return `cni-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export interface ContainerdDeps {
  sim: Simulation;
  sched: Scheduler;
  host: MachineHost;
  programs: ProgramRegistry;
  /** libcni for a call (go-cni's `cniConfig`): containerd holds the CNI interface, not its make. */
  cni: (o: CNIConfigOptions) => CNI;
}

export function sandboxActorId(node: string, id: string): string {
  return `sandbox/${node}/${id.slice(0, 13)}`;
}

export function containerdActorId(node: string): string {
  return `containerd/${node}`;
}

/** The initial containerd state of a node (not yet started). */
export function newContainerdState(settings: ContainerdSettings, pid: number): ContainerdState {
  return { up: false, pid, cni: { networks: [], error: null }, sandboxes: emptyTable(), settings };
}

/** The name index holds `name` for sandbox `id`. */
export function holdName(c: Draft<ContainerdState>, name: string, id: string): void {
  if (!c.names) c.names = emptyTable();
  tset(c.names, name, id);
}

/** The name index lets go of `name` if sandbox `id` holds it. */
export function dropName(c: Draft<ContainerdState>, name: string, id: string): void {
  if (c.names && tget(c.names, name) === id) tdel(c.names, name);
}

/**
 * A new network namespace bind-mounted at `path` (containerd's `unshare --net; mount --bind`,
 * CRI-O's pinns): the kernel's namespace and mount, and the nsfs file on the node.
 */
export function mountNewNetns(k: KernelState, n: Draft<NodeState>, path: string): void {
  K.mountNetns(k, path, K.createNetns(k));
  n.fs = freezeFresh(
    vfs.writeFile(vfs.mkdirAll(settled(n.fs), vfs.dirname(path)), path, '', {
      mode: 0o444,
      nsfs: true,
    }),
  ) as never;
}

export class Containerd {
  /** In-flight CRI requests (they die with the daemon). */
  protected readonly inflight = new Set<Task>();

  constructor(
    readonly deps: ContainerdDeps,
    readonly node: string,
  ) {}

  protected get sim(): Simulation {
    return this.deps.sim;
  }

  get state(): ContainerdState {
    const c = this.sim.node(this.node).containerd;
    if (!c) throw new Error(`node ${this.node} has no containerd`);
    return c;
  }

  protected nodeState(): NodeState {
    return this.sim.node(this.node);
  }

  /** The daemon's name in the journal and the trace (its systemd unit). */
  get unit(): Unit {
    return 'containerd';
  }

  /** The release this node runs, which decides the behaviours below. */
  get release(): Release {
    return releaseOf(this.state.settings);
  }

  /** Changes containerd's in-memory bookkeeping (no trace event: nothing on the node changes). */
  protected quietly(fn: (c: Draft<ContainerdState>) => void): void {
    this.sim.state = produce(this.sim.state, (d) => {
      fn(d.nodes[this.node]!.containerd as Draft<ContainerdState>);
    });
  }

  protected releaseName(name: string, id: string): void {
    if (tget(this.state.names, name) !== id) return;
    this.quietly((c) => dropName(c, name, id));
  }

  /** Recovered sandboxes hold their names again: the name index rebuilt from the store. */
  protected indexNames(nameOf: (pod: SandboxRec['pod']) => string): void {
    const names = tableOf(
      tvalues(this.state.sandboxes).map((sb) => [nameOf(sb.pod), sb.id] as const),
    );
    this.quietly((c) => {
      c.names = names;
    });
  }

  protected log(
    level: 'info' | 'warning' | 'error' | 'fatal',
    msg: string,
    fields: Record<string, string> = {},
    parent?: number,
  ): void {
    writeLog(
      this.sim,
      this.node,
      'containerd',
      this.state.pid,
      level === 'fatal' ? 'error' : level,
      containerdLine(this.sim.state.clock, level, msg, fields),
      parent,
    );
  }

  protected change(
    summary: string,
    fn: (c: Draft<ContainerdState>, n: Draft<NodeState>) => void,
    target: string = this.unit,
  ): void {
    this.sim.apply(
      stateEvent({
        node: this.node,
        source: this.unit,
        target,
        level: 'runtime',
        summary,
        payload: {},
      }),
      (d) => {
        const n = d.nodes[this.node]!;
        fn(n.containerd as Draft<ContainerdState>, n);
      },
    );
  }

  // ---------------------------------------------------------------------------------------------
  // CNI configuration (go-cni Load with WithLoNetwork + WithDefaultConf)

  /** go-cni loadFromConfDir: the networks, or the error that makes CNI "not initialized". */
  loadNetworks(): { networks: CniNetwork[]; error: string | null } {
    const s = this.state.settings;
    const fs = this.nodeState().fs;
    const lo: CniNetwork = {
      name: 'cni-loopback',
      ifName: 'lo',
      file: '',
      bytes: LOOPBACK_NETWORK,
    };
    const wrap = (e: string) => `cni config load failed: ${e}: failed to load cni config`;
    const files = confFiles(fs, s.confDir, ['.conf', '.conflist', '.json']).sort();
    if (files.length === 0) {
      return {
        networks: [lo],
        error: wrap(`no network config found in ${s.confDir}: cni plugin not initialized`),
      };
    }
    const networks: CniNetwork[] = [lo];
    const v13 = this.release.pluginConfDir;
    let i = 0;
    for (const file of files) {
      const bytes = vfs.readFile(fs, file);
      let list: NetworkConfigList;
      let dirPlugins: string[] = [];
      try {
        if (file.endsWith('.conflist')) {
          try {
            ({ list, extra: dirPlugins } = confListFromFile(fs, file, { libcni: s.libcni, v13 }));
          } catch (e) {
            throw new Error(
              `failed to load CNI config list file ${file}: ${(e as Error).message}: invalid cni config`,
            );
          }
        } else {
          let conf;
          try {
            conf = confFromBytes(bytes);
          } catch (e) {
            throw new Error(
              `failed to load CNI config file ${file}: ${(e as Error).message}: invalid cni config`,
            );
          }
          if (!conf.network.type)
            throw new Error(`network type not found in ${file}: invalid cni config`);
          list = confListFromConf(conf, { libcni: s.libcni });
        }
      } catch (e) {
        return { networks: [lo], error: wrap((e as Error).message) };
      }
      if (list.plugins.length === 0) {
        return {
          networks: [lo],
          error: wrap(
            `CNI config list in config file ${file} has no networks, skipping: invalid cni config`,
          ),
        };
      }
      networks.push({
        name: list.name,
        ifName: `eth${i}`,
        file,
        bytes: list.bytes,
        ...(dirPlugins.length > 0 ? { dirPlugins } : {}),
      });
      i++;
      if (i === s.maxConfNum) break;
    }
    return { networks, error: null };
  }

  /**
   * A loaded network as libcni runs it: its list, re-parsed from the bytes go-cni loaded, with
   * the plugin configs libcni v1.3 (2.1+) read from the network's directory at load time.
   */
  protected networkList(net: CniNetwork): NetworkConfigList {
    const list = confListFromBytes(net.bytes, {
      libcni: this.state.settings.libcni,
      v13: this.release.pluginConfDir,
    });
    return withPlugins(list, net.dirPlugins ?? []);
  }

  /** go-cni Status(): NetworkReady needs the loopback network and at least one more. */
  status(): { ready: boolean; message: string } {
    const c = this.state;
    if (!c.up) return { ready: false, message: 'containerd is not running' };
    if (c.cni.networks.length < 2) {
      return { ready: false, message: 'Network plugin returns error: cni plugin not initialized' };
    }
    return { ready: true, message: '' };
  }

  /**
   * The networks CRI Status runs CNI STATUS on: from 2.0.1 (go-cni v1.1.11 `cni.go` Status, which
   * calls libcni GetStatusNetworkList for every loaded network), those whose list is cniVersion
   * 1.1.0 or newer (libcni returns nil at once for the others). Empty on other releases, while
   * CNI is not initialized, or with no such list loaded.
   */
  statusNetworks(): NetworkConfigList[] {
    const c = this.state;
    if (!c.up || !this.release.statusPolls || c.cni.networks.length < 2) return [];
    const out: NetworkConfigList[] = [];
    for (const net of c.cni.networks) {
      let list: NetworkConfigList;
      try {
        list = this.networkList(net);
      } catch {
        continue;
      }
      const gte = versionGte(list.cniVersion, '1.1.0');
      if (gte.ok && gte.value) out.push(list);
    }
    return out;
  }

  /**
   * CRI Status as 2.0.1+ answers it (`internal/cri/server/status.go` Status → go-cni Status):
   * ready() (the loopback network and one more), then libcni GetStatusNetworkList of each
   * network; the first error makes NetworkReady false with `Network plugin returns error: <err>`.
   * Plugins built before STATUS existed (v1.1.1) refuse it in their skel with "missing
   * containerID" (CNI_CONTAINERID is empty for STATUS).
   */
  *statusWithCni(reqSeq?: number): Gen<CriResult<{ ready: boolean; message: string }>> {
    const st = this.status();
    if (!st.ready) return { ok: true, value: st };
    for (const list of this.statusNetworks()) {
      const out = yield* this.libcni(undefined, reqSeq).getStatusNetworkList(list);
      if (!out.ok) {
        return {
          ok: true,
          value: { ready: false, message: `Network plugin returns error: ${out.error.message}` },
        };
      }
    }
    return { ok: true, value: { ready: true, message: '' } };
  }

  /**
   * fsnotify saw `event` in the conf dir: reload. A reload resets the list first, so a broken
   * or half-written file leaves CNI "not initialized" until the next good change.
   */
  reload(event: string): void {
    if (!this.state.up) return;
    const r = this.loadNetworks();
    this.change(
      r.error
        ? `containerd: CNI config reload failed (${event})`
        : `containerd: CNI config reloaded (${r.networks.map((n) => n.name).join(', ')})`,
      (c) => {
        c.cni = r as never;
      },
    );
    if (r.error) {
      this.log(
        'error',
        `failed to reload cni configuration after receiving fs change event(${event})`,
        { error: r.error },
      );
    }
  }

  /**
   * The conf dir itself went (fsnotify Remove or Rename with the directory's own name, after the
   * Removes of its files): the watch is gone. Up to 2.0 the syncer reloads once more (the event is
   * neither Create nor Chmod) and then hears nothing more; from 2.1 syncLoop returns "cni conf
   * dir is removed, stop watching", the CRI service stops (`service.go` Run, Close) and
   * `plugins/cri/cri.go` exits with Fatal. Returns whether the daemon exits (the caller restarts
   * it as systemd does).
   */
  confDirGone(event: string): boolean {
    if (!this.state.up) return false;
    if (!this.release.confDirRemovalFatal) {
      this.reload(event);
      this.quietly((c) => {
        c.confWatchLost = true;
      });
      return false;
    }
    this.log('info', 'Stop CRI service');
    this.log('info', 'Event monitor stopped');
    this.log('info', 'Stream server stopped');
    this.log('fatal', 'Failed to run CRI service', {
      error: 'cni network conf monitor error: cni conf dir is removed, stop watching',
    });
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // The daemon's life

  /** Starts (or restarts) the daemon: loads CNI, recovers sandboxes from their metadata. */
  start(): void {
    const pid = this.deps.sim.state.nextPid;
    // A release installed while the old one ran is what starts now (settings follow from it).
    const next = this.state.installed;
    const upgrade =
      next !== undefined ? containerdSettings({ ...this.state.settings, version: next }) : null;
    this.sim.apply(
      stateEvent({
        node: this.node,
        source: 'systemd',
        target: 'containerd',
        level: 'runtime',
        summary: upgrade
          ? `containerd ${upgrade.version} started (pid ${pid}), was ${this.state.settings.version}`
          : `containerd started (pid ${pid})`,
        payload: { pid },
      }),
      (d) => {
        d.nextPid += 1;
        const n = d.nodes[this.node]!;
        const c = n.containerd!;
        c.up = true;
        c.pid = pid;
        delete c.confWatchLost;
        if (upgrade) {
          c.settings = upgrade as never;
          delete c.installed;
        }
        // newCNINetConfSyncer (`cni_conf_syncer.go`, every release): os.MkdirAll(confDir, 0700)
        // before the watch is added, so a missing conf dir is there again, empty.
        const dir = c.settings.confDir;
        if (!vfs.stat(settled(n.fs), dir)) {
          n.fs = freezeFresh(vfs.mkdirAll(settled(n.fs), dir, 0o700)) as never;
        }
      },
    );
    this.startDaemonActor();
    const r = this.loadNetworks();
    this.change(
      r.error
        ? 'containerd: CNI not initialized'
        : `containerd: CNI networks ${r.networks.map((n) => n.name).join(', ')}`,
      (c) => {
        c.cni = r as never;
      },
    );
    if (r.error) {
      // `cni_conf_syncer.go` newCNINetConfSyncer: Error up to 2.2, Warn from 2.3.0 (b66f92f59).
      this.log(
        this.release.initLoadWarns ? 'warning' : 'error',
        'failed to load cni during init, please check CRI plugin status before setting up network for pods',
        { error: r.error },
      );
    }
    // Recovered sandboxes hold their names again (restart.go: sandboxNameIndex.Reserve).
    this.indexNames(sandboxName);
    // Recovered sandboxes: a pause process that is gone (after a reboot) makes one NOTREADY.
    for (const sb of tvalues(this.state.sandboxes)) {
      if (sb.state === 'SANDBOX_READY' && !sb.pauseRunning) {
        this.setSandbox(sb.id, { state: 'SANDBOX_NOTREADY' }, 'PAUSE_DIED');
      }
    }
    this.deps.host.send(containerdActorId(this.node), { type: 'READY' });
  }

  /**
   * The daemon dies (crash, or `systemctl restart containerd`): requests in flight are gone
   * without their clean-up; plugin processes they started run on (KillMode=process).
   */
  crash(): void {
    for (const t of [...this.inflight]) this.deps.sched.kill(t);
    this.inflight.clear();
    // Sandboxes it was still setting up: up to 1.6.8 they were never saved, and after the restart
    // nobody knows them. From 1.6.9 their metadata (with the netns) was saved before the network
    // was set up: the restart loads them NOTREADY, with no CNI result (restart.go loadSandbox).
    const recovered: string[] = [];
    for (const [id, a] of tentries(this.sim.state.actors)) {
      if (a.machine !== 'sandbox' || (a.context as { node: string }).node !== this.node) continue;
      if (!['settingUpNetwork', 'cleaningUp', 'startingPause'].includes(String(a.value))) continue;
      const sbId = (a.context as { id: string }).id;
      if (this.state.saved?.[sbId]) {
        recovered.push(sbId);
        this.deps.host.send(id, { type: 'RECOVERED' });
      } else this.deps.host.send(id, { type: 'LOST' });
    }
    this.change('containerd stopped', (c) => {
      c.up = false;
      c.cni = { networks: [], error: null } as never;
      // From their saved metadata, the restart loads these into the store.
      for (const id of recovered) tset(c.sandboxes, id, c.saved![id]!);
      delete c.saved;
      // The name index lives in memory.
      delete c.names;
    });
    this.deps.host.send(containerdActorId(this.node), { type: 'CRASH' });
  }

  /** The node rebooted: pause processes are gone, netns mounts too (tmpfs). */
  rebooted(): void {
    this.inflight.clear();
    this.sim.state = produce(this.sim.state, (d) => {
      const c = d.nodes[this.node]!.containerd!;
      c.up = false;
      for (const sb of tvalues(c.sandboxes)) sb.pauseRunning = false;
    });
  }

  // ---------------------------------------------------------------------------------------------
  // CRI requests. Each runs as a scheduler task; the kubelet waits for it (with its timeout).

  /** Spawns a CRI request as a task of this daemon. */
  serve<T>(
    name: string,
    gen: Gen<CriResult<T>>,
    onDone: (t: Task<CriResult<T>>) => void,
  ): Task<CriResult<T>> {
    const task = this.deps.sched.spawn(gen, {
      name: `containerd ${name}`,
      node: this.node,
      onDone: (t) => {
        this.inflight.delete(t as Task);
        onDone(t);
      },
    });
    this.inflight.add(task as Task);
    return task;
  }

  protected libcni(ctx: Ctx | undefined, parentSeq: number | undefined): CNI {
    const s = this.state.settings;
    return this.deps.cni({
      sim: this.sim,
      node: this.node,
      programs: this.deps.programs,
      path: s.binDirs,
      version: s.libcni,
      env: { PATH: RUNTIME_PATH_ENV },
      caller: this.unit,
      sched: this.deps.sched,
      ...(ctx ? { ctx } : {}),
      ...(parentSeq !== undefined ? { parentSeq } : {}),
      onStderr: (text) => {
        for (const line of text.replace(/\n$/, '').split('\n')) {
          writeLog(this.sim, this.node, this.unit, this.state.pid, 'info', line);
        }
      },
    });
  }

  protected runtimeConf(
    id: string,
    netns: string,
    ifName: string,
    cfg: PodSandboxConfig,
  ): RuntimeConf {
    const caps: Record<string, unknown> = {
      'io.kubernetes.cri.pod-annotations': cfg.annotations,
    };
    // go-cni's PortMapping, BandWidth and DNS (types.go, v1.1.3 – v1.1.13) are Go structs
    // without json tags: libcni marshals them with their field names, in field order, zero
    // values included (`{"HostPort":8080,"ContainerPort":80,"Protocol":"tcp","HostIP":""}`), in
    // the plugin's runtimeConfig and in the result cache's capabilityArgs. The plugins decode
    // them case-insensitively (encoding/json).
    const pm = cfg.portMappings.filter((p) => p.hostPort > 0);
    if (pm.length > 0) {
      caps['portMappings'] = pm.map(
        (p) =>
          new GoStruct({
            HostPort: p.hostPort,
            ContainerPort: p.containerPort,
            Protocol: p.protocol.toLowerCase(),
            HostIP: p.hostIp ?? '',
          }),
      );
    }
    const bw = bandwidthFromAnnotations(cfg.annotations);
    if (bw)
      caps['bandwidth'] = new GoStruct({
        IngressRate: bw['ingressRate'] ?? 0,
        IngressBurst: bw['ingressBurst'] ?? 0,
        EgressRate: bw['egressRate'] ?? 0,
        EgressBurst: bw['egressBurst'] ?? 0,
      });
    const dns = cfg.dns;
    if (dns.servers.length || dns.searches.length || dns.options.length) {
      // Nil slices marshal as null.
      caps['dns'] = new GoStruct({
        Servers: dns.servers.length ? dns.servers : null,
        Searches: dns.searches.length ? dns.searches : null,
        Options: dns.options.length ? dns.options : null,
      });
    }
    if (cfg.cgroupParent) caps['cgroupPath'] = cfg.cgroupParent;
    return {
      containerId: id,
      netns,
      ifName,
      args: [
        ['IgnoreUnknown', '1'],
        ['K8S_POD_NAMESPACE', cfg.pod.namespace],
        ['K8S_POD_NAME', cfg.pod.name],
        ['K8S_POD_INFRA_CONTAINER_ID', id],
        ['K8S_POD_UID', cfg.pod.uid],
      ],
      capabilityArgs: caps,
    };
  }

  protected setSandbox(id: string, patch: Partial<SandboxRec>, machineEvent?: string): void {
    const cur = tget(this.state.sandboxes, id);
    if (!cur) return;
    const next = { ...cur, ...patch };
    this.sim.state = produce(this.sim.state, (d) => {
      tset<SandboxRec>(
        d.nodes[this.node]!.containerd!.sandboxes as Table<SandboxRec>,
        id,
        next as SandboxRec,
      );
    });
    if (machineEvent) this.deps.host.send(sandboxActorId(this.node, id), { type: machineEvent });
  }

  /** A kernel change made by containerd itself (netns bind mount, pause process). */
  protected kernelChange(
    summary: string,
    payload: KernelPayload,
    fn: (k: KernelState, n: Draft<NodeState>) => void,
    parent?: number,
  ): void {
    this.sim.apply(
      kernelEvent({
        node: this.node,
        source: this.unit,
        target: 'kernel',
        level: 'kernel',
        summary,
        payload,
        ...(parent !== undefined ? { parent } : {}),
      }),
      (d) => {
        const n = d.nodes[this.node]!;
        const k = n.kernel as KernelState;
        k.now = d.clock;
        fn(k, n);
      },
    );
  }

  protected *removeNetns(path: string, parent?: number): Gen<void> {
    if (!path || !tget(this.nodeState().kernel.mounts, path)) return;
    this.kernelChange(
      `umount ${path}; rm ${path}`,
      { op: 'netns.remove', path },
      (k, n) => {
        unmountNetnsPath(k, path);
        n.fs = freezeFresh(vfs.remove(settled(n.fs), path)) as never;
      },
      parent,
    );
    yield TICK;
  }

  /**
   * go-cni Remove: DEL of every network in load order (`lo` first), skipping errors that say
   * "not found" (or "no such file or directory" with an empty netns path); the first other
   * error stops it.
   */
  private *teardown(
    id: string,
    netns: string,
    cfg: PodSandboxConfig,
    ctx: Ctx | undefined,
    parent: number | undefined,
  ): Gen<string | null> {
    // go-cni Remove starts with Status(): with fewer networks loaded than it needs (loopback and
    // the pod network), nothing is DELeted and the error is returned as is. So a node whose
    // conflist is gone or broken cannot tear pods down: StopPodSandbox fails until it is fixed.
    if (this.state.cni.networks.length < 2) return 'cni plugin not initialized';
    for (const net of this.state.cni.networks) {
      const lib = this.libcni(ctx, parent);
      let list: NetworkConfigList;
      try {
        list = this.networkList(net);
      } catch (e) {
        return (e as Error).message;
      }
      const out: LibcniOutcome = yield* lib.delNetworkList(
        list,
        this.runtimeConf(id, netns, net.ifName, cfg),
      );
      if (!out.ok) {
        const msg = out.error.message;
        if (
          (netns === '' && msg.includes('no such file or directory')) ||
          msg.includes('not found')
        ) {
          continue;
        }
        return msg;
      }
    }
    return null;
  }

  /** The daemon's state machine: started the first time, sent START on a restart. */
  protected startDaemonActor(): void {
    const id = containerdActorId(this.node);
    if (this.deps.host.get(id)) this.deps.host.send(id, { type: 'START' });
    else this.deps.host.start(id, 'containerd', { node: this.node });
  }

  /** Records a new sandbox (an event from the runtime's own unit) and starts its state machine. */
  protected sandboxCreated(
    id: string,
    cfg: PodSandboxConfig,
    netns: string,
    reqSeq?: number,
  ): void {
    this.sim.apply(
      stateEvent({
        node: this.node,
        source: this.unit,
        target: this.unit,
        level: 'runtime',
        summary: `sandbox ${id.slice(0, 13)} for ${cfg.pod.namespace}/${cfg.pod.name}`,
        payload: { sandbox: id, pod: cfg.pod },
        ...(reqSeq !== undefined ? { parent: reqSeq } : {}),
      }),
      () => undefined,
    );
    this.deps.host.start(sandboxActorId(this.node, id), 'sandbox', {
      node: this.node,
      id,
      pod: `${cfg.pod.namespace}/${cfg.pod.name}`,
      netns,
    });
  }

  /** A sandbox whose network is not set up yet (what a failed setup's clean-up works on). */
  protected pendingSandbox(id: string, cfg: PodSandboxConfig, netns: string): SandboxRec {
    return {
      id,
      pod: cfg.pod,
      netns,
      state: 'SANDBOX_NOTREADY',
      ip: '',
      additionalIps: [],
      hasCniResult: false,
      pauseRunning: false,
      createdAt: this.sim.state.clock,
      config: cfg,
    };
  }

  /**
   * RunPodSandbox (`sandbox_run.go` RunPodSandbox): reserve the name, create the netns (from 1.6.9
   * the sandbox's metadata is saved with it), set the network up, start the pause container.
   * A failed setup is torn down by the deferred clean-up; what a failed clean-up leaves depends
   * on the release.
   */
  *runPodSandbox(cfg: PodSandboxConfig, ctx: Ctx, reqSeq?: number): Gen<CriResult<string>> {
    const meta = sandboxMetadataText(cfg.pod, this.release.metadataProtoText);
    this.log('info', `RunPodSandbox for ${meta}`, {}, reqSeq);
    yield TICK;
    const { id, uuidHex } = this.sim.random((r) => ({ id: r.hex(32), uuidHex: r.hex(16) }));
    const rel = this.release;
    // Reserve the sandbox name, so that concurrent requests cannot start the same sandbox.
    const name = sandboxName(cfg.pod);
    const holder = tget(this.state.names, name);
    if (holder !== undefined) {
      const desc = `failed to reserve sandbox name ${q(name)}: name ${q(name)} is reserved for ${q(holder)}`;
      this.log('error', `RunPodSandbox for ${meta} failed, error`, { error: desc });
      // From 2.1.7 / 2.2.2 / 2.3.0 the registrar's ReservedErr has Conflict(), which errgrpc
      // ToGRPC maps to FailedPrecondition; before, a plain error: Unknown.
      const code = rel.reservedNameConflict ? 'FailedPrecondition' : 'Unknown';
      return { ok: false, error: { code, desc } };
    }
    this.quietly((c) => holdName(c, name, id));
    const netns = `/var/run/netns/${containerdNetnsName(uuidHex)}`;
    this.sandboxCreated(id, cfg, netns, reqSeq);
    const pending = this.pendingSandbox(id, cfg, netns);
    // The sandbox's network namespace, bind-mounted at /var/run/netns/cni-<uuid>. From 1.6.9
    // the sandbox container's metadata is updated with it before the network is set up.
    this.kernelChange(
      `unshare --net; mount --bind /proc/self/ns/net ${netns}`,
      { op: 'netns.add', path: netns },
      (k, n) => {
        mountNewNetns(k, n, netns);
        const c = n.containerd!;
        if (rel.savesBeforeSetup) {
          if (c.saved) c.saved[id] = pending;
          else c.saved = { [id]: pending };
        }
      },
      reqSeq,
    );
    yield TICK;

    const results: Array<{ ifName: string; result: Result }> = [];
    let failure: string | null = null;
    // go-cni Setup starts with Status(), after the sandbox and its netns exist: the kubelet only
    // gets here in the window between a conflist breaking and its next status poll.
    if (this.state.cni.networks.length < 2) failure = 'cni plugin not initialized';
    // go-cni attachNetworks (`cni.go`, v1.1.3 – v1.1.13): every network's ADD is started, and
    // all are awaited; the first error wins. cnisim runs them one after the other, in load order
    // (see the header), so a failed loopback ADD does not keep eth0's ADD from running.
    for (const net of failure === null ? this.state.cni.networks : []) {
      // A request whose deadline passed: go-cni's goroutines were all killed at once.
      if (failure !== null && ctx.err !== null) break;
      const lib = this.libcni(ctx, reqSeq);
      let list: NetworkConfigList;
      try {
        list = this.networkList(net);
      } catch (e) {
        failure ??= (e as Error).message;
        break;
      }
      const out = yield* lib.addNetworkList(list, this.runtimeConf(id, netns, net.ifName, cfg));
      if (!out.ok) {
        failure ??= out.error.message;
        continue;
      }
      if (out.result) {
        // go-cni `namespace.go` Attach: types100.NewResultFromResult, so a 0.1.0 / 0.2.0 result
        // (a list without cniVersion) arrives as 1.x, its ip4 / ip6 as IPs with no interface.
        try {
          const lib = this.state.settings.libcni === '1.1' ? LIB_V1_1 : LIB_V1_2;
          results.push({ ifName: net.ifName, result: toCurrent(out.result, lib) });
        } catch (e) {
          failure ??= (e as Error).message;
        }
      }
    }

    let ips: { ip: string; additional: string[] } | null = null;
    if (failure === null) {
      const sel = selectPodIPs(
        results,
        this.state.settings.ipPref,
        this.release.ipv6PrefTakesFirst,
      );
      if ('error' in sel)
        failure =
          sel.error === 'no-eth0'
            ? 'default network not found for: eth0: not found'
            : `failed to find network info for sandbox ${q(id)}`;
      else ips = sel;
    }

    if (failure !== null || !ips) {
      const desc = `failed to setup network for sandbox ${q(id)}: ${failure}`;
      this.deps.host.send(sandboxActorId(this.node, id), { type: 'SETUP_FAILED' });
      // Deferred clean-up, with a fresh context of its own (the request's may be cancelled
      // already): util.DeferContext, deferCleanupTimeout = 1 minute.
      const cleanupCtx = new Ctx();
      const timer = `containerd/${this.node}/cleanup/${id}`;
      this.deps.sched.after(DEFER_CLEANUP_TIMEOUT_US, timer, () =>
        cleanupCtx.cancel('context deadline exceeded'),
      );
      let delErr: string | null;
      try {
        delErr = yield* this.teardown(id, netns, cfg, cleanupCtx, reqSeq);
      } finally {
        this.deps.sched.cancel(timer);
      }
      let cleanupErr = delErr;
      if (delErr !== null) {
        this.log('error', `Failed to destroy network for sandbox ${q(id)}`, { error: delErr });
        // ≤ 1.6.8 only logs it; 1.6.37+ and 2.x drop it when no CNI result was stored
        // ("ignoring failed to destroy networks when we failed to setup networks").
        if (!rel.keepsFailedCleanup) cleanupErr = null;
      }
      if (cleanupErr !== null) {
        // 1.6.9 – 1.6.36 and 1.7: the netns, the name and the sandbox stay, for the kubelet's
        // next sync to stop it.
        this.log(
          'error',
          `encountered an error cleaning up failed sandbox ${q(id)}, marking sandbox state as SANDBOX_UNKNOWN`,
          { error: cleanupErr },
        );
        this.change(`containerd: sandbox ${id.slice(0, 13)} kept as SANDBOX_UNKNOWN`, (c) => {
          tset<SandboxRec>(c.sandboxes as Table<SandboxRec>, id, {
            ...pending,
            unknown: true,
          } as SandboxRec);
          if (c.saved) delete c.saved[id];
        });
        this.deps.host.send(sandboxActorId(this.node, id), { type: 'CLEANUP_FAILED' });
      } else {
        yield* this.removeNetns(netns, reqSeq);
        if (this.state.saved?.[id]) {
          this.quietly((c) => {
            delete c.saved![id];
          });
        }
        this.releaseName(name, id);
        this.deps.host.send(sandboxActorId(this.node, id), { type: 'CLEANED_UP' });
      }
      // The error as the reference's log template shows it (kubelet-containerd.md §6). The 2.x
      // source differs: instrumented_service.go logs the named result after `return res,
      // errgrpc.ToGRPC(err)` set it, and errgrpc (containerd/errdefs/pkg v0.3.0) resolves an
      // error of no known kind to ErrUnknown, so a 2.x journal would read `error="rpc error: code
      // = Unknown desc = …"`. No recording decides it; cnisim follows the reference.
      this.log('error', `RunPodSandbox for ${meta} failed, error`, { error: desc });
      return { ok: false, error: { code: 'Unknown', desc } };
    }

    this.deps.host.send(sandboxActorId(this.node, id), { type: 'NETWORK_READY' });
    // The pause container starts inside the namespace and keeps it alive.
    const rec: SandboxRec = {
      id,
      pod: cfg.pod,
      netns,
      state: 'SANDBOX_READY',
      ip: ips.ip,
      additionalIps: ips.additional,
      hasCniResult: true,
      pauseRunning: true,
      createdAt: this.sim.state.clock,
      config: cfg,
    };
    this.kernelChange(
      `start pause container of sandbox ${id.slice(0, 13)} in ${netns}`,
      { op: 'pause.start', sandbox: id },
      (k, n) => {
        const nsId = tget(k.mounts, netns);
        if (nsId) holdNetns(k, nsId, `pause:${id}`);
        tset<SandboxRec>(n.containerd!.sandboxes as Table<SandboxRec>, id, rec as SandboxRec);
        if (n.containerd!.saved) delete n.containerd!.saved[id];
      },
      reqSeq,
    );
    yield TICK;
    this.deps.host.send(sandboxActorId(this.node, id), { type: 'STARTED' });
    this.log('info', `RunPodSandbox for ${meta} returns sandbox id ${q(id)}`);
    return { ok: true, value: id };
  }

  /** The pause process exits: the namespace goes if no mount keeps it. */
  protected *stopPause(sb: SandboxRec, parent?: number): Gen<void> {
    if (!sb.pauseRunning) return;
    this.kernelChange(
      `stop pause container of sandbox ${sb.id.slice(0, 13)}`,
      { op: 'pause.stop', sandbox: sb.id },
      (k, n) => {
        const nsId = tvalues(k.netns).find((ns) => ns.holders?.includes(`pause:${sb.id}`))?.id;
        if (nsId) releaseNetns(k, nsId, `pause:${sb.id}`);
        tget(n.containerd!.sandboxes, sb.id)!.pauseRunning = false;
      },
      parent,
    );
    yield TICK;
  }

  /**
   * The stop path (`sandbox_stop.go` stopPodSandbox): the pause container, then the network,
   * as the release does it (releases.ts StopTeardown). An error text, or null.
   */
  private *stopSandbox(
    sb: SandboxRec,
    cfg: PodSandboxConfig,
    reqSeq: number | undefined,
    ctx: Ctx | undefined,
  ): Gen<string | null> {
    const id = sb.id;
    this.deps.host.send(sandboxActorId(this.node, id), { type: 'STOP' });
    yield* this.stopPause(sb, reqSeq);
    const mode = this.release.stopTeardown;
    // A closed namespace (its mount gone, e.g. after a reboot or an earlier stop) is torn down
    // with an empty path.
    const netns = tget(this.nodeState().kernel.mounts, sb.netns) ? sb.netns : '';
    // 1.6.37+, 1.7.23+, every 2.x: no stored result, no DEL at all (runtime-versions.md; the
    // upstream tags with commit f854c18 run DEL again, and cnisim follows the facts here).
    if (mode === 'always' || sb.hasCniResult) {
      const err = yield* this.teardown(id, netns, cfg, ctx, reqSeq);
      if (err !== null) {
        this.setSandbox(id, { state: 'SANDBOX_NOTREADY' }, 'STOP_FAILED');
        return `failed to destroy network for sandbox ${q(id)}: ${err}`;
      }
    }
    yield* this.removeNetns(sb.netns, reqSeq);
    this.log('info', `TearDown network for sandbox ${q(id)} successfully`);
    this.setSandbox(id, { state: 'SANDBOX_NOTREADY', unknown: false }, 'STOPPED');
    return null;
  }

  /** StopPodSandbox. */
  *stopPodSandbox(
    id: string,
    cfg: PodSandboxConfig,
    reqSeq?: number,
    ctx?: Ctx,
  ): Gen<CriResult<null>> {
    this.log('info', `StopPodSandbox for ${q(id)}`, {}, reqSeq);
    yield TICK;
    const sb = tget(this.state.sandboxes, id);
    if (!sb) {
      // Not in the store (`sandbox_stop.go` StopPodSandbox): up to 1.6.34 and 1.7.20 the lookup's
      // errdefs.ErrNotFound is returned, which errdefs.ToGRPC (`instrumented_service.go`) maps
      // to NotFound; from 1.6.35, 1.7.21 and in 2.x the RPC is idempotent and answers success.
      if (this.release.stopNotFoundFails) {
        const error: CriError = {
          code: 'NotFound',
          desc: `an error occurred when try to find sandbox ${q(id)}: not found`,
        };
        // instrumented_service.go logs the error after `return res, errdefs.ToGRPC(err)` set it:
        // a NotFound is a gRPC status by then.
        this.log('error', `StopPodSandbox for ${q(id)} failed`, { error: rpcErrorText(error) });
        return { ok: false, error };
      }
      this.log('info', `StopPodSandbox for ${q(id)} returns successfully`);
      return { ok: true, value: null };
    }
    const err = yield* this.stopSandbox(sb, cfg, reqSeq, ctx);
    if (err !== null) {
      this.log('error', `StopPodSandbox for ${q(id)} failed`, { error: err });
      return { ok: false, error: { code: 'Unknown', desc: err } };
    }
    this.log('info', `StopPodSandbox for ${q(id)} returns successfully`);
    return { ok: true, value: null };
  }

  /**
   * RemovePodSandbox (`sandbox_remove.go` RemovePodSandbox): always forcibly stops the sandbox
   * first, so the stop path, DEL included, runs again on a sandbox that was stopped already
   * (with an empty CNI_NETNS once its netns is gone); then deletes its metadata.
   */
  *removePodSandbox(id: string, cfg?: PodSandboxConfig, reqSeq?: number): Gen<CriResult<null>> {
    this.log('info', `RemovePodSandbox for ${q(id)}`, {}, reqSeq);
    yield TICK;
    const sb = tget(this.state.sandboxes, id);
    if (!sb) {
      this.log('info', `RemovePodSandbox ${q(id)} returns successfully`);
      return { ok: true, value: null };
    }
    this.log('info', `Forcibly stopping sandbox ${q(id)}`);
    const config = sb.config ?? cfg;
    if (!config) throw new Error(`sandbox ${id} has no config`);
    const err = yield* this.stopSandbox(sb, config, reqSeq, undefined);
    if (err !== null) {
      const desc = `failed to forcibly stop sandbox ${q(id)}: ${err}`;
      this.log('error', `RemovePodSandbox for ${q(id)} failed`, { error: desc });
      return { ok: false, error: { code: 'Unknown', desc } };
    }
    this.change(`containerd: sandbox ${id.slice(0, 13)} removed`, (c) => {
      tdel(c.sandboxes, id);
      dropName(c, sandboxName(sb.pod), id);
    });
    this.deps.host.send(sandboxActorId(this.node, id), { type: 'REMOVED' });
    this.log('info', `RemovePodSandbox ${q(id)} returns successfully`);
    return { ok: true, value: null };
  }

  /** ListPodSandbox (a read: no event): the sandbox store, not requests still running. */
  listPodSandbox(): SandboxRec[] {
    return tvalues(this.state.sandboxes).sort((a, b) => a.createdAt - b.createdAt);
  }
}

/** The name a sandbox reserves (makeSandboxName): `<pod>_<namespace>_<uid>_<attempt>`. */
export function sandboxName(p: PodRef): string {
  return `${p.name}_${p.namespace}_${p.uid}_${p.attempt}`;
}

/** util.DeferContext: the deferred clean-up's own deadline (deferCleanupTimeout, 1 minute). */
export const DEFER_CLEANUP_TIMEOUT_US = 60_000_000;

/**
 * The pod IPs from the merged result (go-cni createResult + containerd selectPodIPs): interfaces
 * keyed by name, IPs without an interface index count for eth0; the first IP of the preferred
 * family is the pod IP, the rest are additional.
 */
export function selectPodIPs(
  results: ReadonlyArray<{ ifName: string; result: Result }>,
  pref: 'ipv4' | 'ipv6' | 'cni',
  ipv6TakesFirst = false,
): { ip: string; additional: string[] } | { error: 'no-eth0' | 'no-ip' } {
  const byIf = new Map<string, string[]>();
  for (const { result } of results) {
    const r = result as {
      interfaces?: Array<{ name: string }> | null;
      ips?: Array<{
        interface?: number | null;
        address: { ip: Parameters<typeof ipString>[0] };
      }> | null;
    };
    for (const intf of r.interfaces ?? []) if (!byIf.has(intf.name)) byIf.set(intf.name, []);
    for (const c of r.ips ?? []) {
      const idx = c.interface;
      const name =
        idx !== undefined && idx !== null && r.interfaces && idx >= 0 && idx < r.interfaces.length
          ? r.interfaces[idx]!.name
          : 'eth0';
      if (!byIf.has(name)) byIf.set(name, []);
      byIf.get(name)!.push(ipString(c.address.ip));
    }
  }
  const eth0 = byIf.get('eth0');
  if (!eth0) return { error: 'no-eth0' };
  if (eth0.length === 0) return { error: 'no-ip' };
  const isV4 = (s: string) => !s.includes(':');
  let primary = eth0[0]!;
  if (pref === 'ipv4') primary = eth0.find(isV4) ?? primary;
  // Up to 1.7.24 (and in every 1.6) the ipv6 case tests `ip.IP.To16() != nil`, true for an IPv4
  // address too: the first IP wins, whatever its family (fixed by 88a8496, "Don't use
  // `To16() != nil` to detect IPv6 addresses": 1.7.25, 2.0.0).
  if (pref === 'ipv6' && !ipv6TakesFirst) primary = eth0.find((s) => !isV4(s)) ?? primary;
  return { ip: primary, additional: eth0.filter((s) => s !== primary) };
}

/**
 * A Go struct value passed to libcni as interface{}: json.Marshal writes its fields in
 * declaration order (a plain object here would be re-sorted as a Go map is).
 */
export class GoStruct {
  constructor(fields: Record<string, unknown>) {
    Object.assign(this, fields);
  }
}

/** kubernetes.io/ingress-bandwidth and egress-bandwidth annotations (bits/s), burst 2^32-1. */
export function bandwidthFromAnnotations(a: Record<string, string>): Record<string, number> | null {
  const parse = (v: string | undefined): number | null => {
    if (v === undefined) return null;
    const m = /^(\d+(?:\.\d+)?)([kMGT]?)$/.exec(v.trim());
    if (!m) return null;
    const mult = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[m[2] as '' | 'k' | 'M' | 'G' | 'T'];
    return Math.round(Number(m[1]) * mult);
  };
  const ing = parse(a['kubernetes.io/ingress-bandwidth']);
  const eg = parse(a['kubernetes.io/egress-bandwidth']);
  if (ing === null && eg === null) return null;
  const out: Record<string, number> = {};
  if (ing !== null) {
    out['ingressRate'] = ing;
    out['ingressBurst'] = 4294967295;
  }
  if (eg !== null) {
    out['egressRate'] = eg;
    out['egressBurst'] = 4294967295;
  }
  return out;
}

/** The CNI config of a network as containerd logged it (for views). */
export function networkSummary(n: CniNetwork): string {
  return `${n.name} (${n.ifName}${n.file ? `, ${n.file}` : ''})`;
}

export { goMarshal };
