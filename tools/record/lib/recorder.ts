/**
 * Records one scenario: sets up the sandbox, runs every step against the real plugins (through
 * the real libcni for `libcni` steps), snapshots the state after each step, normalises and
 * returns the fixture document.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearLogs, collectInvocations } from './invocations';
import { cacheOf, driverRequest, OBSERVED, outcomeOf, runDriver } from './libcni';
import { Normaliser } from './normalise';
import { DEFAULT_PATH, Sandbox } from './sandbox';
import { snapshot, type SnapshotOptions } from './snapshot';
import type { EnvStepSpec, InvokeStepSpec, ProbeStepSpec, Scenario, StepSpec } from './spec';
import {
  isObject,
  run,
  runOk,
  sleepMs,
  sortKeys,
  tryParse,
  type Json,
  type JsonObject,
} from './util';

export const LIBCNI_NOTE = 'none: real libcni v1.1.2 (tools/record/driver, Go)';

/** What an extra plugin binary is (how tools/record/traffic/build-flannel.sh built it). */
function pluginVersion(name: string): string {
  if (name === 'flannel') {
    return 'flannel-io/cni-plugin v1.1.2 (cni v1.1.2, Go 1.19; tools/record/traffic/build-flannel.sh)';
  }
  return 'unknown build';
}

export function recordedWith(): JsonObject {
  const pkg = run(['dpkg-query', '-W', '-f', '${Version}', 'containernetworking-plugins']).stdout;
  const ipt = run(['iptables', '--version']).stdout;
  return {
    plugins: `containernetworking-plugins ${pkg.trim()}`,
    pluginsDir: '/usr/lib/cni',
    libcniEmulation: LIBCNI_NOTE,
    kernel: runOk(['uname', '-r']).trim(),
    iptables: ipt.includes('nf_tables') ? 'iptables-nft' : 'iptables-legacy',
  };
}

/** Rewrites a logical env command (logical netns names, placeholders) to the real one. */
export function translateCommand(sb: Sandbox, cmd: string): string {
  let out = sb.denormalise(cmd);
  const p = (n: string) => (n.startsWith(sb.prefix) ? n : sb.ns(n));
  out = out.replace(/\bip -n (\S+)/g, (_m, n: string) => `ip -n ${p(n)}`);
  out = out.replace(
    /\bip netns (del|delete|add|exec|pids) (\S+)/g,
    (_m, v: string, n: string) => `ip netns ${v} ${p(n)}`,
  );
  out = out.replace(
    /\blink set (\S+) netns (\S+)/g,
    (_m, dev: string, n: string) => `link set ${dev} netns ${p(n)}`,
  );
  return out;
}

function stepOptions(sc: Scenario): SnapshotOptions {
  const namespaces = ['node', ...sc.pods];
  const tc = new Set<string>(sc.tc === true ? namespaces : Array.isArray(sc.tc) ? sc.tc : []);
  return { namespaces, sysctls: sc.sysctls ?? {}, tc };
}

/** node veths whose peer lives in `ns` (by ifindex), from a live look-up. */
function vethsPeeredInto(sb: Sandbox, ns: string): number[] {
  const r = run(['ip', '-n', sb.ns('node'), '-j', 'link', 'show']);
  const ids = new Map<number, string>();
  const listIds = tryParse(run(['ip', '-n', sb.ns('node'), '-j', 'netns', 'list-id']).stdout);
  if (Array.isArray(listIds)) {
    for (const e of listIds) {
      if (isObject(e) && typeof e.nsid === 'number' && typeof e.name === 'string') {
        ids.set(e.nsid, e.name);
      }
    }
  }
  const links = tryParse(r.stdout);
  const out: number[] = [];
  if (Array.isArray(links)) {
    for (const l of links) {
      if (isObject(l) && typeof l.link_netnsid === 'number' && typeof l.ifindex === 'number') {
        if (ids.get(l.link_netnsid) === sb.ns(ns)) out.push(l.ifindex);
      }
    }
  }
  return out;
}

