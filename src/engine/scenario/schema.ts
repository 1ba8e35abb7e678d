/**
 * The scenario file format, version 1 (docs/scenarios.md): a cluster (nodes with their pod CIDR,
 * CNI configuration, plugins and daemon settings), a seed, and actions at virtual times or after
 * conditions. `parseScenario` validates a file and never throws: every problem comes back as
 * `path: what is wrong`, e.g. `nodes[1].podCIDR: expected a CIDR like 10.244.1.0/24`.
 */
import * as z from 'zod/mini';
import { FAULTS } from '../faults/catalogue';
import { parseIPv4 } from '../net/ip';
import { BUILDS } from '../plugins/lib/build';
import { PLUGIN_FACTORIES } from '../plugins/registry';
import { parseRelease } from '../runtime/releases';
import { parseCrioRelease } from '../runtime/crio-releases';
import { parseCondition, parsePodPattern } from './condition';
import { parseDuration } from './duration';
import { EXPECTED_TYPE, pathText, type SchemaIssue } from '../schema-text';

export const SCENARIO_VERSION = 1;

const DURATION_MSG = 'expected a duration like 30s, 1m30s or 500ms (or a number of seconds)';
const CIDR_MSG = 'expected a CIDR like 10.244.1.0/24';
const NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const POD_RE = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

const duration = z
  .union([z.string(), z.number()], { error: DURATION_MSG })
  .check(z.refine((v) => parseDuration(v) !== null, DURATION_MSG));

const condition = z.string().check(
  z.superRefine((v, ctx) => {
    const r = parseCondition(v);
    if (!r.ok) ctx.issues.push({ code: 'custom', message: r.error, input: v });
  }),
);

/** Problems with an IPv4 CIDR text, or null when it is a network address with its prefix. */
export function cidrProblem(s: string): string | null {
  const m = /^([0-9.]+)\/(\d{1,2})$/.exec(s);
  const n = m ? parseIPv4(m[1]!) : null;
  if (n === null) return CIDR_MSG;
  const prefix = Number(m![2]);
  if (prefix > 32) return CIDR_MSG;
  if (prefix < 8 || prefix > 30) return `${CIDR_MSG} (a prefix from /8 to /30, got /${prefix})`;
  const host = n % 2 ** (32 - prefix);
  if (host !== 0) return `${CIDR_MSG} (${s} has host bits set)`;
  return null;
}

const cidr = z.string({ error: CIDR_MSG }).check(
  z.superRefine((v, ctx) => {
    const p = cidrProblem(v);
    if (p) ctx.issues.push({ code: 'custom', message: p, input: v });
  }),
);

const name = (what: string) =>
  z
    .string()
    .check(
      z.refine(
        (v) => NAME_RE.test(v) && v.length <= 63,
        `expected a ${what} name (lower-case letters, digits and -)`,
      ),
    );

const podName = z
  .string()
  .check(
    z.refine(
      (v) => POD_RE.test(v) && v.length <= 253,
      'expected a pod name (lower-case letters, digits, - and .)',
    ),
  );

const podPattern = z.string().check(
  z.superRefine((v, ctx) => {
    const r = parsePodPattern(v);
    if (!r.ok) ctx.issues.push({ code: 'custom', message: r.error, input: v });
  }),
);

const jsonObject = z.record(z.string(), z.unknown());
const fileData = z.union([z.string(), jsonObject], {
  error: 'expected the file content: a string, or a JSON object',
});

/** A containerd release number: any real one ("1.6.9", "1.7.24", "2.1.0"). */
const containerdVersion = z.string().check(
  z.superRefine((v, ctx) => {
    const r = parseRelease(v);
    if (!r.ok) ctx.issues.push({ code: 'custom', message: r.error, input: v });
  }),
);

const containerdSettings = z.strictObject({
  /** The release the node runs; decides its libcni and every release-specific behaviour. */
  version: z.optional(containerdVersion),
  /** Shorthand for a release: "1.1" is 1.7.22, "1.2" is 2.0.0. */
  libcni: z.optional(z.enum(['1.1', '1.2'], { error: 'expected "1.1" or "1.2"' })),
  confDir: z.optional(z.string()),
  binDirs: z.optional(z.array(z.string())),
  /** containerd's `max_conf_num`: how many conf files go-cni loads; 0 loads every one. */
  maxConfNum: z.optional(z.int().check(z.minimum(0))),
  ipPref: z.optional(z.enum(['ipv4', 'ipv6', 'cni'])),
});

