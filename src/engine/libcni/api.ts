/**
 * libcni/api.go: executing a network configuration list for a container (ADD, CHECK, DEL,
 * VERSION), building each plugin's stdin and environment, wrapping errors and keeping the
 * result cache, as libcni v1.1.2 does (v1.2+ behaviour selectable).
 */
import { base64Encode } from '../base64';
import { createFromBytes } from '../cni/create';
import { CniError } from '../cni/errors';
import { custom, field, goAny, goString, map, slice, struct, type GoType } from '../cni/gotypes';
import {
  type CniArgs,
  argsAsEnv,
  execPlugin,
  execPluginWithResult,
  findInPath,
  type Executor,
} from '../cni/invoke';
import { goMarshal, sortKeysDeep } from '../cni/json';
import {
  type Result,
  type ResultLib,
  LIB_V1_1,
  LIB_V1_2,
  getAsVersion,
  resultJSON,
} from '../cni/result';
import { validateContainerId, validateInterfaceName, validateNetworkName } from '../cni/validate';
import { versionGte } from '../cni/version';
import * as vfs from '../fs/vfs';
import { decode } from '../gojson/decode';
import { q } from '../gofmt';
import { type ProgramRegistry, execProgram } from '../os/process';
import { draftSend, draftStart } from '../sched/machines';
import type { Ctx, Scheduler } from '../sched/scheduler';
import { produce } from '../sim/world';
import { libcniCallMachine } from './machines';
import { Sys, type Gen, TICK } from '../os/sys';
import type { Simulation } from '../sim/world';
import { thas } from '../state/table';
import {
  libcniCallEvent,
  libcniReturnEvent,
  type CacheAction,
  type CacheInfo,
  type CacheState,
  type LibcniCallPayload,
  type LibcniOp,
  type OutcomeError,
} from '../trace/trace';
import { type NetworkConfig, type NetworkConfigList, injectConf } from './conf';
import { DEFAULT_CACHE_DIR, resultCachePath, resultsDir } from './cache';

export interface RuntimeConf {
  containerId: string;
  netns: string;
  ifName: string;
  /** CNI_ARGS pairs, in order. */
  args: Array<[string, string]>;
  capabilityArgs: Record<string, unknown>;
  /** RuntimeConf.CacheDir (deprecated; CNIConfig's cache dir wins). */
  cacheDir?: string;
}

export type { CacheAction, CacheInfo, CacheState, OutcomeError };

/**
 * What a libcni call returns: on success the result (ADD) or the plugin's versions (VERSION); on
 * failure the error and, when a plugin failed, its index in the list. `cache` says what happened
 * to the result cache (ADD, CHECK, DEL). Narrow on `ok`; the other side's fields are declared
 * `undefined` so that `out.error?.message` reads on any outcome.
 */
export type LibcniOutcome = LibcniSuccess | LibcniFailure;

export interface LibcniSuccess {
  ok: true;
  result?: Result;
  supportedVersions?: string[];
  cache?: CacheInfo;
  error?: undefined;
  failedPluginIndex?: undefined;
}

export interface LibcniFailure {
  ok: false;
  error: OutcomeError;
  failedPluginIndex?: number;
  cache?: CacheInfo;
  result?: undefined;
  supportedVersions?: undefined;
}

/** An error libcni returns, with what is known about its origin. */
class LibcniError extends Error {
  constructor(
    message: string,
    readonly root: unknown,
    readonly pluginIndex: number | undefined,
  ) {
    super(message);
  }
}

function outcomeError(e: unknown): { error: OutcomeError; failedPluginIndex?: number } {
  if (e instanceof LibcniError) {
    const err: OutcomeError = { message: e.message };
    if (e.pluginIndex !== undefined) {
      const root = e.root;
      if (root instanceof CniError) {
        err.code = root.code;
        err.msg = root.msg;
        if (root.details) err.details = root.details;
      } else {
        err.msg = root instanceof Error ? root.message : String(root);
      }
      return { error: err, failedPluginIndex: e.pluginIndex };
    }
    return { error: err };
  }
  return { error: { message: e instanceof Error ? e.message : String(e) } };
}

