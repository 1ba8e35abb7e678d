/**
 * CRI-O with ocicni on one node, as far as pod networking goes: what it shares with containerd
 * is the CRI surface the kubelet calls (RunPodSandbox, StopPodSandbox, RemovePodSandbox, Status,
 * ListPodSandbox) and the records it keeps (containerd.ts, state/containerd.ts); every behaviour
 * below is CRI-O's own, each named with its source at the tags of github.com/cri-o/cri-o
 * (`server/`, `internal/config/cnimgr/`) and github.com/cri-o/ocicni (`pkg/ocicni/ocicni.go`).
 * Facts: ../shared/reference/runtime-versions.md ("CRI-O (ocicni)"); docs/runtimes.md.
 *
 * Assumptions where real nodes vary:
 * - the request id CRI-O logs with each line (`id=`, a random UUID per request) comes from the
 *   simulation's seeded random source;
 * - ocicni's "Got pod network &{...}" line (a Go %+v with pointer addresses) is not written;
 * - host ports: CRI-O programs them itself (its hostport manager, CRIO-HOSTPORTS chains) and
 *   passes no `portMappings` to CNI; cnisim passes none either but does not model the manager;
 * - the resource store keeps a sandbox whose kubelet gave up until the kubelet's retry claims it
 *   (the real store also cleans up a resource nobody claims within minutes).
 */
import type { Draft } from 'immer';
import * as vfs from '../fs/vfs';
import { q } from '../gofmt';
import { linkSetUp } from '../kernel/links';
import { holdNetns } from '../kernel/netns';
import { settled } from '../sim/world';
import { freezeFresh } from '../state/freeze';
import { base64Decode } from '../base64';
import { tdel, tentries, tget, tset, tvalues, type Table } from '../state/table';
import { resultsDir } from '../libcni/cache';
import {
  confFiles,
  confFromBytes,
  confListFromBytes,
  confListFromConf,
  confListFromFile,
  withPlugins,
} from '../libcni/conf';
import type { NetworkConfigList } from '../libcni/conf';
import { LIB_V1_1, LIB_V1_2, type Result, toCurrent } from '../cni/result';
import { ipString } from '../net/ip';
import { crioLine, writeLog } from '../node/journal';
import { type Gen, TICK } from '../os/sys';
import { Ctx, type Task } from '../sched/scheduler';
import type {
  CniNetwork,
  ContainerdSettings,
  CrioState,
  PodSandboxConfig,
  SandboxRec,
} from '../state/containerd';
import type { ContainerdState } from '../state/containerd';
import { stateEvent, type Unit } from '../trace/trace';
import {
  bandwidthFromAnnotations,
  Containerd,
  type CriResult,
  DEFAULT_CONTAINERD_SETTINGS,
  dropName,
  holdName,
  mountNewNetns,
  containerdActorId,
  newContainerdState,
  sandboxActorId,
} from './containerd';
import { type CrioRelease, crioReleaseOf, DEFAULT_CRIO_VERSION } from './crio-releases';
import type { Release } from './releases';

/** CRI-O's version file (`pkg/config/config_unix.go` CrioVersionPathTmp): on tmpfs. */
export const CRIO_VERSION_FILE = '/var/run/crio/version';

/** A node's settings for CRI-O `version` (its libcni follows from the release). */
export function crioSettings(version: string = DEFAULT_CRIO_VERSION): ContainerdSettings {
  const rel = crioReleaseOf(version);
  return {
    ...DEFAULT_CONTAINERD_SETTINGS,
    runtime: 'cri-o',
    version: rel.version,
    libcni: rel.libcni,
    // pkg/config/config_unix.go cniBinDir: CRI-O's default plugin_dirs keeps its trailing slash,
    // which libcni passes on as CNI_PATH and prints in "failed to find plugin … in path [...]".
    binDirs: ['/opt/cni/bin/'],
  };
}

/** CNIManager.New: lastError starts as "plugin status uninitialized" from 1.32, nil before. */
function initialLastError(rel: CrioRelease): string | null {
  return rel.statusAndGc ? 'plugin status uninitialized' : null;
}

/** The initial state of a CRI-O node (not yet started). */
export function newCrioState(settings: ContainerdSettings, pid: number): ContainerdState {
  return {
    ...newContainerdState(settings, pid),
    crio: {
      defaultNet: '',
      lastError: initialLastError(crioReleaseOf(settings.version)),
      networkStopped: [],
      resources: {},
    },
  };
}

/**
 * errMissingDefaultNetwork (ocicni.go) with CRI-O's network_dir, "/etc/cni/net.d/"
 * (pkg/config/config_unix.go cniConfigDir).
 */
export function missingDefaultNetwork(confDir: string): string {
  return `no CNI configuration file in ${confDir.replace(/\/?$/, '/')}. Has your network provider started?`;
}

/** The pod sandbox's name (`internal/factory/sandbox/sandbox.go` SetNameAndID). */
export function crioSandboxName(p: {
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
}): string {
  return `k8s_${p.name}_${p.namespace}_${p.uid}_${p.attempt}`;
}

/** The start-up poll's interval (`cnimgr.go` pollUntilReady: wait.PollInfinite(500ms)). */
export const CRIO_POLL_US = 500_000;
/**
 * 1.36: the continuous poll's interval once the plugin is ready (`cnimgr.go` New:
 * monitorPollInterval 5 s; pollContinuously phase 2, wait.PollUntilContextCancel, immediate).
 */
export const CRIO_MONITOR_POLL_US = 5_000_000;
/**
 * 1.36: how long STATUS may fail before NetworkReady turns false (`cnimgr.go` statusPollFunc,
 * gracePeriod; v1.36.3). Upstream differs from the fact modelled here
 * (../shared/reference/runtime-versions.md: "1.36 polls it continuously, with a grace period"):
 * - v1.36.0 – v1.36.2 poll every 5 s with no grace period (the first failing poll sets lastError);
 * - v1.36.3 adds `cni_status_grace_period` (`pkg/config/config.go` CNIStatusGracePeriod), whose
 *   default "0s" turns the continuous poll off (pollContinuously: "Continuous CNI STATUS
 *   monitoring is disabled"): opt-in.
 * The facts win, so every 1.36 release polls continuously, with the grace period the source's
 * own config template and crio.conf(5) give as the example value, "1m" (`pkg/config/template.go`
 * templateStringCrioNetworkCNIStatusGracePeriod).
 */
export const CRIO_STATUS_GRACE_US = 60_000_000;
/** Go's time.Duration String of the two, as the log lines print them. */
const GRACE_TEXT = '1m0s';
const MONITOR_TEXT = '5s';
/** networkStart's own deadline before the kubelet's (`sandbox_network.go`: 5 minutes +). */
export const CRIO_NETWORK_START_US = 5 * 60_000_000;
/** networkStop's deadline (`sandbox_network.go`: "give a network stop call 1 minutes"). */
export const CRIO_NETWORK_STOP_US = 60_000_000;

type Fields = Record<string, string>;

export class Crio extends Containerd {
  /** Called when what CRI Status answers changes (the cluster makes the kubelet check again). */
  onStatusChange: () => void = () => undefined;

  override get unit(): Unit {
    return 'crio';
  }

  get crioRelease(): CrioRelease {
    return crioReleaseOf(this.state.settings.version);
  }

  /** A CRI-O node has no containerd release; whatever asks for one is a bug. */
  override get release(): Release {
    throw new Error(`${this.node} runs CRI-O ${this.state.settings.version}, not containerd`);
  }

  get crio(): CrioState {
    const s = this.state.crio;
    if (!s) throw new Error(`${this.node}: no CRI-O state`);
    return s;
  }

  private crioQuietly(fn: (s: Draft<CrioState>) => void): void {
    this.quietly((c) => fn(c.crio!));
  }