/** A CRI-O release number ("1.31.2", "1.32.x"), mapped to its behaviour range. */
const crioVersion = z.string().check(
  z.superRefine((v, ctx) => {
    const r = parseCrioRelease(v);
    if (!r.ok) ctx.issues.push({ code: 'custom', message: r.error, input: v });
  }),
);

/** The node runs CRI-O (with ocicni) instead of containerd (docs/runtimes.md). */
const runtimeSettings = z.strictObject({
  name: z.literal('cri-o', { error: 'expected "cri-o" (containerd is the default runtime)' }),
  version: z.optional(crioVersion),
});

const kubeletSettings = z.strictObject({
  runtimeRequestTimeout: z.optional(duration),
  backoff: z.optional(duration),
  networkRetry: z.optional(duration),
  statusPeriod: z.optional(duration),
});

const nodeSchema = z.strictObject({
  name: name('node'),
  podCIDR: cidr,
  cniConfigs: z.optional(z.record(z.string(), fileData)),
  pluginBuild: z.optional(z.string()),
  pluginBuilds: z.optional(z.record(z.string(), z.string())),
  plugins: z.optional(z.array(z.string())),
  /** Files the node has before it boots, by absolute path. */
  files: z.optional(z.record(z.string(), fileData)),
  containerd: z.optional(containerdSettings),
  /**
   * The node's CRI runtime: "containerd" (the default) or "cri-o", whose release is in `crio`;
   * or the object form `{"name": "cri-o", "version": "1.32.0"}`.
   */
  runtime: z.optional(
    z.union([
      runtimeSettings,
      z.enum(['containerd', 'cri-o'], { error: 'expected "containerd" or "cri-o"' }),
    ]),
  ),
  /** The CRI-O release of a `"runtime": "cri-o"` node. */
  crio: z.optional(z.strictObject({ version: z.optional(crioVersion) })),
  kubelet: z.optional(kubeletSettings),
});

/** Fields every action may have: when it starts. */
const when = {
  /** Virtual time from the start of the run. */
  at: z.optional(duration),
  /** A condition to run until first. */
  after: z.optional(condition),
  /** How long to wait for `after` (or runUntil's `until`); default 10m. */
  timeout: z.optional(duration),
  /** If the wait times out, carry on (default: the scenario stops there). */
  optional: z.optional(z.boolean()),
  /** Free text shown with the action. */
  note: z.optional(z.string()),
};

const node = z.optional(name('node'));
const hostPort = z.strictObject({
  containerPort: z.int().check(z.minimum(1), z.maximum(65535)),
  hostPort: z.int().check(z.minimum(1), z.maximum(65535)),
  protocol: z.optional(z.enum(['TCP', 'UDP', 'SCTP'])),
  hostIP: z.optional(z.string()),
});