export interface CNIConfigOptions {
  sim: Simulation;
  node: string;
  programs: ProgramRegistry;
  /** CNI_PATH directories. */
  path: string[];
  cacheDir?: string;
  /** libcni generation: '1.1' (v1.1.2, recorded) or '1.2' (v1.2+). */
  version?: '1.1' | '1.2';
  /** The runtime's own environment, passed to every plugin. */
  env?: Record<string, string>;
  /** Trace actor of the caller (the runtime), e.g. "containerd". */
  caller?: string;
  /** Run plugin processes as scheduler tasks (they can then block, be killed, outlive us). */
  sched?: Scheduler;
  /** The caller's context: cancelling it kills the running plugin (exec.CommandContext). */
  ctx?: Ctx;
  /** seq of the caller's event that this call belongs to (e.g. a CRI request). */
  parentSeq?: number;
  /** RawExec.Stderr: a successful plugin's stderr is copied here (the runtime's own stderr). */
  onStderr?: (text: string) => void;
}

export const RUNTIME_PATH_ENV = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** []byte in JSON: a base64 string (Go: "illegal base64 data at input byte N"). */
const goBytes = custom<string>({
  kind: 'custom',
  name: '[]uint8',
  zero: () => '',
  nullable: true,
  unmarshalText: (text) => {
    const bad = firstBadBase64Byte(text);
    return bad < 0 ? { value: text } : { error: `illegal base64 data at input byte ${bad}` };
  },
});

function firstBadBase64Byte(s: string): number {
  const A = /[A-Za-z0-9+/]/;
  let i = 0;
  for (; i < s.length && A.test(s[i]!); i++);
  if (i === s.length) return s.length % 4 === 0 ? -1 : s.length - (s.length % 4);
  const rest = s.slice(i);
  if ((rest === '=' || rest === '==') && s.length % 4 === 0) return -1;
  return i;
}

interface CachedInfo {
  kind: string;
  containerId: string;
  ifName: string;
  networkName: string;
  netns: string;
  cniArgs: string[][] | null;
  capabilityArgs: Record<string, unknown> | null;
  result: Record<string, unknown> | null;
}

const CACHED_INFO: GoType = struct('libcni.cachedInfo', [
  field('Kind', goString, 'kind', { prop: 'kind' }),
  field('ContainerID', goString, 'containerId', { prop: 'containerId' }),
  field('Config', goBytes, 'config', { prop: 'config' }),
  field('IfName', goString, 'ifName', { prop: 'ifName' }),
  field('NetworkName', goString, 'networkName', { prop: 'networkName' }),
  field('NetNS', goString, 'netns,omitempty', { prop: 'netns' }),
  field('CniArgs', slice(slice(goString)), 'cniArgs,omitempty', { prop: 'cniArgs' }),
  field('CapabilityArgs', map(goAny), 'capabilityArgs,omitempty', { prop: 'capabilityArgs' }),
  field('RawResult', map(goAny), 'result,omitempty', { prop: 'result' }),
]);

/**
 * libcni's `type CNI interface` (api.go): what a runtime may ask of libcni. CNIConfig implements
 * it (Go's `var _ CNI = &CNIConfig{}`); runtimes hold a CNI, built by the node's wiring, so that
 * they depend on the interface and not on how it is built.
 */