function runEnvStep(sb: Sandbox, st: EnvStepSpec): JsonObject {
  const real = translateCommand(sb, st.command);
  let waitFor: number[] = [];
  const del = /\bip netns (?:del|delete) (\S+)/.exec(st.command);
  if (st.action === 'deleteNetns' && del?.[1]) waitFor = vethsPeeredInto(sb, del[1]);
  const r = run(sb.inNode(['bash', '--norc', '--noprofile', '-c', real], { PATH: DEFAULT_PATH }));
  if (waitFor.length > 0) {
    // the kernel destroys the netns (and so the veth peers) asynchronously
    const deadline = Date.now() + 15_000;
    for (;;) {
      const links = tryParse(run(['ip', '-n', sb.ns('node'), '-j', 'link', 'show']).stdout);
      const present = Array.isArray(links)
        ? links.filter((l) => isObject(l) && waitFor.includes(l.ifindex as number)).length
        : 0;
      if (present === 0 || Date.now() > deadline) break;
      sleepMs(100);
    }
  }
  return {
    type: 'env',
    action: st.action,
    description: st.description,
    command: st.command,
    exitCode: r.exitCode,
    stderr: r.stderr,
  };
}

function runProbe(sb: Sandbox, st: ProbeStepSpec): JsonObject {
  const args = ['ping', '-c', '1', '-W', '1', st.to];
  const r = run(['ip', 'netns', 'exec', sb.ns(st.from), ...args]);
  return {
    type: 'probe',
    probe: 'ping',
    from: st.from,
    to: st.to,
    command: `ip netns exec ${st.from} ${args.join(' ')}`,
    exitCode: r.exitCode,
    success: r.exitCode === 0,
  };
}

function runInvoke(sb: Sandbox, st: InvokeStepSpec, steps: JsonObject[]): JsonObject {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(st.env)) env[k] = sb.denormalise(v);
  let stdin = st.stdin;
  if (st.prevResultFromStep !== undefined) {
    const from = steps[st.prevResultFromStep - 1];
    const result = isObject(from?.outcome) ? from.outcome.result : undefined;
    if (!isObject(stdin) || result === undefined) {
      throw new Error(`prevResultFromStep ${st.prevResultFromStep}: no ADD result there`);
    }
    stdin = { ...stdin, prevResult: result };
  }
  const input =
    st.stdinRaw !== undefined
      ? sb.denormalise(st.stdinRaw)
      : sb.denormalise(JSON.stringify(sortKeys(stdin as Json)));
  clearLogs(sb);
  run(sb.inNode([join(sb.tapDir, st.plugin)], env), { input });
  const [invocation] = collectInvocations(sb, [join(sb.cniPath, st.plugin)]);
  const out: JsonObject = { type: 'invoke', kind: 'invoke', invocation: invocation ?? null };
  if (st.note !== undefined) out.note = st.note;
  return out;
}

function runLibcni(sb: Sandbox, sc: Scenario, st: StepSpec & { type: 'libcni' }): JsonObject {
  clearLogs(sb);
  const resp = runDriver(sb, driverRequest(sb, st));
  const invocations = collectInvocations(sb, resp.execs);
  const out: JsonObject = { type: 'libcni', kind: 'libcni', op: st.op };
  if (st.op === 'VERSION') {
    out.plugin = st.plugin;
  } else {
    const parsed = tryParse(sc.conflists[st.conflist] ?? '');
    out.conflist = st.conflist;
    if (!resp.loadError) {
      out.network = resp.listName;
      out.cniVersion = resp.listVersion;
    } else if (isObject(parsed)) {
      if (typeof parsed.name === 'string') out.network = parsed.name;
      if (typeof parsed.cniVersion === 'string') out.cniVersion = parsed.cniVersion;
    }
    out.containerId = st.containerId;
    if (st.netns !== undefined) {
      out.netns = st.netns;
      const m = /^\/var\/run\/netns\/([^/]+)$/.exec(st.netns);
      if (m?.[1]) out.netnsName = m[1];
    } else if (st.netnsName !== undefined) {
      out.netns = `/var/run/netns/${st.netnsName}`;
      out.netnsName = st.netnsName;
    }
    out.ifName = st.ifName;
    if (st.cniArgs !== undefined) out.cniArgs = st.cniArgs;
    if (st.capabilityArgs !== undefined) out.capabilityArgs = st.capabilityArgs;
    const cache = cacheOf(st.op, resp);
    if (cache) out.cache = cache;
  }
  if (st.note !== undefined) out.note = st.note;
  out.invocations = invocations;
  out.outcome = outcomeOf(st.op, resp);
  return out;
}