const actionSchema = z.discriminatedUnion('do', [
  z.strictObject({
    do: z.literal('createPod'),
    name: podName,
    namespace: z.optional(name('namespace')),
    node,
    hostPorts: z.optional(z.array(hostPort)),
    annotations: z.optional(z.record(z.string(), z.string())),
    ...when,
  }),
  z.strictObject({ do: z.literal('deletePod'), pod: podPattern, ...when }),
  z.strictObject({
    do: z.literal('scale'),
    deployment: name('deployment'),
    replicas: z.int().check(z.minimum(0), z.maximum(1000)),
    namespace: z.optional(name('namespace')),
    node,
    ...when,
  }),
  z.strictObject({ do: z.literal('restartKubelet'), node, down: z.optional(duration), ...when }),
  z.strictObject({ do: z.literal('restartContainerd'), node, down: z.optional(duration), ...when }),
  z.strictObject({
    do: z.literal('setContainerdVersion'),
    node,
    version: containerdVersion,
    ...when,
  }),
  z.strictObject({ do: z.literal('reboot'), node, down: z.optional(duration), ...when }),
  z.strictObject({ do: z.literal('shell'), node, line: z.string(), ...when }),
  z.strictObject({
    do: z.literal('writeFile'),
    node,
    path: z.string().check(z.refine((v) => v.startsWith('/'), 'expected an absolute path')),
    data: fileData,
    mode: z.optional(
      z.union([z.int(), z.string().check(z.regex(/^0?[0-7]{3,4}$/))], {
        error: 'expected a file mode like "0644"',
      }),
    ),
    ...when,
  }),
  z.strictObject({
    do: z.literal('removeFile'),
    node,
    path: z.string().check(z.refine((v) => v.startsWith('/'), 'expected an absolute path')),
    ...when,
  }),
  z.strictObject({
    do: z.literal('installPlugin'),
    node,
    plugin: z.string(),
    build: z.string(),
    ...when,
  }),
  z.strictObject({
    do: z.literal('hangPlugin'),
    node,
    plugin: z.string(),
    commands: z.array(z.enum(['ADD', 'DEL', 'CHECK', 'GC', 'STATUS', 'VERSION'])),
    ...when,
  }),
  z.strictObject({ do: z.literal('cniCheck'), pod: podPattern, ...when }),
  z.strictObject({ do: z.literal('cniGc'), node, ...when }),
  z.strictObject({ do: z.literal('cniStatus'), node, ...when }),
  z.strictObject({
    do: z.literal('injectFault'),
    fault: z.string().check(z.regex(/^[a-z0-9][a-z0-9.-]*$/)),
    params: z.optional(jsonObject),
    ...when,
  }),
  z.strictObject({ do: z.literal('wait'), for: duration, ...when }),
  z.strictObject({ do: z.literal('runUntil'), until: condition, ...when }),
]);

export const ACTION_NAMES = [
  'createPod',
  'deletePod',
  'scale',
  'restartKubelet',
  'restartContainerd',
  'setContainerdVersion',
  'reboot',
  'shell',
  'writeFile',
  'removeFile',
  'installPlugin',
  'hangPlugin',
  'cniCheck',
  'cniGc',
  'cniStatus',
  'injectFault',
  'wait',
  'runUntil',
] as const;

export const scenarioSchema = z.strictObject({
  /** An editor's JSON schema reference; ignored. */
  $schema: z.optional(z.string()),
  version: z.literal(SCENARIO_VERSION, { error: `expected ${SCENARIO_VERSION}` }),
  name: z.optional(z.string()),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  seed: z.optional(z.int().check(z.minimum(0), z.maximum(0xffffffff))),
  nodes: z.optional(z.array(nodeSchema).check(z.minLength(1), z.maxLength(16))),
  /** The containerd every node runs unless its own `containerd` says otherwise. */
  containerd: z.optional(z.strictObject({ version: containerdVersion })),
  /**
   * The network between the nodes (docs/dataplane.md): an underlay joins every node's eth0, and
   * `mode` says how pod traffic crosses it. Absent: the nodes are not wired to each other.
   */
  network: z.optional(
    z.strictObject({
      mode: z.enum(['host-gw', 'vxlan', 'none'], {
        error: 'expected "host-gw", "vxlan" or "none"',
      }),
      /** The agent whose masquerade rule each node gets at start (bridge then has ipMasq: false). */
      masqAgent: z.optional(
        z.enum(['kindnetd', 'flanneld'], { error: 'expected "kindnetd" or "flanneld"' }),
      ),
    }),
  ),
  actions: z.optional(z.array(actionSchema)),
  /** After the last action: run until this holds (default idle) or the timeout (default 10m). */
  end: z.optional(z.strictObject({ until: z.optional(condition), timeout: z.optional(duration) })),
  limits: z.optional(
    z.strictObject({
      events: z.optional(z.int().check(z.minimum(1))),
      time: z.optional(duration),
    }),
  ),
});

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioAction = NonNullable<Scenario['actions']>[number];
export type ScenarioNode = NonNullable<Scenario['nodes']>[number];
export type ActionName = ScenarioAction['do'];