export interface CNI {
  readonly version: '1.1' | '1.2';
  /** AddNetworkList: ADD to every plugin, the result cached. */
  addNetworkList(list: NetworkConfigList, rt: RuntimeConf): Gen<LibcniOutcome>;
  /** CheckNetworkList: CHECK with the cached result as prevResult. */
  checkNetworkList(list: NetworkConfigList, rt: RuntimeConf): Gen<LibcniOutcome>;
  /** DelNetworkList: DEL in reverse order, then the cache entry goes. */
  delNetworkList(list: NetworkConfigList, rt: RuntimeConf): Gen<LibcniOutcome>;
  /** GCNetworkList (v1.2+). */
  gcNetworkList(
    list: NetworkConfigList,
    valid: Array<{ containerID: string; ifname: string }> | null,
  ): Gen<LibcniOutcome>;
  /** GetStatusNetworkList (v1.2+). */
  getStatusNetworkList(list: NetworkConfigList): Gen<LibcniOutcome>;
  /** GetVersionInfo: VERSION of one plugin. */
  getVersionInfo(pluginType: string): Gen<LibcniOutcome>;
}

export class CNIConfig implements CNI {
  readonly sys: Sys;
  readonly lib: ResultLib;
  readonly version: '1.1' | '1.2';
  private seq: number | undefined;

  constructor(readonly o: CNIConfigOptions) {
    this.version = o.version ?? '1.1';
    this.lib = this.version === '1.1' ? LIB_V1_1 : LIB_V1_2;
    this.sys = new Sys({ sim: o.sim, node: o.node, actor: 'libcni', pid: 1 });
  }

  private get caller(): string {
    return this.o.caller ?? 'runtime';
  }

  private cacheDirFor(rt: RuntimeConf): string {
    return this.o.cacheDir || rt.cacheDir || DEFAULT_CACHE_DIR;
  }

  private cachePath(netName: string, rt: RuntimeConf): string {
    if (netName === '' || rt.containerId === '' || rt.ifName === '') {
      throw new Error(
        `cache file path requires network name (${q(netName)}), container ID (${q(rt.containerId)}), and interface name (${q(rt.ifName)})`,
      );
    }
    return resultCachePath(netName, rt.containerId, rt.ifName, this.cacheDirFor(rt));
  }

  private exec: Executor = (path, env, stdin) =>
    execProgram({
      sim: this.o.sim,
      node: this.o.node,
      programs: this.o.programs,
      caller: 'libcni',
      ...(this.seq !== undefined ? { parentSeq: this.seq } : {}),
      path,
      env,
      stdin,
      ...(this.o.sched ? { sched: this.o.sched } : {}),
      ...(this.o.ctx ? { ctx: this.o.ctx } : {}),
    });

  private args(command: string, rt: RuntimeConf): CniArgs {
    return {
      command,
      containerId: rt.containerId,
      netns: rt.netns,
      pluginArgs: rt.args,
      ifName: rt.ifName,
      path: this.o.path.join(':'),
    };
  }

  private env(a: CniArgs): Record<string, string> {
    return argsAsEnv(this.o.env ?? { PATH: RUNTIME_PATH_ENV }, a);
  }

  /** buildOneConfig: the plugin's stdin. */
  buildOneConfig(
    name: string,
    cniVersion: string,
    orig: NetworkConfig,
    prev: Result | null,
    rt: RuntimeConf,
  ): NetworkConfig {
    const inject: Array<[string, unknown]> = [
      ['name', name],
      ['cniVersion', cniVersion],
    ];
    if (prev) inject.push(['prevResult', resultJSON(prev, this.lib)]);
    let conf = injectConf(orig, inject);
    const rc: Record<string, unknown> = {};
    for (const [cap, supported] of Object.entries(orig.network.capabilities ?? {})) {
      if (!supported) continue;
      if (cap in rt.capabilityArgs) rc[cap] = rt.capabilityArgs[cap];
    }
    if (Object.keys(rc).length > 0) conf = injectConf(conf, [['runtimeConfig', sortKeysDeep(rc)]]);
    return conf;
  }

