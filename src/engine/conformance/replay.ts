/**
 * Replays a conformance fixture (recorded from the real plugins) against the engine and returns
 * the engine's own recording of the same steps in the fixture's format, normalised the same
 * way, plus the differences.
 */
import { produce } from '../sim/world';
import { goMarshal, sortKeysDeep } from '../cni/json';
import { resultJSON } from '../cni/result';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import { ping } from '../dataplane/net';
import { CNIConfig, type LibcniOutcome, type RuntimeConf, RUNTIME_PATH_ENV } from '../libcni/api';
import { confListFromBytes, type NetworkConfigList } from '../libcni/conf';
import { addNode, netnsAdd, settle } from '../node/setup';
import { execProgram, type ProgramRegistry } from '../os/process';
import { runToEnd } from '../os/sys';
import { PROGRAMS, REFERENCE_PACKAGE } from '../plugins/registry';
import '../plugins/late';
import '../runtime/crio-late';
import { Shell } from '../shell';
import { Simulation, newWorld } from '../sim/world';
import { noteEvent, type TraceEvent } from '../trace/trace';
import { Normalizer } from './normalize';
import { type SnapshotShape, snapshotNode } from './snapshot';
import { Renaming, diffValues, type Difference } from './diff';
import { tget } from '../state/table';

type Json = unknown;
type Obj = Record<string, Json>;

export interface Fixture {
  name: string;
  recordedWith?: Record<string, string>;
  description?: string;
  conflists: Record<string, Json>;
  conflistFiles: Record<string, string>;
  pods: string[];
  /** Plugins recorded from binaries outside the reference package (flannel), installed too. */
  extraPlugins?: string[];
  steps: Obj[];
  notes?: string[];
}

/** Where the simulated node keeps what the recorder kept in temp dirs. */
export const SIM_PATHS = {
  cniPath: '/opt/cni/bin',
  dataDir: '/tmp/cnisim/networks',
  cacheDir: '/var/lib/cni',
  tuningDir: '/tmp/cnisim/tuning',
  confDir: '/etc/cni/net.d',
  tmp: '/tmp/cnisim/tmp',
};

const PLACEHOLDERS: Array<[string, string]> = [
  [SIM_PATHS.cniPath, '<cniPath>'],
  [SIM_PATHS.dataDir, '<dataDir>'],
  [SIM_PATHS.cacheDir, '<cacheDir>'],
  [SIM_PATHS.tuningDir, '<tuningDir>'],
  [SIM_PATHS.confDir, '<confDir>'],
  [SIM_PATHS.tmp, '<tmp>'],
];

function concretize(s: string): string {
  let out = s;
  for (const [real, ph] of PLACEHOLDERS) out = out.split(ph).join(real);
  return out;
}

function mapStrings(v: Json, f: (s: string) => string): Json {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)]));
  return v;
}

function podPath(pod: string): string {
  return `/var/run/netns/${pod}`;
}

function parsed(text: string): { value: Json; raw: string | null } {
  if (text === '') return { value: null, raw: '' };
  try {
    return { value: JSON.parse(text), raw: null };
  } catch {
    return { value: null, raw: text };
  }
}

/** The invocations (with delegated children) made under trace event `parentSeq`. */
function invocationsUnder(events: readonly TraceEvent[], parentSeq: number, top: boolean): Obj[] {
  const out: Obj[] = [];
  for (const ev of events) {
    if (ev.kind !== 'exec' || ev.parent !== parentSeq) continue;
    const p = ev.payload;
    const exit = events.find(
      (x): x is TraceEvent<'exit'> => x.kind === 'exit' && x.parent === ev.seq,
    );
    const ep = exit?.payload ?? { stdout: '', stderr: '', exitCode: -1 };
    const stdin = parsed(p.stdin);
    const stdout = parsed(ep.stdout);
    const inv: Obj = {
      plugin: vfs.basename(p.path),
      path: p.path,
      command: p.env['CNI_COMMAND'] ?? null,
      env: top
        ? p.env
        : Object.fromEntries(
            Object.entries(p.env).filter(([k]) => k === 'PATH' || k.startsWith('CNI_')),
          ),
      stdin: stdin.value,
      stdout: stdout.value,
      stderr: ep.stderr,
      exitCode: ep.exitCode,
    };
    if (stdin.raw !== null && p.stdin !== '') inv['stdinRaw'] = stdin.raw;
    if (stdin.raw !== null && p.stdin === '') inv['stdinRaw'] = '';
    if (stdout.raw !== null) inv['stdoutRaw'] = stdout.raw;
    const children = invocationsUnder(events, ev.seq, false);
    if (top) inv['delegated'] = children;
    else if (children.length) inv['delegated'] = children;
    out.push(inv);
  }
  return out;
}