export type ScenarioParse = { ok: true; scenario: Scenario } | { ok: false; errors: string[] };

// ---------------------------------------------------------------------------------------------
// Messages

const KNOWN_FIELDS = [
  ...Object.keys(scenarioSchema.def.shape),
  ...Object.keys(nodeSchema.def.shape),
  ...Object.keys(containerdSettings.def.shape),
  ...Object.keys(kubeletSettings.def.shape),
  'mode',
  ...Object.keys(when),
  'name',
  'namespace',
  'node',
  'hostPorts',
  'annotations',
  'pod',
  'deployment',
  'replicas',
  'down',
  'line',
  'path',
  'data',
  'mode',
  'plugin',
  'build',
  'commands',
  'fault',
  'params',
  'for',
  'until',
];

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}...` : v}"`;
  return String(v);
}

/**
 * A union none of whose branches matched (e.g. a node's `runtime`: a string, or `{"name",
 * "version"}`): the issues of the branch the input's shape chose (one with no issue about the
 * value itself), else the branches' own messages, so an unknown release reads as the release
 * parser says and not as zod's "Invalid input".
 */
function unionTexts(i: SchemaIssue): string[] | null {
  const branches = (i as SchemaIssue & { errors?: SchemaIssue[][] }).errors;
  if (!branches?.length) return null;
  const rooted = (b: SchemaIssue[]) => b.map((e) => ({ ...e, path: [...i.path, ...e.path] }));
  const shaped = branches.find((b) => b.length > 0 && b.every((e) => e.path.length > 0));
  if (shaped) return rooted(shaped).flatMap(issueTexts);
  const own = branches.flatMap((b) => b.filter((e) => e.message !== 'Invalid input'));
  if (!own.length) return null;
  const texts = [...new Set(rooted(own).flatMap(issueTexts))];
  return texts.length === 1 ? texts : null;
}

function issueTexts(i: SchemaIssue): string[] {
  const at = pathText(i.path);
  switch (i.code) {
    case 'invalid_type':
      if (i.input === undefined) return [`${at}: required`];
      return [
        `${at}: expected ${EXPECTED_TYPE[i.expected ?? ''] ?? i.expected}, got ${typeName(i.input)}`,
      ];
    case 'invalid_value':
      if (i.input === undefined) return [`${at}: required`];
      return [
        `${at}: expected ${(i.values ?? []).map((v) => JSON.stringify(v)).join(' or ')}, got ${typeName(i.input)}`,
      ];
    case 'unrecognized_keys':
      return (i.keys ?? []).map((k) => {
        const close = KNOWN_FIELDS.find((f) => f.toLowerCase() === k.toLowerCase() && f !== k);
        return `${pathText([...i.path, k])}: unknown field${close ? ` (did you mean "${close}"?)` : ''}`;
      });
    case 'invalid_union':
      if (i.note === 'No matching discriminator') {
        const opts = (i.options ?? []).join(', ');
        const v = isObj(i.input) ? i.input[String(i.path[i.path.length - 1])] : i.input;
        return v === undefined
          ? [`${at}: required (one of ${opts})`]
          : [`${at}: ${typeName(v)} is not an action (one of ${opts})`];
      }
      return unionTexts(i) ?? [`${at}: ${i.message}`];
    case 'too_small':
      if (i.origin === 'array') return [`${at}: expected at least ${i.minimum} item(s)`];
      return [`${at}: expected at least ${i.minimum}, got ${typeName(i.input)}`];
    case 'too_big':
      if (i.origin === 'array') return [`${at}: expected at most ${i.maximum} item(s)`];
      return [`${at}: expected at most ${i.maximum}, got ${typeName(i.input)}`];
    case 'invalid_format':
      return [
        `${at}: ${i.message === 'Invalid input' ? `invalid value ${typeName(i.input)}` : i.message}`,
      ];
    default:
      return [
        `${at}: ${i.message === 'Invalid input' ? `invalid value ${typeName(i.input)}` : i.message}`,
      ];
  }
}

// ---------------------------------------------------------------------------------------------
// Checks across fields