  private *begin(summary: string, payload: LibcniCallPayload): Gen<void> {
    const sim = this.o.sim;
    const seq = sim.events.length;
    const op = payload.op;
    sim.apply(
      libcniCallEvent({
        node: this.o.node,
        source: this.caller,
        target: 'libcni',
        level: 'cni',
        summary,
        payload,
        ...(this.o.parentSeq !== undefined ? { parent: this.o.parentSeq } : {}),
      }),
      (d) => {
        draftStart(d.actors, this.actorId(seq), 'libcniCall', libcniCallMachine, {
          node: this.o.node,
          op,
          network: 'network' in payload ? payload.network : '',
        });
      },
    );
    this.seq = seq;
    yield TICK;
  }

  private actorId(seq: number): string {
    return `libcni/${this.o.node}/${seq}`;
  }

  /** The call moves on to the next plugin of the list (shown at the plugin's exec). */
  private progress(plugin: string): void {
    if (this.seq === undefined) return;
    const id = this.actorId(this.seq);
    const sim = this.o.sim;
    if (!thas(sim.state.actors, id)) return;
    sim.state = produce(sim.state, (d) => {
      draftSend(d.actors, id, libcniCallMachine, { type: 'PLUGIN', plugin });
    });
  }

  private *end(op: LibcniOp, out: LibcniOutcome): Gen<LibcniOutcome> {
    const summary = out.ok ? `${op} ok` : `${op} failed: ${out.error.message}`;
    const callId = this.seq !== undefined ? this.actorId(this.seq) : null;
    this.o.sim.apply(
      libcniReturnEvent({
        node: this.o.node,
        source: 'libcni',
        target: this.caller,
        level: 'cni',
        summary,
        payload: out.ok
          ? {
              op,
              ok: true,
              ...(out.result ? { result: resultJSON(out.result, this.lib) } : {}),
              ...(out.cache ? { cache: out.cache } : {}),
            }
          : {
              op,
              ok: false,
              error: out.error,
              ...(out.failedPluginIndex !== undefined
                ? { failedPluginIndex: out.failedPluginIndex }
                : {}),
              ...(out.cache ? { cache: out.cache } : {}),
            },
        ...(this.seq !== undefined ? { parent: this.seq } : {}),
      }),
      (d) => {
        if (callId) {
          draftSend(d.actors, callId, libcniCallMachine, {
            type: out.ok ? 'DONE' : 'FAILED',
          });
        }
      },
    );
    this.seq = undefined;
    yield TICK;
    return out;
  }

  private pluginDescription(net: NetworkConfig): string {
    let out = `type=${q(net.network.type)}`;
    if (net.network.name !== '') out += ` name=${q(net.network.name)}`;
    return out;
  }

  private *addNetwork(
    name: string,
    cniVersion: string,
    net: NetworkConfig,
    prev: Result | null,
    rt: RuntimeConf,
  ): Gen<Result> {
    const pluginPath = findInPath(this.sys.fs, net.network.type, this.o.path);
    const v =
      validateContainerId(rt.containerId) ??
      validateNetworkName(name) ??
      validateInterfaceName(rt.ifName);
    if (v) throw v;
    const conf = this.buildOneConfig(name, cniVersion, net, prev, rt);
    this.progress(net.network.type);
    return yield* execPluginWithResult(
      this.exec,
      pluginPath,
      conf.bytes,
      this.env(this.args('ADD', rt)),
      this.lib,
      this.o.onStderr,
    );
  }

  private *runNoResult(
    cmd: string,
    name: string,
    cniVersion: string,
    net: NetworkConfig,
    prev: Result | null,
    rt: RuntimeConf,
  ): Gen<void> {
    const pluginPath = findInPath(this.sys.fs, net.network.type, this.o.path);
    const conf = this.buildOneConfig(name, cniVersion, net, prev, rt);
    this.progress(net.network.type);
    yield* execPlugin(
      this.exec,
      pluginPath,
      conf.bytes,
      this.env(this.args(cmd, rt)),
      this.o.onStderr,
    );
  }