  protected override log(
    level: 'info' | 'warning' | 'error',
    msg: string,
    fields: Fields = {},
    parent?: number,
  ): void {
    writeLog(
      this.sim,
      this.node,
      'crio',
      this.state.pid,
      level,
      crioLine(this.sim.state.clock, level, msg, fields),
      parent,
    );
  }

  /** The fields CRI-O's request logger adds (`internal/log` entry: `id`, `name`). */
  private request(method: string): Fields {
    const hex = this.sim.random((r) => r.hex(16));
    const h = hex.split('');
    h[12] = '4';
    h[16] = '89ab'[parseInt(h[16]!, 16) & 3]!;
    const s = h.join('');
    return {
      id: `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`,
      name: `/runtime.v1.RuntimeService/${method}`,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // CNI configuration (ocicni loadNetworks, syncNetworkConfig) and NetworkReady (cnimgr)

  /**
   * ocicni `loadNetworks` + `syncNetworkConfig`: every file of the conf dir, sorted; a file that
   * does not parse, has no plugins or fails libcni ValidateNetworkList (a VERSION run of each
   * plugin: it must support the list's cniVersion) is logged and skipped, not fatal as in
   * go-cni. The first valid network is the default one.
   */
  *syncNetworkConfig(parent?: number): Gen<void> {
    const s = this.state.settings;
    const lib = this.libcni(undefined, parent);
    const networks: CniNetwork[] = [];
    let def = '';
    const files = confFiles(this.nodeState().fs, s.confDir, ['.conf', '.conflist', '.json']).sort();
    for (const file of files) {
      const fs = this.nodeState().fs;
      if (!vfs.stat(fs, file)) continue; // do not log ENOENT errors
      const bytes = vfs.readFile(fs, file);
      let list: NetworkConfigList;
      let dirPlugins: string[] = [];
      if (file.endsWith('.conflist')) {
        try {
          // libcni v1.3 (1.33+): plugin configs from <conf dir>/<network name>/*.conf too.
          ({ list, extra: dirPlugins } = confListFromFile(fs, file, {
            libcni: s.libcni,
            v13: this.crioRelease.pluginConfDir,
          }));
        } catch (e) {
          this.log('error', `Error loading CNI config list file ${file}: ${(e as Error).message}`);
          continue;
        }
      } else {
        let conf;
        try {
          conf = confFromBytes(bytes);
        } catch (e) {
          this.log('error', `Error loading CNI config file ${file}: ${(e as Error).message}`);
          continue;
        }
        if (!conf.network.type) {
          this.log(
            'warning',
            `Error loading CNI config file ${file}: no 'type'; perhaps this is a .conflist?`,
          );
          continue;
        }
        try {
          list = confListFromConf(conf, { libcni: s.libcni });
        } catch (e) {
          this.log(
            'error',
            `Error converting CNI config file ${file} to list: ${(e as Error).message}`,
          );
          continue;
        }
      }
      if (list.plugins.length === 0) {
        this.log('info', `CNI config list ${file} has no networks, skipping`);
        continue;
      }
      // libcni ValidateNetworkList → validatePlugin: FindInPath, VERSION, the list's version.
      const errs: string[] = [];
      const want = list.cniVersion || '0.1.0';
      for (const p of list.plugins) {
        const out = yield* lib.getVersionInfo(p.network.type);
        if (!out.ok) errs.push(out.error.message);
        else if (!(out.supportedVersions ?? []).includes(want))
          errs.push(`plugin ${p.network.type} does not support config version ${q(want)}`);
      }
      if (errs.length > 0) {
        this.log('warning', `Error validating CNI config file ${file}: [${errs.join(' ')}]`);
        continue;
      }
      const name = list.name || vfs.basename(file);
      const type = list.plugins[0]!.network.type;
      this.log('info', `Found CNI network ${name} (type=${type}) at ${file}`);
      if (networks.some((n) => n.name === name)) {
        this.log(
          'info',
          `Ignored CNI network ${name} (type=${type}) at ${file} because already exists`,
        );
      } else {
        networks.push({
          name,
          ifName: def === '' ? 'eth0' : '',
          file,
          bytes: list.bytes,
          ...(dirPlugins.length > 0 ? { dirPlugins } : {}),
        });
      }
      if (def === '') def = name;
    }
    // ocicni v0.5.0 (1.35+) says nothing when there is no default network.
    if (def !== '' || !this.crioRelease.quietMonitor)
      this.log('info', `Updated default CNI network name to ${def}`);
    this.change(
      def
        ? `crio: CNI networks ${networks.map((n) => n.name).join(', ')} (default ${def})`
        : 'crio: no valid CNI network',
      (c) => {
        c.cni = { networks, error: def ? null : missingDefaultNetwork(s.confDir) } as never;
        c.crio!.defaultNet = def;
      },
    );
  }

  /** A loaded network's list, with the plugin configs libcni v1.3 read from its directory. */
  private loadedList(net: CniNetwork): NetworkConfigList {
    const list = confListFromBytes(net.bytes, {
      libcni: this.state.settings.libcni,
      v13: this.crioRelease.pluginConfDir,
    });
    return withPlugins(list, net.dirPlugins ?? []);
  }

  /** The default network's list, or null (ocicni getDefaultNetwork). */
  private defaultNetwork(): { net: CniNetwork; list: NetworkConfigList } | null {
    const def = this.crio.defaultNet;
    const net = this.state.cni.networks.find((n) => n.name === def);
    if (!def || !net) return null;
    return { net, list: this.loadedList(net) };
  }

  /**
   * CRI Status (`server/runtime_status.go` Status → CNIPluginReadyOrError): the CNI manager's
   * lastError, which only the start-up poll sets. Once it has seen the plugin ready it stops
   * polling (1.28 – 1.35), so NetworkReady stays true whatever happens to the conf dir later;
   * 1.36 keeps polling (monitorPoll) and sets it again when STATUS fails past the grace period.
   * Not ready: reason NetworkPluginNotReady, message "Network plugin returns error: <err>".
   */
  override status(): { ready: boolean; message: string } {
    const c = this.state;
    if (!c.up) return { ready: false, message: 'crio is not running' };
    const err = this.crio.lastError;
    return err === null
      ? { ready: true, message: '' }
      : { ready: false, message: `Network plugin returns error: ${err}` };
  }

  /** The kubelet's Status runs no CNI command on CRI-O (its answer is the manager's lastError). */
  override statusNetworks(): NetworkConfigList[] {
    return [];
  }

  /**
   * One round of the start-up poll (`cnimgr.go` pollFunc): ocicni Status (a default network; from
   * 1.32, ocicni v0.4.3, also libcni GetStatusNetworkList of it, which runs STATUS on the plugins
   * of a 1.1.0 list); when it passes, from 1.32 a GC (doGC → ocicni GC) of every network with
   * the known sandboxes as the valid attachments, then lastError = nil for good.
   */
  private *pollFunc(): Gen<void> {
    if (!this.state.up || this.crio.pollDone) return;
    const rel = this.crioRelease;
    const err = yield* this.pluginStatus();
    if (err !== null) {
      if (err !== this.crio.lastError) {
        // 1.28 – 1.31 start with lastError nil: the first failing poll turns the node NotReady.
        this.crioQuietly((s) => {
          s.lastError = err;
        });
        this.onStatusChange();
      }
      return;
    }
    if (rel.continuousStatus)
      this.log('info', `CNI plugin is now healthy (was: ${this.crio.lastError ?? '<nil>'})`);
    if (rel.statusAndGc) yield* this.gc();
    this.change('crio: CNI plugin ready', (c) => {
      c.crio!.lastError = null;
      c.crio!.pollDone = true;
    });
    this.onStatusChange();
    if (rel.continuousStatus) {
      this.log(
        'info',
        `Continuous CNI STATUS monitoring enabled (grace period: ${GRACE_TEXT}, poll interval: ${MONITOR_TEXT})`,
      );
      this.startMonitor(0);
    }
  }

  /**
   * ocicni `StatusWithContext`: the missing default network's error, or (1.32+, ocicni v0.4.3)
   * libcni GetStatusNetworkList of it, which runs STATUS on the plugins of a 1.1.0 list.
   */
  private *pluginStatus(): Gen<string | null> {
    const def = this.defaultNetwork();
    if (!def) return missingDefaultNetwork(this.state.settings.confDir);
    if (!this.crioRelease.statusAndGc) return null;
    const out = yield* this.libcni(undefined, undefined).getStatusNetworkList(def.list);
    return out.ok ? null : out.error.message;
  }

  /** The continuous poll's task (1.36), which a crash kills. */
  private monitor: Task<void> | null = null;

  /** The next round of the continuous poll, `delayUs` from now. */
  private startMonitor(delayUs: number): void {
    const key = `crio/${this.node}/monitor`;
    if (!this.state.up || this.deps.sched.hasTimer(key)) return;
    const run = () => {
      this.monitor = this.deps.sched.spawn(this.monitorPoll(), {
        name: 'crio CNI status monitor',
        node: this.node,
      });
    };
    if (delayUs <= 0) run();
    else this.deps.sched.after(delayUs, key, run);
  }

  /**
   * One round of 1.36's continuous poll (`cnimgr.go` pollContinuously phase 2 → statusPollFunc
   * with isStartup false), every 5 s on a fixed tick. A failing STATUS while the plugin is
   * healthy starts the grace period ("CNI plugin status check failed, will report unhealthy
   * after grace period"); only a failure at least the grace period after the first one sets
   * lastError ("CNI plugin unhealthy beyond grace period"), and the kubelet then reports
   * NetworkReady=false. Once unhealthy, every failure sets lastError at once. A passing STATUS
   * clears the grace period and, if unhealthy, lastError ("CNI plugin is now healthy"): Ready
   * again. No GC runs after start-up.
   */
  private *monitorPoll(): Gen<void> {
    if (!this.state.up || !this.crio.pollDone) return;
    const started = this.sim.state.clock;
    const err = yield* this.pluginStatus();
    if (!this.state.up) return;
    const s = this.crio;
    if (err !== null) {
      let report = true;
      if (s.lastError === null) {
        if (s.firstFailure === undefined) {
          this.crioQuietly((c) => {
            c.firstFailure = this.sim.state.clock;
          });
          this.log(
            'warning',
            `CNI plugin status check failed, will report unhealthy after grace period (${GRACE_TEXT}): ${err}`,
          );
        }
        if (this.sim.state.clock - this.crio.firstFailure! < CRIO_STATUS_GRACE_US) report = false;
        else this.log('error', `CNI plugin unhealthy beyond grace period (${GRACE_TEXT}): ${err}`);
      }
      if (report && err !== this.crio.lastError) {
        this.change('crio: CNI plugin unhealthy', (c) => {
          c.crio!.lastError = err;
        });
        this.onStatusChange();
      }
    } else {
      if (s.firstFailure !== undefined)
        this.crioQuietly((c) => {
          delete c.firstFailure;
        });
      if (s.lastError !== null) {
        this.log('info', `CNI plugin is now healthy (was: ${s.lastError})`);
        this.change('crio: CNI plugin healthy again', (c) => {
          c.crio!.lastError = null;
        });
        this.onStatusChange();
      }
    }
    // wait.PollUntilContextCancel is not sliding: the next tick is 5 s after this one began.
    this.startMonitor(Math.max(started + CRIO_MONITOR_POLL_US - this.sim.state.clock, 0));
  }

  /**
   * ocicni `GC` (1.32+, once at start: `server.go` networkGC(knownPods), run by pollFunc when the
   * plugin is ready): for every network, libcni GCNetworkList with the sandboxes CRI-O knows as
   * the valid attachments: a DEL of every other cached attachment, then GC to the plugins of a
   * 1.1.0 list. Errors are logged as a warning.
   */
  private *gc(): Gen<void> {
    const valid = tvalues(this.state.sandboxes).map((sb) => ({
      containerID: sb.id,
      ifname: 'eth0',
    }));
    const errs: string[] = [];
    for (const net of this.state.cni.networks) {
      const list = this.loadedList(net);
      const ctx = new Ctx();
      const timer = `crio/${this.node}/gc/${net.name}`;
      this.deps.sched.after(30_000_000, timer, () => ctx.cancel('context deadline exceeded'));
      try {
        const out = yield* this.libcni(ctx, undefined).gcNetworkList(list, valid);
        if (!out.ok) {
          this.log('warning', `Error while GCing network ${net.name}: ${out.error.message}`);
          errs.push(out.error.message);
        }
      } finally {
        this.deps.sched.cancel(timer);
      }
    }
    if (errs.length > 0)
      this.log(
        'warning',
        `Garbage collect stale network resources during plugin startup failed: ${errs.join('\n')}`,
      );
  }

  /** The poll runs again at its next 500-ms tick after anything it depends on changed. */
  private schedulePoll(): void {
    if (!this.state.up || this.crio.pollDone) return;
    const key = `crio/${this.node}/poll`;
    if (this.deps.sched.hasTimer(key)) return;
    this.deps.sched.after(CRIO_POLL_US, key, () => {
      this.deps.sched.spawn(this.pollFunc(), { name: 'crio CNI status poll', node: this.node });
    });
  }

  /** fsnotify events waiting for the watcher goroutine, which handles one at a time. */
  private queued = 0;
  private syncing: Task<void> | null = null;

  /**
   * Loads the conf dir as a task of the daemon, one event after the other as monitorConfDir's
   * loop does, then lets the start-up poll look again.
   */
  private sync(): void {
    this.queued += 1;
    if (this.syncing && !this.syncing.done) return;
    const body = function* (this: Crio): Gen<void> {
      while (this.queued > 0 && this.state.up) {
        this.queued -= 1;
        yield* this.syncNetworkConfig();
        this.schedulePoll();
      }
      this.queued = 0;
    }.call(this);
    this.syncing = this.deps.sched.spawn(body, { name: 'crio CNI monitor', node: this.node });
  }

  /**
   * ocicni `monitorConfDir`: fsnotify events of the conf dir and the plugin dirs. Create, Write
   * and Rename reload (a conflist `mv`'d in is loaded, unlike on containerd); Remove only when it
   * is the default network's file; Chmod never.
   */
  reloadOn(op: string, event: string, path: string): boolean {
    if (!this.state.up) return false;
    const remove = op === 'REMOVE';
    const defFile = this.state.cni.networks.find((n) => n.name === this.crio.defaultNet)?.file;
    // ocicni v0.5.0 (1.35+): only events of a config file are logged.
    const ext = /\.[^./]*$/.exec(vfs.basename(path))?.[0] ?? '';
    if (!this.crioRelease.quietMonitor || ['.conf', '.conflist', '.json'].includes(ext))
      this.log('info', `CNI monitoring event ${event}`);
    if (!['CREATE', 'WRITE', 'RENAME'].includes(op) && !(remove && defFile === path)) return false;
    this.sync();
    return true;
  }

  override reload(): void {
    this.sync();
  }

  // ---------------------------------------------------------------------------------------------
  // The daemon's life

  override start(): void {
    const pid = this.sim.state.nextPid;
    const rel = this.crioRelease;
    this.sim.apply(
      stateEvent({
        node: this.node,
        source: 'systemd',
        target: 'crio',
        level: 'runtime',
        summary: `crio started (pid ${pid})`,
        payload: { pid },
      }),
      (d) => {
        d.nextPid += 1;
        const c = d.nodes[this.node]!.containerd!;
        // The CRI socket listens only once InitCNI's first sync is done (crio's server starts
        // after it): until then the kubelet's calls are refused.
        c.up = false;
        c.pid = pid;
        c.crio!.lastError = initialLastError(rel);
        c.crio!.pollDone = false;
        delete c.crio!.firstFailure;
      },
    );
    this.startDaemonActor();
    this.log('info', `Starting CRI-O, version: ${rel.version}, git: ${rel.gitCommit}(clean)`);
    // Sandboxes restored from storage hold their names again.
    this.indexNames(crioSandboxName);
    for (const sb of tvalues(this.state.sandboxes)) {
      if (sb.state === 'SANDBOX_READY' && !sb.pauseRunning) {
        this.setSandbox(sb.id, { state: 'SANDBOX_NOTREADY' }, 'PAUSE_DIED');
      }
    }
    // InitCNI: the first syncNetworkConfig; then the server serves and the start-up poll runs
    // (cnimgr.New → pollUntilReady).
    const body = function* (this: Crio): Gen<void> {
      yield* this.syncNetworkConfig();
      // server.New → restore: sandboxes that cannot be loaded are deleted, their networks are
      // stopped in the background.
      const lost = this.restoreSandboxes();
      yield* this.wipeIfAppropriate();
      this.change('crio: serving the CRI', (c) => {
        c.up = true;
      });
      this.deps.host.send(containerdActorId(this.node), { type: 'READY' });
      this.onStatusChange();
      this.schedulePoll();
      if (lost.length > 0)
        this.restoreCleanup = this.deps.sched.spawn(this.cleanupLost(lost), {
          name: 'crio restore cleanup',
          node: this.node,
        });
    }.call(this);
    this.starting = this.deps.sched.spawn(body, { name: 'crio start', node: this.node });
  }

  /**
   * `server/server.go` wipeIfAppropriate (internal_wipe, on by default), then `cmd/crio/main.go`
   * WriteVersionFile: the version file lives on tmpfs (`/var/run/crio/version`), so after a boot
   * it is missing: CRI-O logs that it could not read it and removes every sandbox it restored
   * (those that were stopped before the reboot); then it writes the file (`<version>+<commit>`,
   * semver JSON). A restart without a reboot finds the file and wipes nothing.
   */
  private *wipeIfAppropriate(): Gen<void> {
    const file = CRIO_VERSION_FILE;
    if (!vfs.stat(this.nodeState().fs, file)) {
      this.log(
        'warning',
        `Error encountered when checking whether cri-o should wipe containers: open ${file}: no such file or directory`,
      );
      for (const sb of this.listPodSandbox()) {
        const f = this.request('RemovePodSandbox');
        const config = sb.config;
        const running = sb.pauseRunning || !!tget(this.nodeState().kernel.mounts, sb.netns);
        const err =
          running && config ? yield* this.stopCrioSandbox(sb, config, f, undefined) : null;
        if (err !== null) {
          this.log('warning', `Failed to remove sandbox ${sb.id}: stop pod network: ${err}`);
          continue;
        }
        this.change(`crio: sandbox ${sb.id.slice(0, 13)} wiped`, (c) => {
          tdel(c.sandboxes, sb.id);
          dropName(c, crioSandboxName(sb.pod), sb.id);
          c.crio!.networkStopped = c.crio!.networkStopped.filter((x) => x !== sb.id);
        });
        this.deps.host.send(sandboxActorId(this.node, sb.id), { type: 'REMOVED' });
        this.log('info', `Removed pod sandbox: ${sb.id}`);
      }
    }
    const rel = this.crioRelease;
    const text = JSON.stringify(`${rel.version}${rel.gitCommit ? `+${rel.gitCommit}` : ''}`);
    this.change(`crio: ${file} written`, (_c, n) => {
      let fs = settled(n.fs);
      // /var/run is a link to /run: the file goes where the link leads.
      const dir = vfs.stat(fs, '/var/run')
        ? vfs.joinPath(vfs.resolvePath(fs, '/var/run'), 'crio')
        : vfs.dirname(file);
      fs = vfs.mkdirAll(fs, dir);
      n.fs = freezeFresh(
        vfs.writeFile(fs, vfs.joinPath(dir, vfs.basename(file)), text, { mode: 0o644 }),
      ) as never;
    });
    yield TICK;
  }

  /** The background network clean-up of sandboxes the restore could not load. */
  private restoreCleanup: Task<void> | null = null;

  /**
   * `server/server.go` restore → LoadSandbox (`internal/lib/container_server.go`): a sandbox
   * whose infra container was not stopped must join its pinned network namespace again
   * (NetNsJoin → nsmgr.GetNamespace → ns.GetNS). After a reboot the pin is gone (/var/run is
   * tmpfs), so the load fails: the sandbox and its containers are deleted from storage, their
   * names released, and the sandbox is kept only for a CNI DEL. The kubelet then finds no
   * sandbox for the pod: a new one, Attempt 0, and no SandboxChanged.
   */
  private restoreSandboxes(): SandboxRec[] {
    const fs = this.nodeState().fs;
    const lost: SandboxRec[] = [];
    for (const sb of tvalues(this.state.sandboxes)) {
      const v = this.deps.host.get(sandboxActorId(this.node, sb.id))?.value;
      if (v === 'stopped' || v === 'removed' || vfs.stat(fs, sb.netns)) continue;
      lost.push(sb);
      this.log(
        'warning',
        `Could not restore sandbox ${sb.id}: failed to Statfs ${q(sb.netns)}: no such file or directory`,
      );
      this.log(
        'warning',
        `Deleting all containers under sandbox ${sb.id} since it could not be restored`,
      );
      this.change(`crio: sandbox ${sb.id.slice(0, 13)} not restored`, (c) => {
        tdel(c.sandboxes, sb.id);
        dropName(c, crioSandboxName(sb.pod), sb.id);
      });
      this.deps.host.send(sandboxActorId(this.node, sb.id), { type: 'LOST' });
    }
    return lost;
  }

  /**
   * restore's wipeResourceCleaner, run in a goroutine: networkStop of each sandbox it could not
   * load, each retried (`internal/resourcestore/resourcecleaner.go` retry: 20 attempts, 500 ms
   * apart, growing by 1.5); the first that never succeeds ends the clean-up.
   */
  private *cleanupLost(lost: SandboxRec[]): Gen<void> {
    const what = 'cleanup sandbox network';
    // ResourceCleaner.Add prepends: the last added runs first.
    for (const sb of [...lost].reverse()) {
      let delay = 500_000;
      for (let step = 1; ; step++) {
        this.log('info', what);
        const cfg = sb.config;
        // The failed join left a closed namespace whose Path() is "" (nsmgr types_linux.go):
        // the DEL runs with an empty CNI_NETNS.
        const err = cfg ? yield* this.networkStop({ ...sb, netns: '' }, cfg, {}, undefined) : null;
        if (err === null) {
          this.log('info', `Successfully cleaned up network for pod ${sb.id}`);
          break;
        }
        this.log('error', `Failed to cleanup (probably retrying): ${err}`);
        if (step === 20) {
          this.log('error', `Retried cleanup function ${q(what)} too often, giving up`);
          this.log(
            'error',
            'Cleanup during server startup failed: wait on retry: timed out waiting for the condition',
          );
          return;
        }
        yield { tick: true, sleepUs: delay };
        delay = Math.round(delay * 1.5);
      }
    }
  }

  /** The start-up task (InitCNI), which a crash kills. */
  private starting: Task<void> | null = null;

  /**
   * CRI-O dies: requests in flight are gone, and with them what they had not cleaned up: a
   * sandbox being created was never stored, so its pinned namespace and whatever its plugins did
   * stay behind (the resource store is memory too). Plugins run on (KillMode=process).
   */
  override crash(): void {
    if (this.starting && !this.starting.done) this.deps.sched.kill(this.starting);
    this.starting = null;
    if (this.restoreCleanup && !this.restoreCleanup.done) this.deps.sched.kill(this.restoreCleanup);
    this.restoreCleanup = null;
    if (this.syncing && !this.syncing.done) this.deps.sched.kill(this.syncing);
    this.syncing = null;
    this.queued = 0;
    for (const t of [...this.inflight]) this.deps.sched.kill(t);
    this.inflight.clear();
    this.deps.sched.cancel(`crio/${this.node}/poll`);
    this.deps.sched.cancel(`crio/${this.node}/monitor`);
    if (this.monitor && !this.monitor.done) this.deps.sched.kill(this.monitor);
    this.monitor = null;
    for (const [id, a] of tentries(this.sim.state.actors)) {
      if (a.machine !== 'sandbox' || (a.context as { node: string }).node !== this.node) continue;
      if (['settingUpNetwork', 'cleaningUp', 'startingPause'].includes(String(a.value)))
        this.deps.host.send(id, { type: 'LOST' });
    }
    this.change('crio stopped', (c) => {
      c.up = false;
      c.cni = { networks: [], error: null } as never;
      delete c.saved;
      delete c.names;
      c.crio!.defaultNet = '';
      c.crio!.resources = {};
    });
    this.deps.host.send(containerdActorId(this.node), { type: 'CRASH' });
  }

  // ---------------------------------------------------------------------------------------------
  // CRI requests

  private podNetworkArgs(id: string, cfg: PodSandboxConfig): Array<[string, string]> {
    return [
      ['IgnoreUnknown', '1'],
      ['K8S_POD_NAMESPACE', cfg.pod.namespace],
      ['K8S_POD_NAME', cfg.pod.name],
      ['K8S_POD_INFRA_CONTAINER_ID', id],
      ['K8S_POD_UID', cfg.pod.uid],
    ];
  }

  /**
   * ocicni buildCNIRuntimeConf from CRI-O's newPodNetwork (`sandbox_network.go`): bandwidth,
   * cgroupPath and the pod annotations; no portMappings (CRI-O's hostport manager does them) and
   * no dns.
   */
  private crioRuntimeConf(id: string, netns: string, cfg: PodSandboxConfig) {
    const caps: Record<string, unknown> = {};
    // The annotations' rates (containerd's runtimeConf holds go-cni's BandWidth struct instead).
    const bw = bandwidthFromAnnotations(cfg.annotations);
    if (bw) {
      const out: Record<string, number> = {};
      // math.MaxUint32*8 - 1: "4GB burst limit"
      if (bw['ingressRate'])
        Object.assign(out, { ingressRate: bw['ingressRate'], ingressBurst: 34359738359 });
      if (bw['egressRate'])
        Object.assign(out, { egressRate: bw['egressRate'], egressBurst: 34359738359 });
      caps['bandwidth'] = {
        ingressRate: 0,
        ingressBurst: 0,
        egressRate: 0,
        egressBurst: 0,
        ...out,
      };
    }
    if (cfg.cgroupParent) caps['cgroupPath'] = cfg.cgroupParent;
    caps['io.kubernetes.cri.pod-annotations'] = cfg.annotations;
    return {
      containerId: id,
      netns,
      ifName: 'eth0',
      args: this.podNetworkArgs(id, cfg),
      capabilityArgs: caps,
    };
  }

  /**
   * libcni GetNetworkListCachedConfig as ocicni's loadNetworkFromCache uses it: the cached config
   * bytes (a list, or a plain config up-converted) and the cached CNI_ARGS and capabilities; an
   * error when the file is missing (`network %q not found in CNI cache`) or unreadable.
   */
  private loadNetworkFromCache(
    name: string,
    id: string,
    ifName: string,
  ):
    | { list: NetworkConfigList; args?: Array<[string, string]>; caps?: Record<string, unknown> }
    | string {
    const file = vfs.joinPath(resultsDir(), `${name}-${id}-${ifName}`);
    const st = vfs.stat(this.nodeState().fs, file);
    if (!st || st.kind !== 'file') return `network ${q(name)} not found in CNI cache`;
    let info: {
      kind?: string;
      config?: string;
      cniArgs?: string[][];
      capabilityArgs?: Record<string, unknown>;
    };
    try {
      info = JSON.parse(st.data) as typeof info;
    } catch (e) {
      return `failed to unmarshal cached network ${q(name)} config: ${(e as Error).message}`;
    }
    if (info.kind !== 'cniCacheV1')
      return `read cached network ${q(name)} config has wrong kind: ${info.kind ?? ''}`;
    const bytes = info.config ? (base64Decode(info.config) ?? '') : '';
    let list: NetworkConfigList;
    try {
      // The file's own bytes (libcni caches list.Bytes): a v1.3 list without `plugins` parses,
      // with none, and the plugins from its directory are not in it.
      list = confListFromBytes(bytes, {
        libcni: this.state.settings.libcni,
        v13: this.crioRelease.pluginConfDir,
      });
    } catch {
      try {
        list = confListFromConf(confFromBytes(bytes), { libcni: this.state.settings.libcni });
      } catch (e) {
        return (e as Error).message;
      }
    }
    return {
      list,
      ...(info.cniArgs
        ? { args: info.cniArgs.map((a) => [a[0] ?? '', a[1] ?? ''] as [string, string]) }
        : {}),
      ...(info.capabilityArgs ? { caps: info.capabilityArgs } : {}),
    };
  }

  /** getCachedNetworkInfo: the attachments the result cache records for a sandbox. */
  private cachedAttachments(id: string): Array<{ name: string; ifName: string }> {
    const fs = this.nodeState().fs;
    const dir = resultsDir();
    if (vfs.stat(fs, dir)?.kind !== 'dir') return [];
    const out: Array<{ name: string; ifName: string }> = [];
    for (const f of vfs.readDir(fs, dir).sort()) {
      const part = `-${id}-`;
      const pos = f.indexOf(part);
      if (pos <= 0 || pos + part.length >= f.length) continue;
      const st = vfs.stat(fs, vfs.joinPath(dir, f));
      if (!st || st.kind !== 'file') continue;
      let info: { kind?: string; ifName?: string; containerId?: string; networkName?: string };
      try {
        info = JSON.parse(st.data) as typeof info;
      } catch (e) {
        this.log(
          'error',
          `Failed to unmarshal CNI cache file ${vfs.joinPath(dir, f)}: ${(e as Error).message}`,
        );
        continue;
      }
      if (info.kind !== 'cniCacheV1' || info.containerId !== id) continue;
      if (info.ifName === 'lo' && info.networkName === 'cni-loopback') continue;
      if (!info.ifName || !info.networkName) continue;
      out.push({ name: info.networkName, ifName: info.ifName });
    }
    return out;
  }

  /**
   * networkStop (`sandbox_network.go`) → ocicni TearDownPodWithContext: best effort, once per
   * sandbox (a stopped network is not torn down again), under a 1-minute context. What a failed
   * DEL does depends on the patch release (crio-releases.ts StopDelFailure): an error the
   * kubelet retries, that error with the netns path's fate, or a network marked stopped anyway
   * with its result cache files removed. An error text, or null.
   */
  private *networkStop(
    sb: { id: string; netns: string; pod: SandboxRec['pod'] },
    cfg: PodSandboxConfig,
    fields: Fields,
    parent: number | undefined,
  ): Gen<string | null> {
    if (this.crio.networkStopped.includes(sb.id)) return null;
    const gen = this.crioRelease.stopDelFailure;
    const label = `${crioSandboxName(sb.pod)}(${sb.id})`;
    const path = sb.netns;
    const stopped = (): null => {
      this.crioQuietly((s) => {
        s.networkStopped.push(sb.id);
      });
      return null;
    };
    // From 1.33.3 / 1.32.8 the netns path is looked at before the DEL (os.Stat, then
    // validateNetworkNamespace: ns.GetNS in `sandbox_network_linux.go`).
    let netnsValid = true;
    if (gen === 'skip-missing' || gen === 'mark-stopped' || gen === 'mark-stopped-quiet') {
      const at = this.netnsAt(path);
      if (path === '') {
        if (gen === 'mark-stopped-quiet') {
          this.log(
            'warning',
            `Network namespace path is empty for pod sandbox ${label}, attempting CNI teardown with cached info`,
            fields,
          );
          netnsValid = false;
        }
      } else if (at === 'missing') {
        // (A debug line: "Network namespace file … does not exist".)
        if (gen === 'skip-missing') return stopped();
        netnsValid = false;
      } else if (at === 'file') {
        const what =
          gen === 'skip-missing'
            ? 'skipping CNI teardown'
            : 'attempting CNI teardown with cached info';
        this.log(
          'warning',
          `Network namespace file ${path} is invalid for pod sandbox ${label}: invalid network namespace: unknown FS magic on ${q(path)}: 1021994, removing and ${what}`,
          fields,
        );
        yield* this.cleanupNetns(path, label, fields);
        if (gen === 'skip-missing') return stopped();
        netnsValid = false;
      }
    }
    const err = yield* this.tearDownPod(sb, cfg, fields, parent);
    if (err === null) return stopped();
    const destroy = `failed to destroy network for pod sandbox ${label}: ${err}`;
    switch (gen) {
      case 'fail':
        return destroy;
      case 'rm-netns': {
        // os.Stat, then os.RemoveAll of the path: a pinned namespace is a mount point, which
        // unlink refuses (EBUSY); a plain file there goes, and the stop succeeds.
        const at = this.netnsAt(path);
        if (at === 'missing')
          return `${destroy}: stat netns path ${q(path)}: stat ${path}: no such file or directory`;
        if (at === 'pinned')
          return `${destroy}: failed to remove netns path: unlinkat ${path}: device or resource busy`;
        yield* this.removePlainFile(path);
        this.log('warning', `Removed invalid netns path ${path} from pod sandbox ${label}`, fields);
        return stopped();
      }
      default: {
        if (gen === 'mark-stopped-quiet' && !netnsValid) {
          // (A debug line: "CNI teardown failed due to missing/invalid network namespace".)
          yield* this.cleanupCNIResultFiles(sb.id, fields);
          return stopped();
        }
        this.log('warning', `Failed to destroy network for pod sandbox ${label}: ${err}`, fields);
        if (path !== '' && netnsValid && this.netnsAt(path) !== 'missing')
          yield* this.cleanupNetns(path, label, fields);
        const teardown = `network teardown failed for pod sandbox ${label}: ${err}`;
        if (gen === 'skip-missing') return teardown;
        // "Even if CNI teardown failed, mark network as stopped to prevent retry loops."
        yield* this.cleanupCNIResultFiles(sb.id, fields);
        stopped();
        return teardown;
      }
    }
  }

  /** What is at a sandbox's netns path: nothing, the pinned namespace (a mount), or a file. */
  private netnsAt(path: string): 'missing' | 'pinned' | 'file' {
    if (path === '' || !vfs.stat(this.nodeState().fs, path)) return 'missing';
    return tget(this.nodeState().kernel.mounts, path) ? 'pinned' : 'file';
  }

  private *removePlainFile(path: string): Gen<void> {
    this.change(`crio: rm ${path}`, (_c, n) => {
      n.fs = freezeFresh(vfs.remove(settled(n.fs), path)) as never;
    });
    yield TICK;
  }

  /** cleanupNetns (`sandbox_network_linux.go`): os.RemoveAll of the netns path, logged. */
  private *cleanupNetns(path: string, label: string, fields: Fields): Gen<void> {
    if (this.netnsAt(path) === 'pinned') {
      this.log(
        'warning',
        `Failed to remove netns path ${path}: unlinkat ${path}: device or resource busy`,
        fields,
      );
      return;
    }
    if (this.netnsAt(path) === 'file') yield* this.removePlainFile(path);
    this.log('info', `Removed netns path ${path} from pod sandbox ${label}`, fields);
  }

  /**
   * cleanupCNIResultFiles (`sandbox_network.go`, 1.32.8+, 1.33.4+): every file of
   * /var/lib/cni/results whose name holds the sandbox id is removed, after a failed DEL.
   */
  private *cleanupCNIResultFiles(id: string, fields: Fields): Gen<void> {
    const dir = resultsDir();
    const fs = this.nodeState().fs;
    if (vfs.stat(fs, dir)?.kind !== 'dir') {
      this.log(
        'warning',
        `Failed to read CNI cache directory ${dir}: open ${dir}: no such file or directory`,
        fields,
      );
      return;
    }
    for (const f of vfs.readDir(fs, dir).sort()) {
      const file = vfs.joinPath(dir, f);
      if (!f.includes(id) || vfs.stat(this.nodeState().fs, file)?.kind !== 'file') continue;
      this.change(`crio: rm ${file}`, (_c, n) => {
        n.fs = freezeFresh(vfs.remove(settled(n.fs), file)) as never;
      });
      this.log('info', `Cleaned up CNI result file ${f} for container ${id}`, fields);
    }
    yield TICK;
  }

  /**
   * ocicni TearDownPodWithContext: the attachments come from the result cache; each network's
   * config and CNI_ARGS come from its cache file (loadNetworkFromCache), falling back to the
   * config on disk. ocicni's error text, or null.
   */
  private *tearDownPod(
    sb: { id: string; netns: string; pod: SandboxRec['pod'] },
    cfg: PodSandboxConfig,
    fields: Fields,
    parent: number | undefined,
  ): Gen<string | null> {
    let attachments = this.cachedAttachments(sb.id);
    if (attachments.length === 0) {
      if (!this.crio.defaultNet) return missingDefaultNetwork(this.state.settings.confDir);
      attachments = [{ name: this.crio.defaultNet, ifName: 'eth0' }];
    }
    const ctx = new Ctx();
    const timer = `crio/${this.node}/stop/${sb.id}`;
    this.deps.sched.after(CRIO_NETWORK_STOP_US, timer, () =>
      ctx.cancel('context deadline exceeded'),
    );
    try {
      for (const a of attachments) {
        // CRI-O passes the pinned path even once the namespace is gone (sb.NetNsPath()).
        const rt = { ...this.crioRuntimeConf(sb.id, sb.netns, cfg), ifName: a.ifName };
        let list: NetworkConfigList | null = null;
        const cached = this.loadNetworkFromCache(a.name, sb.id, a.ifName);
        if (typeof cached === 'string') {
          this.log('error', `Error loading cached network config: ${cached}`, fields);
          this.log('warning', 'Falling back to loading from existing plugins on disk', fields);
        } else {
          list = cached.list;
          if (cached.args) rt.args = cached.args;
          rt.capabilityArgs = cached.caps ?? {};
        }
        if (!list) {
          const net = this.state.cni.networks.find((n) => n.name === a.name);
          if (!net) return `failed to find requested network name ${a.name}`;
          list = this.loadedList(net);
        }
        const pod = `${sb.pod.namespace}_${sb.pod.name}`;
        this.log(
          'info',
          `Deleting pod ${pod} from CNI network ${q(list.name)} (type=${list.plugins[0]?.network.type ?? ''})`,
          fields,
        );
        const out = yield* this.libcni(ctx, parent).delNetworkList(list, rt);
        if (!out.ok)
          return `error removing pod ${pod} from CNI network ${q(list.name)}: ${out.error.message}`;
      }
    } finally {
      this.deps.sched.cancel(timer);
    }
    return null;
  }

  /**
   * RunPodSandbox (`server/sandbox_run_linux.go` runPodSandbox, `sandbox_network.go`
   * networkStart): the name is reserved (a retry of a request that outlived the kubelet gets its
   * sandbox from the resource store), the namespaces are pinned at /var/run/netns/<uuid>, ocicni
   * brings `lo` up itself (no loopback plugin, no cache file for it), ADDs the default network,
   * then CHECKs it (GetPodNetworkStatusWithContext). Network setup runs under its own context: 5
   * minutes plus the kubelet's deadline. A failure stops the network (DEL, from the cache when
   * there is one, else the config on disk); if that DEL fails it is only logged, and the
   * namespaces and the name are cleaned up anyway: the sandbox is forgotten.
   */
  override *runPodSandbox(
    cfg: PodSandboxConfig,
    ctx?: Ctx,
    reqSeq?: number,
  ): Gen<CriResult<string>> {
    const f = this.request('RunPodSandbox');
    this.log('info', `Running pod sandbox: ${cfg.pod.namespace}/${cfg.pod.name}/POD`, f, reqSeq);
    yield TICK;
    const { id, uuidHex } = this.sim.random((r) => ({ id: r.hex(32), uuidHex: r.hex(16) }));
    const name = crioSandboxName(cfg.pod);
    const holder = tget(this.state.names, name);
    if (holder !== undefined) {
      const reserveErr = `error reserving pod name ${name} for id ${id}: name is reserved`;
      this.log('warning', reserveErr);
      const sb = tget(this.state.sandboxes, holder);
      if (sb && sb.state === 'SANDBOX_READY') return { ok: true, value: holder };
      const res = this.crio.resources[name];
      if (res?.done) {
        // getResourceOrWait: the sandbox the kubelet gave up on is its now.
        this.log('info', `Found sandbox ${name} with ID ${res.id} in resource cache; using it`, f);
        const kept = this.state.saved?.[res.id];
        this.change(`crio: sandbox ${res.id.slice(0, 13)} taken from the resource store`, (c) => {
          if (kept) tset<SandboxRec>(c.sandboxes as Table<SandboxRec>, res.id, kept as SandboxRec);
          if (c.saved) delete c.saved[res.id];
          delete c.crio!.resources[name];
        });
        this.deps.host.send(sandboxActorId(this.node, res.id), { type: 'STARTED' });
        return { ok: true, value: res.id };
      }
      if (res) {
        const wait = 2 * this.kubeletTimeoutUs() + 4 * 60_000_000;
        this.log(
          'info',
          `Creation of sandbox ${name} not yet finished. Currently at stage sandbox network creation. Waiting up to ${goDuration(wait)} for it to finish`,
          f,
        );
        // It waits for the kubelet's context even once the sandbox is done: answering earlier
        // would make the kubelet bump the attempt (getResourceOrWait).
        const c = ctx;
        if (c)
          while (c.err === null)
            yield {
              tick: true,
              wait: {
                get done() {
                  return c.err !== null;
                },
              },
            };
        return {
          ok: false,
          error: { code: 'DeadlineExceeded', desc: 'context deadline exceeded' },
        };
      }
      return {
        ok: false,
        error: {
          code: 'Unknown',
          desc: `error attempting to watch for sandbox ${name}: no longer found: ${reserveErr}`,
        },
      };
    }
    this.quietly((c) => {
      holdName(c, name, id);
      c.crio!.resources[name] = { id, done: false };
    });
    const uuid = uuid4(uuidHex);
    const netns = `/var/run/netns/${uuid}`;
    this.sandboxCreated(id, cfg, netns, reqSeq);
    // pinns pins the sandbox's namespaces under /var/run/<type>ns/<uuid> (nsmgr_linux.go).
    this.kernelChange(
      `pinns -d /var/run -f ${uuid} --ipc --net --uts`,
      { op: 'netns.add', path: netns },
      (k, n) => {
        mountNewNetns(k, n, netns);
      },
      reqSeq,
    );
    yield TICK;
    const pending = this.pendingSandbox(id, cfg, netns);

    const setup = yield* this.networkStart(id, name, netns, cfg, f, reqSeq);
    if (typeof setup === 'string') {
      this.deps.host.send(sandboxActorId(this.node, id), { type: 'SETUP_FAILED' });
      // networkStart's deferred stop, with a new context.
      this.log('info', `NetworkStart: stopping network for sandbox ${id}`, f);
      const stopErr = yield* this.networkStop(pending, cfg, f, reqSeq);
      if (stopErr !== null) this.log('error', `Error stopping network on cleanup: ${stopErr}`, f);
      // The resource cleaner, newest first: the namespaces, then the name.
      this.log('info', `runSandbox: cleaning up namespaces after failing to run sandbox ${id}`, f);
      yield* this.removeNetns(netns, reqSeq);
      this.log('info', `runSandbox: releasing pod sandbox name: ${name}`, f);
      this.quietly((c) => {
        dropName(c, name, id);
        delete c.crio!.resources[name];
        c.crio!.networkStopped = c.crio!.networkStopped.filter((x) => x !== id);
      });
      this.deps.host.send(sandboxActorId(this.node, id), { type: 'CLEANED_UP' });
      return { ok: false, error: { code: 'Unknown', desc: setup } };
    }

    this.deps.host.send(sandboxActorId(this.node, id), { type: 'NETWORK_READY' });
    const rec: SandboxRec = {
      ...pending,
      state: 'SANDBOX_READY',
      ip: setup[0] ?? '',
      additionalIps: setup.slice(1),
      hasCniResult: true,
      pauseRunning: true,
      createdAt: this.sim.state.clock,
    };
    const late = ctx?.err ?? null;
    this.kernelChange(
      `start infra container of sandbox ${id.slice(0, 13)} in ${netns}`,
      { op: 'pause.start', sandbox: id },
      (k, n) => {
        const nsId = tget(k.mounts, netns);
        if (nsId) holdNetns(k, nsId, `pause:${id}`);
        const c = n.containerd!;
        // The kubelet gave up meanwhile: the sandbox waits in the resource store for its retry.
        if (late !== null) {
          if (c.saved) c.saved[id] = rec as never;
          else c.saved = { [id]: rec } as never;
          c.crio!.resources[name] = { id, done: true };
        } else {
          tset<SandboxRec>(c.sandboxes as Table<SandboxRec>, id, rec as SandboxRec);
          delete c.crio!.resources[name];
        }
      },
      reqSeq,
    );
    yield TICK;
    if (late !== null) {
      this.log(
        'info',
        `RunSandbox: context was either canceled or the deadline was exceeded: ${late}`,
        f,
      );
      return { ok: false, error: { code: 'DeadlineExceeded', desc: late } };
    }
    this.deps.host.send(sandboxActorId(this.node, id), { type: 'STARTED' });
    this.log(
      'info',
      `Ran pod sandbox ${id} with infra container: ${cfg.pod.namespace}/${cfg.pod.name}/POD`,
      f,
    );
    return { ok: true, value: id };
  }

  private kubeletTimeoutUs(): number {
    return this.nodeState().kubelet?.settings.runtimeRequestTimeoutUs ?? 120_000_000;
  }

  /**
   * networkStart (`sandbox_network.go`): ocicni SetUpPodWithContext (bringUpLoopback, then ADD
   * of the default network) and GetPodNetworkStatusWithContext (CHECK, from the cached config,
   * then the cached result), under a context of 5 minutes plus the kubelet's deadline that the
   * kubelet cannot cancel. The pod IPs, or the error text.
   */
  private *networkStart(
    id: string,
    sbName: string,
    netns: string,
    cfg: PodSandboxConfig,
    f: Fields,
    reqSeq: number | undefined,
  ): Gen<string[] | string> {
    const fail = (what: string, e: string) => `${what} ${sbName}(${id}): ${e}`;
    const def = this.defaultNetwork();
    if (!def)
      return fail(
        'failed to create pod network sandbox',
        missingDefaultNetwork(this.state.settings.confDir),
      );
    const ctx = new Ctx();
    const timer = `crio/${this.node}/start/${id}`;
    this.deps.sched.after(CRIO_NETWORK_START_US + 2 * this.kubeletTimeoutUs(), timer, () =>
      ctx.cancel('context deadline exceeded'),
    );
    try {
      // bringUpLoopback (ocicni util_linux.go): netlink in the namespace, no plugin.
      this.kernelChange(
        `ip -n ${vfs.basename(netns)} link set lo up`,
        { op: 'link.up', ns: netns, name: 'lo' },
        (k) => {
          const nsId = tget(k.mounts, netns);
          if (nsId) linkSetUp(k, nsId, 1);
        },
        reqSeq,
      );
      yield TICK;
      const pod = `${cfg.pod.namespace}_${cfg.pod.name}`;
      const { list } = def;
      const type = list.plugins[0]?.network.type ?? '';
      this.log('info', `Adding pod ${pod} to CNI network ${q(list.name)} (type=${type})`, f);
      const rt = this.crioRuntimeConf(id, netns, cfg);
      const add = yield* this.libcni(ctx, reqSeq).addNetworkList(list, rt);
      if (!add.ok)
        return fail(
          'failed to create pod network sandbox',
          `error adding pod ${pod} to CNI network ${q(list.name)}: ${add.error.message}`,
        );
      // GetPodNetworkStatusWithContext: checkLoopback, then per network from the cache.
      const cached = this.loadNetworkFromCache(list.name, id, 'eth0');
      let checkList = list;
      const checkRt = { ...rt };
      if (typeof cached === 'string') {
        this.log('error', `Error loading cached network config: ${cached}`, f);
        this.log('warning', 'Falling back to loading from existing plugins on disk', f);
      } else {
        checkList = cached.list;
        if (cached.args) checkRt.args = cached.args;
        checkRt.capabilityArgs = cached.caps ?? {};
      }
      this.log('info', `Checking pod ${pod} for CNI network ${list.name} (type=${type})`, f);
      // checkNetwork: CHECK only for a list of 0.4.0 or newer (cniversion.GreaterThanOrEqualTo,
      // where an empty version is 0.1.0); below it the cached result is the status.
      const gte = /^(\d+)\.(\d+)/.exec(checkList.cniVersion);
      const checks =
        checkList.cniVersion !== '' && (!gte || Number(gte[1]) > 0 || Number(gte[2]) >= 4);
      if (checks) {
        const chk = yield* this.libcni(ctx, reqSeq).checkNetworkList(checkList, checkRt);
        this.log(
          'info',
          `Checking CNI network ${list.name} (config version=${checkList.cniVersion})`,
          f,
        );
        if (!chk.ok) {
          this.log('error', `Error checking network: ${chk.error.message}`, f);
          return fail(
            'failed to get network status for pod sandbox',
            `error checking pod ${pod} for CNI network ${q(list.name)}: ${chk.error.message}`,
          );
        }
      }
      // networkStart: cnicurrent.GetResult, so a 0.1.0 / 0.2.0 result's ip4 and ip6 count too.
      let current: Result | undefined = add.result;
      if (current) {
        try {
          current = toCurrent(current, this.state.settings.libcni === '1.1' ? LIB_V1_1 : LIB_V1_2);
        } catch (e) {
          return fail('failed to get network JSON for pod sandbox', (e as Error).message);
        }
      }
      const result = current as
        { ips?: Array<{ address: { ip: Parameters<typeof ipString>[0] } }> | null } | undefined;
      return (result?.ips ?? []).map((c) => ipString(c.address.ip));
    } finally {
      this.deps.sched.cancel(timer);
    }
  }

  /**
   * StopPodSandbox (`server/sandbox_stop_linux.go` stopPodSandbox): the network first, while the
   * infra container still runs (networkStop: once; a failure fails the call), then the infra
   * container and the pinned namespaces.
   */
  override *stopPodSandbox(
    id: string,
    cfg: PodSandboxConfig,
    reqSeq?: number,
  ): Gen<CriResult<null>> {
    const f = this.request('StopPodSandbox');
    this.log('info', `Stopping pod sandbox: ${id}`, f, reqSeq);
    yield TICK;
    const sb = tget(this.state.sandboxes, id);
    if (!sb) {
      this.log(
        'warning',
        `Could not get sandbox ${id}, it's probably been stopped already: PodSandbox with ID starting with ${id} not found: ID does not exist`,
        f,
      );
      return { ok: true, value: null };
    }
    const err = yield* this.stopCrioSandbox(sb, sb.config ?? cfg, f, reqSeq);
    if (err !== null) return { ok: false, error: { code: 'Unknown', desc: err } };
    return { ok: true, value: null };
  }

  private *stopCrioSandbox(
    sb: SandboxRec,
    cfg: PodSandboxConfig,
    f: Fields,
    reqSeq: number | undefined,
  ): Gen<string | null> {
    const id = sb.id;
    this.deps.host.send(sandboxActorId(this.node, id), { type: 'STOP' });
    const err = yield* this.networkStop(sb, cfg, f, reqSeq);
    if (err !== null) {
      this.setSandbox(id, { state: 'SANDBOX_NOTREADY' }, 'STOP_FAILED');
      return err;
    }
    if (!sb.pauseRunning && !tget(this.nodeState().kernel.mounts, sb.netns)) {
      this.log('info', `Stopped pod sandbox (already stopped): ${id}`, f);
      this.setSandbox(id, { state: 'SANDBOX_NOTREADY', unknown: false }, 'STOPPED');
      return null;
    }
    yield* this.stopPause(sb, reqSeq);
    yield* this.removeNetns(sb.netns, reqSeq);
    this.log('info', `Stopped pod sandbox: ${id}`, f);
    this.setSandbox(id, { state: 'SANDBOX_NOTREADY', unknown: false }, 'STOPPED');
    return null;
  }

  /**
   * RemovePodSandbox (`server/sandbox_remove.go`): stops what still runs; networkStop does
   * nothing for a network stopped already, so a pod gets one DEL (containerd runs the stop path,
   * DEL included, again).
   */
  override *removePodSandbox(
    id: string,
    cfg?: PodSandboxConfig,
    reqSeq?: number,
  ): Gen<CriResult<null>> {
    const f = this.request('RemovePodSandbox');
    this.log('info', `Removing pod sandbox: ${id}`, f, reqSeq);
    yield TICK;
    const sb = tget(this.state.sandboxes, id);
    if (!sb) {
      this.log(
        'warning',
        `Could not get sandbox ${id}, it's probably been removed already: PodSandbox with ID starting with ${id} not found: ID does not exist`,
        f,
      );
      return { ok: true, value: null };
    }
    const config = sb.config ?? cfg;
    if (!config) throw new Error(`sandbox ${id} has no config`);
    // removePodSandbox stops what still runs; a stopped sandbox's networkStop does nothing.
    const running = sb.pauseRunning || !!tget(this.nodeState().kernel.mounts, sb.netns);
    const err = running ? yield* this.stopCrioSandbox(sb, config, f, reqSeq) : null;
    if (err !== null)
      return { ok: false, error: { code: 'Unknown', desc: `stop pod network: ${err}` } };
    this.change(`crio: sandbox ${id.slice(0, 13)} removed`, (c) => {
      tdel(c.sandboxes, id);
      dropName(c, crioSandboxName(sb.pod), id);
      c.crio!.networkStopped = c.crio!.networkStopped.filter((x) => x !== id);
    });
    this.deps.host.send(sandboxActorId(this.node, id), { type: 'REMOVED' });
    this.log('info', `Removed pod sandbox: ${id}`, f);
    return { ok: true, value: null };
  }
}

/** Go's time.Duration String for whole minutes and seconds ("8m0s"). */
function goDuration(us: number): string {
  const s = Math.round(us / 1e6);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  if (h > 0) return `${h}h${m % 60}m${s % 60}s`;
  return m > 0 ? `${m}m${s % 60}s` : `${s}s`;
}

function uuid4(hex: string): string {
  const h = hex.split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16]!, 16) & 3]!;
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}