/** Fault ids the catalogue knows (a test may wire another injector, see run.ts; null: any id). */
let faultIds: (() => readonly string[]) | null = () => FAULTS.map((f) => f.id);
export function setKnownFaults(ids: (() => readonly string[]) | null): void {
  faultIds = ids;
}

const NODE_ACTIONS = new Set<ActionName>([
  'restartKubelet',
  'restartContainerd',
  'setContainerdVersion',
  'reboot',
  'shell',
  'writeFile',
  'removeFile',
  'installPlugin',
  'hangPlugin',
  'cniGc',
  'cniStatus',
]);

function cidrRange(c: string): [number, number] {
  const [ip, p] = c.split('/');
  const n = parseIPv4(ip!)!;
  return [n, n + 2 ** (32 - Number(p)) - 1];
}

type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Checks across fields, on the raw data (so that they are reported together with the schema's
 * findings); whatever has the wrong shape is left to the schema.
 */
function semanticErrors(d: unknown): string[] {
  const errs: string[] = [];
  if (!isObj(d)) return errs;
  const plugins = Object.keys(PLUGIN_FACTORIES).sort();
  const builds = Object.keys(BUILDS);
  const nodes = Array.isArray(d['nodes']) ? (d['nodes'] as unknown[]) : [];
  const names = new Set<string>();
  const cidrs: Array<[number, string]> = [];
  nodes.forEach((n, i) => {
    if (!isObj(n)) return;
    const at = `nodes[${i}]`;
    const name = str(n['name']);
    if (name !== undefined) {
      if (names.has(name)) errs.push(`${at}.name: duplicate node name "${name}"`);
      names.add(name);
    }
    const cidr = str(n['podCIDR']);
    if (cidr !== undefined && cidrProblem(cidr) === null) {
      const [b0, b1] = cidrRange(cidr);
      for (const [j, other] of cidrs) {
        const [a0, a1] = cidrRange(other);
        if (a0 <= b1 && b0 <= a1) errs.push(`${at}.podCIDR: overlaps nodes[${j}].podCIDR`);
      }
      cidrs.push([i, cidr]);
    }
    if (isObj(n['cniConfigs'])) {
      for (const f of Object.keys(n['cniConfigs'])) {
        if (!f || f.includes('/') || f === '.' || f === '..')
          errs.push(`${pathText(['nodes', i, 'cniConfigs', f])}: expected a file name, not a path`);
      }
    }
    if (isObj(n['files'])) {
      for (const f of Object.keys(n['files'])) {
        if (!f.startsWith('/') || f.split('/').some((x) => x === '..'))
          errs.push(`${pathText(['nodes', i, 'files', f])}: expected an absolute path`);
      }
    }
    const crioNode = isObj(n['runtime']) || n['runtime'] === 'cri-o';
    if (crioNode && isObj(n['containerd']))
      errs.push(
        `${at}.containerd: the node runs CRI-O ("runtime"); containerd settings do not apply to it`,
      );
    if (isObj(n['crio']) && !crioNode)
      errs.push(`${at}.crio: the node runs containerd; set "runtime": "cri-o" to run CRI-O`);
    if (isObj(n['crio']) && isObj(n['runtime']))
      errs.push(`${at}.crio: give the release once, in "runtime" or in "crio"`);
    const ctrd = isObj(n['containerd']) ? n['containerd'] : {};
    const ver = str(ctrd['version']);
    const lib = str(ctrd['libcni']);
    const rel = ver !== undefined ? parseRelease(ver) : null;
    if (rel?.ok && (lib === '1.1' || lib === '1.2') && rel.release.libcni !== lib)
      errs.push(
        `${at}.containerd.libcni: containerd ${ver} uses libcni ${rel.release.libcni}, not ${lib} (leave libcni out: the release decides it)`,
      );
    const build = str(n['pluginBuild']);
    if (build !== undefined && !builds.includes(build))
      errs.push(`${at}.pluginBuild: unknown build "${build}" (one of ${builds.join(', ')})`);
    if (Array.isArray(n['plugins'])) {
      n['plugins'].forEach((p, k) => {
        if (typeof p === 'string' && !plugins.includes(p))
          errs.push(`${at}.plugins[${k}]: unknown plugin "${p}" (one of ${plugins.join(', ')})`);
      });
    }
    if (isObj(n['pluginBuilds'])) {
      for (const [p, b] of Object.entries(n['pluginBuilds'])) {
        const key = pathText(['nodes', i, 'pluginBuilds', p]);
        if (!plugins.includes(p))
          errs.push(`${key}: unknown plugin "${p}" (one of ${plugins.join(', ')})`);
        if (typeof b === 'string' && !builds.includes(b))
          errs.push(`${key}: unknown build "${b}" (one of ${builds.join(', ')})`);
      }
    }
  });
  const nodeNames = d['nodes'] === undefined ? ['node-1', 'node-2'] : [...names];
  const actions = Array.isArray(d['actions']) ? (d['actions'] as unknown[]) : [];
  actions.forEach((a, i) => {
    if (!isObj(a)) return;
    const at = `actions[${i}]`;
    const what = str(a['do']) as ActionName | undefined;
    if (a['at'] !== undefined && a['after'] !== undefined)
      errs.push(`${at}: use either "at" or "after", not both`);
    const node = str(a['node']);
    if (node !== undefined && nodeNames.length && !nodeNames.includes(node))
      errs.push(`${at}.node: no node "${node}" (nodes: ${nodeNames.join(', ')})`);
    if (what && NODE_ACTIONS.has(what) && a['node'] === undefined && nodeNames.length > 1)
      errs.push(`${at}.node: required (the cluster has ${nodeNames.length} nodes)`);
    const plugin = str(a['plugin']);
    if ((what === 'installPlugin' || what === 'hangPlugin') && plugin && !plugins.includes(plugin))
      errs.push(`${at}.plugin: unknown plugin "${plugin}" (one of ${plugins.join(', ')})`);
    const build = str(a['build']);
    if (what === 'installPlugin' && build && !builds.includes(build))
      errs.push(`${at}.build: unknown build "${build}" (one of ${builds.join(', ')})`);
    const fault = str(a['fault']);
    if (what === 'injectFault' && fault && faultIds) {
      const ids = faultIds();
      if (!ids.includes(fault))
        errs.push(`${at}.fault: unknown fault "${fault}" (one of ${ids.join(', ')})`);
    }
  });
  return errs;
}