  /** cacheAdd: writes <cacheDir>/results/<net>-<id>-<if>. */
  private *cacheAdd(result: Result, config: string, netName: string, rt: RuntimeConf): Gen<string> {
    const cached: Record<string, unknown> = {
      kind: 'cniCacheV1',
      containerId: rt.containerId,
      config: base64Encode(config),
      ifName: rt.ifName,
      networkName: netName,
    };
    if (this.version === '1.2' && rt.netns) cached['netns'] = rt.netns;
    if (rt.args.length > 0) cached['cniArgs'] = rt.args.map(([k, v]) => [k, v]);
    if (Object.keys(rt.capabilityArgs).length > 0)
      cached['capabilityArgs'] = sortKeysDeep(rt.capabilityArgs);
    const raw = sortKeysDeep(resultJSON(result, this.lib));
    if (Object.keys(raw).length > 0) cached['result'] = raw;
    const file = this.cachePath(netName, rt);
    yield* this.sys.mkdirAll(vfs.dirname(file), 0o700);
    yield* this.sys.writeFile(file, goMarshal(cached), { mode: 0o600 });
    return file;
  }

  /** getCachedResult, reporting how the read went. */
  private readCachedResult(
    netName: string,
    cniVersion: string,
    rt: RuntimeConf,
  ): { result: Result | null; state: CacheState; file: string; error?: Error } {
    const file = this.cachePath(netName, rt);
    const e = vfs.stat(this.sys.fs, file);
    if (!e || e.kind !== 'file') return { result: null, state: 'missing', file };
    const data = e.data;
    try {
      const info = decode<{ kind: string; result: Record<string, unknown> | null }>(
        data,
        CACHED_INFO,
      );
      let result: Result;
      if (info.error !== null || info.value.kind !== 'cniCacheV1') {
        result = createFromBytes(data, this.lib);
      } else {
        result = createFromBytes(goMarshal(sortKeysDeep(info.value.result)), this.lib);
      }
      try {
        result = getAsVersion(result, cniVersion, this.lib);
      } catch (err) {
        throw new Error(
          `failed to convert cached result to config version ${q(cniVersion)}: ${(err as Error).message}`,
        );
      }
      return { result, state: 'read', file };
    } catch (err) {
      return { result: null, state: 'unparsable', file, error: err as Error };
    }
  }

  *addNetworkList(list: NetworkConfigList, rt: RuntimeConf): Gen<LibcniOutcome> {
    yield* this.begin(`AddNetworkList ${list.name} (${rt.containerId}, ${rt.ifName})`, {
      op: 'ADD',
      network: list.name,
      rt,
    });
    let result: Result | null = null;
    try {
      for (let i = 0; i < list.plugins.length; i++) {
        const net = list.plugins[i]!;
        try {
          result = yield* this.addNetwork(list.name, list.cniVersion, net, result, rt);
        } catch (e) {
          throw new LibcniError(
            `plugin ${this.pluginDescription(net)} failed (add): ${(e as Error).message}`,
            e,
            i,
          );
        }
      }
      let file: string;
      try {
        file = yield* this.cacheAdd(result!, list.bytes, list.name, rt);
      } catch (e) {
        throw new LibcniError(
          `failed to set network ${q(list.name)} cached result: ${(e as Error).message}`,
          e,
          undefined,
        );
      }
      return yield* this.end('ADD', {
        ok: true,
        result: result!,
        cache: { action: 'written', file },
      });
    } catch (e) {
      return yield* this.end('ADD', { ok: false, ...outcomeError(e), cache: { action: 'none' } });
    }
  }

