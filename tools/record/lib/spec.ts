/**
 * The scenario spec: what the recorder is asked to do. Everything is written with logical names
 * and placeholders, exactly as it will appear in the fixture:
 *
 *  - `<dataDir>`, `<cacheDir>`, `<tuningDir>`, `<confDir>`, `<cniPath>`, `<tmp>` stand for the
 *    recorder's temp dirs (host-local dataDir, libcni cache dir, tuning dataDir, conflist dir,
 *    CNI_PATH of golden shims, scratch);
 *  - a netns is named by its logical name (`node`, `pod-a`, ...); `/var/run/netns/pod-a` and
 *    `ip -n pod-a ...` are rewritten to the real, prefixed namespace when the step runs.
 */
import { isObject, type Json, type JsonObject } from './util';

export interface Scenario {
  name: string;
  description: string;
  notes?: string[];
  /** key -> exact conflist file text (placeholders allowed). */
  conflists: Record<string, string>;
  /** pod netns names, created (lo down) before step 1. */
  pods: string[];
  /** extra sysctl keys to snapshot, per logical netns (the node always has the 2 forwarding keys). */
  sysctls?: Record<string, string[]>;
  /**
   * plugins not in /usr/lib/cni that the scenario needs (e.g. flannel), installed next to the
   * others in CNI_PATH; their binaries are given with `record.ts --plugin NAME=BIN`.
   */
  extraPlugins?: string[];
  /** snapshot `tc` in every netns (true) or only in the listed ones. */
  tc?: boolean | string[];
  steps: StepSpec[];
}

export interface LibcniStepSpec {
  type: 'libcni';
  op: 'ADD' | 'CHECK' | 'DEL';
  conflist: string;
  containerId: string;
  /** logical netns name; the netns path is /var/run/netns/<netnsName> (need not exist). */
  netnsName?: string;
  /** explicit netns path (placeholders allowed) instead of netnsName. */
  netns?: string;
  ifName: string;
  cniArgs?: [string, string][];
  capabilityArgs?: JsonObject;
  /** override libcni's plugin search path (default: [<cniPath>]). */
  cniPath?: string[];
  note?: string;
}

export interface VersionStepSpec {
  type: 'libcni';
  op: 'VERSION';
  plugin: string;
  note?: string;
}

export interface InvokeStepSpec {
  type: 'invoke';
  plugin: string;
  /** exactly the environment of the process (placeholders allowed). */
  env: Record<string, string>;
  /** stdin as JSON (sent compact, keys sorted) ... */
  stdin?: Json;
  /** ... or as raw text. */
  stdinRaw?: string;
  /** set stdin.prevResult to the libcni result (outcome.result) of that earlier ADD step. */
  prevResultFromStep?: number;
  note?: string;
}

export interface EnvStepSpec {
  type: 'env';
  action: string;
  description: string;
  /** shell command with logical names and placeholders; runs inside the node netns. */
  command: string;
}

export interface ProbeStepSpec {
  type: 'probe';
  probe?: 'ping';
  from: string;
  to: string;
}

export type StepSpec =
  LibcniStepSpec | VersionStepSpec | InvokeStepSpec | EnvStepSpec | ProbeStepSpec;

/** Minimal structural validation with readable errors. */
export function validateScenario(raw: unknown, where: string): Scenario {
  const fail = (msg: string): never => {
    throw new Error(`${where}: ${msg}`);
  };
  if (!isObject(raw)) fail('not an object');
  const s = raw as unknown as Scenario;
  if (typeof s.name !== 'string' || !/^[a-z0-9][a-z0-9.-]*$/.test(s.name)) fail('bad name');
  if (typeof s.description !== 'string') fail('missing description');
  if (!isObject(s.conflists as unknown)) fail('conflists must be an object of strings');
  for (const [k, v] of Object.entries(s.conflists)) {
    if (typeof v !== 'string') fail(`conflist ${k} must be the file text (a string)`);
  }
  if (!Array.isArray(s.pods)) fail('pods must be an array');
  if (!Array.isArray(s.steps)) fail('steps must be an array');
  s.steps.forEach((st, i) => {
    const at = `step ${i + 2}`;
    switch (st.type) {
      case 'libcni':
        if (st.op === 'VERSION') {
          if (typeof st.plugin !== 'string') fail(`${at}: VERSION needs plugin`);
        } else {
          if (!['ADD', 'CHECK', 'DEL'].includes(st.op)) fail(`${at}: bad op`);
          if (!(st.conflist in s.conflists)) fail(`${at}: unknown conflist ${st.conflist}`);
          if (typeof st.containerId !== 'string' || typeof st.ifName !== 'string') {
            fail(`${at}: containerId and ifName are required`);
          }
        }
        break;
      case 'invoke':
        if (typeof st.plugin !== 'string' || !isObject(st.env as unknown)) {
          fail(`${at}: invoke needs plugin and env`);
        }
        if ((st.stdin === undefined) === (st.stdinRaw === undefined)) {
          fail(`${at}: invoke needs exactly one of stdin / stdinRaw`);
        }
        break;
      case 'env':
        if (typeof st.command !== 'string' || typeof st.action !== 'string') {
          fail(`${at}: env needs action and command`);
        }
        break;
      case 'probe':
        if (typeof st.from !== 'string' || typeof st.to !== 'string')
          fail(`${at}: probe needs from/to`);
        break;
      default:
        fail(`${at}: unknown type ${(st as { type: string }).type}`);
    }
  });
  return s;
}