function outcomeJson(o: LibcniOutcome, lib: CNIConfig['lib']): Obj {
  const out: Obj = { derived: 'from libcni source', ok: o.ok };
  if (o.ok) {
    if (o.result) out['result'] = sortKeysDeep(resultJSON(o.result, lib));
    if (o.supportedVersions) out['supportedVersions'] = o.supportedVersions;
  } else {
    out['error'] = { ...o.error };
    if (o.failedPluginIndex !== undefined) out['failedPluginIndex'] = o.failedPluginIndex;
  }
  return out;
}

export interface ReplayOptions {
  programs?: ProgramRegistry;
  libcniVersion?: '1.1' | '1.2';
  seed?: number;
}

export interface ReplayReport {
  name: string;
  /** The engine's recording, normalised. */
  steps: Obj[];
  differences: Difference[];
}

export function replayFixture(fx: Fixture, opts: ReplayOptions = {}): ReplayReport {
  const programs = opts.programs ?? PROGRAMS;
  let world = newWorld(opts.seed ?? 1);
  world = addNode(world, {
    name: 'node',
    plugins: [...REFERENCE_PACKAGE, ...(fx.extraPlugins ?? [])],
    pluginDir: SIM_PATHS.cniPath,
    loUp: true,
  });
  const sim = new Simulation(world);
  sim.state = produce(sim.state, (d) => {
    let fs = d.nodes['node']!.fs as vfs.FsState;
    for (const dir of [SIM_PATHS.dataDir, SIM_PATHS.tuningDir, SIM_PATHS.tmp])
      fs = vfs.mkdirAll(fs, dir);
    d.nodes['node']!.fs = fs as never;
  });
  for (const pod of fx.pods) netnsAdd(sim, 'node', podPath(pod), 'recorder');

  const shape: SnapshotShape = {
    namespaces: { node: null, ...Object.fromEntries(fx.pods.map((p) => [p, podPath(p)])) },
    sysctls: {},
    tc: {},
    dataDir: SIM_PATHS.dataDir,
    cacheDir: SIM_PATHS.cacheDir,
    tuningDir: SIM_PATHS.tuningDir,
  };
  const libcni = new CNIConfig({
    sim,
    node: 'node',
    programs,
    path: [SIM_PATHS.cniPath],
    cacheDir: SIM_PATHS.cacheDir,
    version: opts.libcniVersion ?? '1.1',
    env: { PATH: RUNTIME_PATH_ENV },
    caller: 'recorder',
  });

  const norm = new Normalizer({ paths: PLACEHOLDERS });
  const ren = new Renaming();
  let synthetic = 0;
  /** A recording's input (command, config, stdin) with real values for its placeholders. */
  const input = (text: string): string =>
    concretize(text).replace(/<(mac|veth):(\d+)>/g, (ph, kind: 'mac' | 'veth') => {
      let ours = ren.fwd.get(ph);
      if (ours === undefined) {
        // First seen in an input: a value the recorder chose (e.g. a low MAC to pin an order).
        synthetic++;
        const real =
          kind === 'mac'
            ? `02:00:00:00:${(synthetic >> 8).toString(16).padStart(2, '0')}:${(synthetic & 255).toString(16).padStart(2, '0')}`
            : `veth${synthetic.toString(16).padStart(8, '0')}`;
        ours = norm.adopt(kind, real);
        ren.bind(ph, ours);
      }
      return norm.realOf(ours) ?? ph;
    });
  const inputDeep = (v: Json): Json => mapStrings(v, input);
  // The original recorder snapshots as soon as operstate agrees with the carrier flags (a bridge
  // can still show UNKNOWN); cnisim's own recorder (tools/record) waits until the kernel settled.
  const fullSettle = /real libcni/.test(fx.recordedWith?.['libcniEmulation'] ?? '');
  const ours: Obj[] = [];
  const differences: Difference[] = [];
  // The recording keeps placeholders for MACs, not their values, but a bridge's MAC is its lowest
  // port's: each MAC drawn is put above every one so far, unless the recorded bridge takes the
  // MAC of a port the step adds, which is then put below them all.
  let low = 0x7fffffffffn;
  let high = 0x8000000000n;
  let lowest = false;
  sim.macHook = () => {
    const n = lowest ? low-- : high++;
    return `02:${n
      .toString(16)
      .padStart(10, '0')
      .replace(/(..)(?!$)/g, '$1:')}`;
  };
  let previous: Obj | undefined;
  for (const expected of fx.steps) {
    lowest = takesNewPortMac(previous, expected['state'] as Obj | undefined);
    previous = (expected['state'] as Obj | undefined) ?? previous;
    const step: Obj = { ...expected };
    const type = expected['type'];
    // The recorder waited for the kernel to settle between steps.
    settle(sim);
    const before = sim.events.length;
    if (type === 'libcni') {
      const key = expected['conflist'] as string;
      const text = input(fx.conflistFiles[key] ?? '');
      const rt: RuntimeConf = {
        containerId: (expected['containerId'] as string) ?? '',
        netns: (expected['netns'] as string) ?? '',
        ifName: (expected['ifName'] as string) ?? '',
        args: ((expected['cniArgs'] as Array<[string, string]>) ?? []).map(([k, v]) => [
          k,
          input(v),
        ]),
        capabilityArgs: (inputDeep(expected['capabilityArgs'] ?? {}) as Obj) ?? {},
      };
      const op = expected['op'];
      let outcome: LibcniOutcome;
      if (op === 'VERSION') {
        outcome = runToEnd(libcni.getVersionInfo(expected['plugin'] as string));
      } else {
        let list: NetworkConfigList | null = null;
        let loadError = '';
        try {
          list = confListFromBytes(text);
        } catch (e) {
          loadError = (e as Error).message;
        }
        outcome = list
          ? runToEnd(
              op === 'ADD'
                ? libcni.addNetworkList(list, rt)
                : op === 'DEL'
                  ? libcni.delNetworkList(list, rt)
                  : libcni.checkNetworkList(list, rt),
            )
          : // ConfListFromFile failed: libcni returns the error, no plugin runs.
            { ok: false, error: { message: loadError }, cache: { action: 'none' } };
      }
      const callSeq = sim.events.slice(before).find((e) => e.kind === 'libcni.call')?.seq ?? -1;
      step['invocations'] = invocationsUnder(sim.events.slice(before), callSeq, true);
      step['outcome'] = outcomeJson(outcome, libcni.lib);
      if (op !== 'VERSION') {
        const c = outcome.cache ?? { action: 'none' };
        step['cache'] = {
          derived: 'from libcni source',
          action: c.action,
          ...(c.state ? { state: c.state } : {}),
          ...(c.file ? { file: c.file } : {}),
        };
      }
    } else if (type === 'invoke') {
      const inv = expected['invocation'] as Obj;
      const env = inputDeep(inv['env']) as Record<string, string>;
      const stdinText =
        typeof inv['stdinRaw'] === 'string'
          ? input(inv['stdinRaw'] as string)
          : goMarshal(sortKeysDeep(inputDeep(inv['stdin'])));
      const seqBefore = sim.events.length;
      const note = sim.note(
        noteEvent({
          node: 'node',
          source: 'recorder',
          target: 'node',
          level: 'cni',
          summary: 'direct invocation',
          payload: {},
        }),
      );
      runToEnd(
        execProgram({
          sim,
          node: 'node',
          programs,
          caller: 'recorder',
          parentSeq: note.seq,
          path: concretize(inv['path'] as string),
          env,
          stdin: stdinText,
        }),
      );
      const invs = invocationsUnder(sim.events.slice(seqBefore), note.seq, true);
      step['invocation'] = invs[0] ?? null;
    } else if (type === 'env') {
      const r = runEnvCommand(sim, { ...expected, command: input(expected['command'] as string) });
      step['exitCode'] = r.exitCode;
      step['stderr'] = r.stderr;
    } else if (type === 'probe') {
      const from = expected['from'] as string;
      const k = sim.node('node').kernel;
      const nsId = tget(k.mounts, podPath(from));
      const r = nsId ? ping(k, nsId, expected['to'] as string) : { ok: false, exitCode: 1 };
      step['success'] = r.ok;
      step['exitCode'] = r.exitCode;
    }
    // The snapshot: sysctl keys as the scenario asks (taken from the fixture's own state).
    const expState = expected['state'] as Obj | undefined;
    const nss = (expState?.['namespaces'] ?? {}) as Record<string, Obj>;
    for (const [name, st] of Object.entries(nss)) {
      const keys = Object.keys((st['sysctls'] as Obj | undefined) ?? {}).filter(
        (x) =>
          name !== 'node' || (x !== 'net.ipv4.ip_forward' && x !== 'net.ipv6.conf.all.forwarding'),
      );
      if (keys.length) shape.sysctls[name] = keys;
      // tc state, where the scenario recorded it.
      if ('tc' in st) shape.tc[name] = true;
    }
    settleLinkwatchForSnapshot(sim, fullSettle);
    step['state'] = snapshotNode(shape, sim.node('node'));
    const n = norm.step(step);
    ours.push(n);
    differences.push(
      ...diffValues(
        expected,
        n,
        `step ${expected['index']} (${type}${expected['op'] ? ` ${expected['op']}` : ''})`,
        '',
        ren,
      ),
    );
  }
  return { name: fx.name, steps: ours, differences };
}