  *checkNetworkList(list: NetworkConfigList, rt: RuntimeConf): Gen<LibcniOutcome> {
    yield* this.begin(`CheckNetworkList ${list.name} (${rt.containerId}, ${rt.ifName})`, {
      op: 'CHECK',
      network: list.name,
      rt,
    });
    const gte = versionGte(list.cniVersion, '0.4.0');
    if (!gte.ok)
      return yield* this.end('CHECK', {
        ok: false,
        error: { message: gte.error },
        cache: { action: 'none' },
      });
    if (!gte.value) {
      return yield* this.end('CHECK', {
        ok: false,
        error: {
          message: `configuration version ${q(list.cniVersion)} does not support the CHECK command`,
        },
        cache: { action: 'none' },
      });
    }
    if (list.disableCheck) return yield* this.end('CHECK', { ok: true, cache: { action: 'none' } });
    let cached: ReturnType<CNIConfig['readCachedResult']>;
    try {
      cached = this.readCachedResult(list.name, list.cniVersion, rt);
    } catch (e) {
      return yield* this.end('CHECK', {
        ok: false,
        error: {
          message: `failed to get network ${q(list.name)} cached result: ${(e as Error).message}`,
        },
        cache: { action: 'none' },
      });
    }
    const cache: CacheInfo = { action: 'read', state: cached.state, file: cached.file };
    if (cached.error) {
      return yield* this.end('CHECK', {
        ok: false,
        error: {
          message: `failed to get network ${q(list.name)} cached result: ${cached.error.message}`,
        },
        cache,
      });
    }
    for (let i = 0; i < list.plugins.length; i++) {
      try {
        yield* this.runNoResult(
          'CHECK',
          list.name,
          list.cniVersion,
          list.plugins[i]!,
          cached.result,
          rt,
        );
      } catch (e) {
        return yield* this.end('CHECK', {
          ok: false,
          ...outcomeError(new LibcniError((e as Error).message, e, i)),
          cache,
        });
      }
    }
    return yield* this.end('CHECK', { ok: true, cache });
  }

  *delNetworkList(list: NetworkConfigList, rt: RuntimeConf): Gen<LibcniOutcome> {
    yield* this.begin(`DelNetworkList ${list.name} (${rt.containerId}, ${rt.ifName})`, {
      op: 'DEL',
      network: list.name,
      rt,
    });
    const gte = versionGte(list.cniVersion, '0.4.0');
    if (!gte.ok)
      return yield* this.end('DEL', {
        ok: false,
        error: { message: gte.error },
        cache: { action: 'none' },
      });
    let prev: Result | null = null;
    let cache: CacheInfo;
    let file: string | undefined;
    try {
      file = this.cachePath(list.name, rt);
    } catch {
      file = undefined;
    }
    if (gte.value) {
      let cached: ReturnType<CNIConfig['readCachedResult']>;
      try {
        cached = this.readCachedResult(list.name, list.cniVersion, rt);
      } catch (e) {
        return yield* this.end('DEL', {
          ok: false,
          error: {
            message: `failed to get network ${q(list.name)} cached result: ${(e as Error).message}`,
          },
          cache: { action: 'none' },
        });
      }
      cache = { action: 'read', state: cached.state, file: cached.file };
      if (cached.error) {
        if (this.version === '1.1') {
          return yield* this.end('DEL', {
            ok: false,
            error: {
              message: `failed to get network ${q(list.name)} cached result: ${cached.error.message}`,
            },
            cache,
          });
        }
        // libcni v1.2+: an unreadable cache is discarded and DEL goes on without prevResult.
        yield* this.sys.remove(cached.file);
      }
      prev = cached.result;
    } else {
      cache = { action: 'read', state: 'not-read', ...(file ? { file } : {}) };
    }
    for (let i = list.plugins.length - 1; i >= 0; i--) {
      const net = list.plugins[i]!;
      try {
        yield* this.runNoResult('DEL', list.name, list.cniVersion, net, prev, rt);
      } catch (e) {
        const err = new LibcniError(
          `plugin ${this.pluginDescription(net)} failed (delete): ${(e as Error).message}`,
          e,
          i,
        );
        return yield* this.end('DEL', {
          ok: false,
          ...outcomeError(err),
          cache: { ...cache, action: 'kept' },
        });
      }
    }
    // cacheDel: removal errors are ignored.
    if (file && vfs.stat(this.sys.fs, file)) {
      yield* this.sys.remove(file);
      cache = { ...cache, action: 'removed' };
    } else {
      cache = { ...cache, action: 'remove-ignored-missing' };
    }
    return yield* this.end('DEL', { ok: true, cache });
  }