/**
 * A step spec may refer to random values recorded by earlier steps with their placeholders
 * (`<mac:N>`, `<veth:N>`, `<ll6:N>`), e.g. a CHECK sent directly with the ADD result as
 * prevResult. Numbering is by first appearance, so normalising the document recorded so far
 * gives exactly the numbers the final document will use.
 */
function resolvePlaceholders<T extends StepSpec>(spec: T, doc: JsonObject, sb: Sandbox): T {
  const text = JSON.stringify(spec);
  if (!/<(?:mac|veth|ll6):\d+>/.test(text)) return spec;
  const n = new Normaliser(sb.pathMap(), sb.prefix);
  n.document(doc);
  const rev = n.reverse();
  const resolved = text.replace(/<(?:mac|veth|ll6):\d+>/g, (ph) => {
    const real = rev.get(ph);
    if (real === undefined) throw new Error(`${ph} does not refer to a value recorded so far`);
    return real;
  });
  return JSON.parse(resolved) as T;
}

export interface RecordOptions {
  driverBin: string;
  /** binaries of plugins outside /usr/lib/cni, by name (`--plugin NAME=BIN`). */
  pluginBins?: Record<string, string>;
  keepTmp?: boolean;
  log?: (msg: string) => void;
}

export function recordScenario(sc: Scenario, opts: RecordOptions): JsonObject {
  const extra: Record<string, string> = {};
  for (const name of sc.extraPlugins ?? []) {
    const bin = opts.pluginBins?.[name];
    if (!bin) throw new Error(`${sc.name} needs plugin ${name}: pass --plugin ${name}=BIN`);
    extra[name] = bin;
  }
  const sb = new Sandbox(opts.driverBin, opts.keepTmp ?? false, extra);
  const log = opts.log ?? (() => undefined);
  try {
    for (const [key, text] of Object.entries(sc.conflists)) {
      writeFileSync(join(sb.confDir, `${key}.conflist`), sb.denormalise(text));
    }
    sb.addNetns('node', true);
    for (const pod of sc.pods) sb.addNetns(pod, false);
    const so = stepOptions(sc);
    const snap = () => snapshot(sb, so, { ...OBSERVED });
    const steps: JsonObject[] = [{ index: 1, type: 'initial', state: snap() }];
    const conflists: JsonObject = {};
    for (const [key, text] of Object.entries(sc.conflists)) {
      const v = tryParse(text);
      if (v !== undefined) conflists[key] = v;
    }
    const doc: JsonObject = {
      formatVersion: 1,
      name: sc.name,
      description: sc.description,
      notes: sc.notes ?? [],
      recordedWith: {
        ...recordedWith(),
        ...(sc.extraPlugins?.length
          ? { extraPlugins: sc.extraPlugins.map((n) => `${n}: ${pluginVersion(n)}`).join('; ') }
          : {}),
      },
      ...(sc.extraPlugins?.length ? { extraPlugins: sc.extraPlugins } : {}),
      conflists,
      conflistFiles: { ...sc.conflists },
      node: { netns: 'node', setup: ['ip netns add node', 'ip -n node link set lo up'] },
      pods: sc.pods,
      steps,
    };
    sc.steps.forEach((spec, i) => {
      const index = i + 2;
      const st = resolvePlaceholders(spec, doc, sb);
      log(`  step ${index}: ${st.type} ${'op' in st ? st.op : 'action' in st ? st.action : ''}`);
      let out: JsonObject;
      switch (st.type) {
        case 'libcni':
          out = runLibcni(sb, sc, st);
          break;
        case 'invoke':
          out = runInvoke(sb, st, steps);
          break;
        case 'env':
          out = runEnvStep(sb, st);
          break;
        case 'probe':
          out = runProbe(sb, st);
          break;
      }
      out.index = index;
      out.state = snap();
      steps.push(out);
    });
    return new Normaliser(sb.pathMap(), sb.prefix).document(doc);
  } finally {
    sb.destroy();
  }
}