/**
 * The recorder waited until every link's operstate agreed with its carrier before its snapshot;
 * a deferred event that leaves operstate UNKNOWN is no disagreement, so it can still be pending.
 */
function settleLinkwatchForSnapshot(sim: Simulation, full: boolean): void {
  sim.state = produce(sim.state, (d) => {
    for (const n of Object.values(d.nodes)) {
      if (full) K.settleKernel(n.kernel as KernelState);
      else K.settleInconsistent(n.kernel as KernelState);
    }
  });
}

/**
 * An `env` step: the recorder ran a shell command on the node (`ip netns del`, `ip addr del`,
 * `printf ... > cache`, `sleep 2`, ...). The engine's shell runs the same line against the
 * model; `node` is the recorder's name for the node's own namespace.
 */
function runEnvCommand(sim: Simulation, step: Obj): { exitCode: number; stderr: string } {
  const r = new Shell(sim, 'node', { actor: 'recorder', hostNetnsAliases: ['node'] }).run(
    concretize(step['command'] as string),
  );
  return { exitCode: r.exitCode, stderr: r.stderr };
}

/** In the node's state `after` a step, a bridge has the MAC of a port that `before` lacked. */
function takesNewPortMac(before: Obj | undefined, after: Obj | undefined): boolean {
  const linksOf = (state: Obj | undefined): Obj[] =>
    (((state?.['namespaces'] as Obj | undefined)?.['node'] as Obj | undefined)?.['links'] as
      Obj[] | undefined) ?? [];
  const old = new Set(linksOf(before).map((l) => l['name']));
  const now = linksOf(after);
  return now.some((br) =>
    now.some((p) => p['master'] === br['name'] && !old.has(p['name']) && p['mac'] === br['mac']),
  );
}