  /**
   * GCNetworkList (libcni v1.2+): a full DEL for every cached attachment of the network that is
   * not in `valid` (all of them when `valid` is null), then, for a 1.1.0 list, GC to every
   * plugin with the valid attachments. Errors are collected, not fatal; a reservation without a
   * cache file is invisible to the first part.
   */
  *gcNetworkList(
    list: NetworkConfigList,
    valid: Array<{ containerID: string; ifname: string }> | null,
  ): Gen<LibcniOutcome> {
    yield* this.begin(`GCNetworkList ${list.name}`, { op: 'GC', network: list.name, valid });
    if (this.version !== '1.2') {
      return yield* this.end('GC', {
        ok: false,
        error: { message: 'GC needs libcni v1.2 or newer' },
      });
    }
    if (list.disableGC) return yield* this.end('GC', { ok: true });
    const errors: string[] = [];
    const dir = resultsDir(
      this.cacheDirFor({ containerId: '', netns: '', ifName: '', args: [], capabilityArgs: {} }),
    );
    let files: string[];
    try {
      files = vfs.readDir(this.sys.fs, dir);
    } catch (e) {
      // GetCachedAttachments: no results dir is no attachments; any other error makes
      // GCNetworkList return nil at once, without a GC to the plugins.
      if (!(e instanceof vfs.FsError && e.errno === 'ENOENT'))
        return yield* this.end('GC', { ok: true });
      files = [];
    }
    const seq = this.seq;
    for (const f of files) {
      const text = vfs.stat(this.sys.fs, vfs.joinPath(dir, f));
      if (!text || text.kind !== 'file') continue;
      const info = decode<CachedInfo>(text.data, CACHED_INFO);
      if (
        info.error !== null ||
        info.value.kind !== 'cniCacheV1' ||
        info.value.ifName === '' ||
        info.value.networkName === '' ||
        info.value.networkName !== list.name
      )
        continue;
      const c = info.value;
      if (valid && valid.some((v) => v.containerID === c.containerId && v.ifname === c.ifName))
        continue;
      const rt: RuntimeConf = {
        containerId: c.containerId,
        netns: c.netns,
        ifName: c.ifName,
        args: (c.cniArgs ?? []).map((a) => [a[0] ?? '', a[1] ?? ''] as [string, string]),
        capabilityArgs: c.capabilityArgs ?? {},
      };
      const out = yield* this.delNetworkList(list, rt);
      this.seq = seq;
      if (!out.ok)
        errors.push(
          `failed to delete stale attachment ${c.containerId} ${c.ifName}: ${out.error.message}`,
        );
    }
    const gte = versionGte(list.cniVersion, '1.1.0');
    if (gte.ok && gte.value) {
      // The valid attachments go only with GCArgs (args != nil); since v1.2.1 (PR #1103) also
      // as "cni.dev/attachments".
      const inject: Array<[string, unknown]> = [
        ['name', list.name],
        ['cniVersion', list.cniVersion],
      ];
      if (valid !== null)
        inject.push(['cni.dev/valid-attachments', valid], ['cni.dev/attachments', valid]);
      for (const net of list.plugins) {
        try {
          const path = findInPath(this.sys.fs, net.network.type, this.o.path);
          const conf = injectConf(net, inject);
          const env = this.env({
            command: 'GC',
            containerId: '',
            netns: '',
            pluginArgs: [],
            ifName: '',
            path: this.o.path.join(':'),
          });
          yield* execPlugin(this.exec, path, conf.bytes, env);
        } catch (e) {
          errors.push(`failed to GC plugin ${net.network.type}: ${(e as Error).message}`);
        }
      }
    }
    if (errors.length)
      return yield* this.end('GC', { ok: false, error: { message: errors.join('\n') } });
    return yield* this.end('GC', { ok: true });
  }