/** Orders messages as the file is: by top-level field, then by item (actions[2] before [10]). */
function byPath(a: string, b: string): number {
  const top = Object.keys(scenarioSchema.def.shape);
  const key = (m: string): [number, number] => {
    const r = /^([A-Za-z$]+)(?:\[(\d+)\])?/.exec(m);
    const rank = r ? top.indexOf(r[1]!) : -1;
    return [rank < 0 ? -1 : rank, r?.[2] !== undefined ? Number(r[2]) : -1];
  };
  const [ra, ia] = key(a);
  const [rb, ib] = key(b);
  return ra - rb || ia - ib;
}

/** JSON's error with a line and column, when the engine gives a position. */
function jsonError(text: string, e: unknown): string {
  const msg = (e as Error).message ?? String(e);
  const m = /position (\d+)/.exec(msg);
  if (m && !/line \d+/.test(msg)) {
    const pos = Number(m[1]);
    const before = text.slice(0, pos).split('\n');
    return `not valid JSON: ${msg} (line ${before.length}, column ${before[before.length - 1]!.length + 1})`;
  }
  return `not valid JSON: ${msg}`;
}

/** Validates a scenario (JSON text or parsed data); never throws. */
export function parseScenario(input: unknown): ScenarioParse {
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (e) {
      return { ok: false, errors: [jsonError(input, e)] };
    }
  }
  try {
    const r = scenarioSchema.safeParse(data, { reportInput: true });
    const errs = r.success ? [] : (r.error.issues as unknown as SchemaIssue[]).flatMap(issueTexts);
    errs.push(...semanticErrors(data));
    if (errs.length) return { ok: false, errors: [...new Set(errs)].sort(byPath) };
    return { ok: true, scenario: r.data! };
  } catch (e) {
    return { ok: false, errors: [`(top level): ${(e as Error).message ?? String(e)}`] };
  }
}