  /** GetStatusNetworkList (libcni v1.2+): STATUS to every plugin of a 1.1.0 list; the first error, unwrapped. */
  *getStatusNetworkList(list: NetworkConfigList): Gen<LibcniOutcome> {
    yield* this.begin(`GetStatusNetworkList ${list.name}`, { op: 'STATUS', network: list.name });
    if (this.version !== '1.2') {
      return yield* this.end('STATUS', {
        ok: false,
        error: { message: 'STATUS needs libcni v1.2 or newer' },
      });
    }
    const gte = versionGte(list.cniVersion, '1.1.0');
    if (!gte.ok || !gte.value) return yield* this.end('STATUS', { ok: true });
    for (let i = 0; i < list.plugins.length; i++) {
      const net = list.plugins[i]!;
      try {
        const path = findInPath(this.sys.fs, net.network.type, this.o.path);
        const conf = injectConf(net, [
          ['name', list.name],
          ['cniVersion', list.cniVersion],
        ]);
        const env = this.env({
          command: 'STATUS',
          containerId: '',
          netns: '',
          pluginArgs: [],
          ifName: '',
          path: this.o.path.join(':'),
        });
        yield* execPlugin(this.exec, path, conf.bytes, env);
      } catch (e) {
        return yield* this.end('STATUS', {
          ok: false,
          ...outcomeError(new LibcniError((e as Error).message, e, i)),
        });
      }
    }
    return yield* this.end('STATUS', { ok: true });
  }

  /** GetVersionInfo: runs the plugin with CNI_COMMAND=VERSION. */
  *getVersionInfo(pluginType: string): Gen<LibcniOutcome> {
    yield* this.begin(`GetVersionInfo ${pluginType}`, { op: 'VERSION', plugin: pluginType });
    try {
      const path = findInPath(this.sys.fs, pluginType, this.o.path);
      const stdin = `{"cniVersion":${q(this.lib.current)}}`;
      const env = this.env({
        command: 'VERSION',
        containerId: '',
        netns: 'dummy',
        pluginArgs: [],
        ifName: 'dummy',
        path: 'dummy',
      });
      let out: string;
      try {
        out = yield* execPlugin(this.exec, path, stdin, env);
      } catch (e) {
        if ((e as Error).message === 'unknown CNI_COMMAND: VERSION') {
          return yield* this.end('VERSION', { ok: true, supportedVersions: ['0.1.0'] });
        }
        throw e;
      }
      return yield* this.end('VERSION', { ok: true, supportedVersions: decodePluginInfo(out) });
    } catch (e) {
      return yield* this.end('VERSION', { ok: false, error: { message: (e as Error).message } });
    }
  }
}

const PLUGIN_INFO = struct('version.pluginInfo', [
  field('CNIVersion_', goString, 'cniVersion', { prop: 'cniVersion' }),
  field('SupportedVersions_', slice(goString), 'supportedVersions,omitempty', {
    prop: 'supportedVersions',
  }),
]);

/** version.PluginDecoder.Decode */
export function decodePluginInfo(text: string): string[] {
  const r = decode<{ cniVersion: string; supportedVersions: string[] | null }>(text, PLUGIN_INFO);
  if (r.error !== null) throw new Error(`decoding version info: ${r.error}`);
  if (r.value.cniVersion === '') throw new Error('decoding version info: missing field cniVersion');
  if (!r.value.supportedVersions || r.value.supportedVersions.length === 0) {
    if (r.value.cniVersion === '0.2.0') return ['0.1.0', '0.2.0'];
    throw new Error('decoding version info: missing field supportedVersions');
  }
  return r.value.supportedVersions;
}
