/**
 * A session saved as versioned JSON: the cluster spec, the seed, the action log and the cursor
 * (never the trace: loading replays it, see session.ts). A checksum over the content makes a
 * damaged or edited save detectable; a digest of the trace up to the cursor tells whether a
 * newer engine replays it differently.
 *
 *   {
 *     "format": "cnisim-session", "version": 1,
 *     "seed": 1, "cluster": { "nodes": [...] },
 *     "actions": [{ "step": 16, "action": { "do": "createPod", "name": "web-0" } }],
 *     (an action performed once the cluster had nothing left to do also has "idle": true; one
 *     the sandbox planned, not the user, "planned": true)
 *     "cursor": 80, "level": "kernel",
 *     "trace": { "length": 81, "digest": "9c1d33a0" },
 *     "checksum": "<sha-256 of the rest, 16 hex digits>"
 *   }
 *
 * `parseSavedSession` never throws: every problem comes back as a message naming the field.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import * as z from 'zod/mini';
import type { ClusterSpec } from '../cluster/cluster';
import type { Level, TraceEvent } from '../trace/trace';
import { parseRelease } from '../runtime/releases';
import { parseCrioRelease } from '../runtime/crio-releases';
import type { SessionAction } from './actions';
import type { LoggedAction, Session } from './session';
import { LEVELS } from './view';
import { EXPECTED_TYPE, pathText, type SchemaIssue } from '../schema-text';
import { LIMITS } from './limits';

// Strict pages forbid eval: zod must not compile parsers with new Function.
z.config({ jitless: true });

export const SESSION_FORMAT = 'cnisim-session';
export const SESSION_VERSION = 1;

/** Limits that keep a hostile or damaged file from freezing the page (./limits.ts). */
export { LIMITS };

export interface SavedSession {
  format: typeof SESSION_FORMAT;
  version: typeof SESSION_VERSION;
  seed: number;
  cluster: ClusterSpec;
  actions: LoggedAction[];
  cursor: number;
  level: Level;
  trace: { length: number; digest: string };
  checksum: string;
}

const NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const POD_RE = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?\/)?[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const CIDR_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/**
 * The schemas of saved sessions and actions, built on first use: the landing sandbox parses
 * nothing, and building them is part of what a first visit would wait for.
 */
function buildSchemas() {
  const text = z.string().check(z.maxLength(LIMITS.text));
  const varName = z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.maxLength(200));
  const name = (what: string) =>
    z
      .string()
      .check(
        z.refine(
          (v) => NAME_RE.test(v) && v.length <= 63,
          `expected a ${what} name (lower-case letters, digits and -)`,
        ),
      );
  const nodeName = name('node');
  const podRef = z
    .string()
    .check(
      z.refine(
        (v) => POD_RE.test(v) && v.length <= 253,
        'expected a pod name or namespace/name (lower-case letters, digits, - and .)',
      ),
    );
  const cidr = z.string().check(
    z.refine((v) => {
      const m = CIDR_RE.exec(v);
      return !!m && m.slice(1, 5).every((o) => Number(o) <= 255) && Number(m[5]) <= 32;
    }, 'expected a CIDR like 10.244.1.0/24'),
  );
  const absPath = text.check(z.refine((v) => v.startsWith('/'), 'expected an absolute path'));
  const port = z.int().check(z.minimum(1), z.maximum(65535));

  const nodeSpec = z.strictObject({
    name: nodeName,
    podCIDR: cidr,
    cniConfigs: z.optional(z.record(z.string(), text)),
    pluginBuild: z.optional(z.string()),
    plugins: z.optional(z.array(z.string())),
    pluginBuilds: z.optional(z.record(z.string(), z.string())),
    files: z.optional(z.record(absPath, text)),
    containerd: z.optional(
      z.strictObject({
        version: z.optional(
          z.string().check(z.refine((v) => parseRelease(v).ok, 'expected a containerd release')),
        ),
        confDir: z.optional(z.string()),
        binDirs: z.optional(z.array(z.string())),
        maxConfNum: z.optional(z.int().check(z.minimum(1))),
        libcni: z.optional(z.enum(['1.1', '1.2'])),
        ipPref: z.optional(z.enum(['ipv4', 'ipv6', 'cni'])),
      }),
    ),
    runtime: z.optional(
      z.strictObject({
        name: z.literal('cri-o'),
        version: z.optional(
          z.string().check(z.refine((v) => parseCrioRelease(v).ok, 'expected a CRI-O release')),
        ),
      }),
    ),
    kubelet: z.optional(
      z.strictObject({
        runtimeRequestTimeoutUs: z.optional(z.int().check(z.minimum(0))),
        backoffUs: z.optional(z.int().check(z.minimum(0))),
        networkRetryUs: z.optional(z.int().check(z.minimum(0))),
        statusPeriodUs: z.optional(z.int().check(z.minimum(0))),
      }),
    ),
  });

  const actionSchema = z.discriminatedUnion('do', [
    z.strictObject({
      do: z.literal('createPod'),
      name: podRef,
      namespace: z.optional(name('namespace')),
      node: z.optional(nodeName),
      hostPorts: z.optional(
        z.array(
          z.strictObject({
            containerPort: port,
            hostPort: port,
            protocol: z.enum(['TCP', 'UDP', 'SCTP']),
            hostIP: z.optional(z.string()),
          }),
        ),
      ),
      annotations: z.optional(z.record(z.string(), text)),
    }),
    z.strictObject({ do: z.literal('deletePod'), pod: podRef }),
    z.strictObject({
      do: z.literal('scale'),
      deployment: name('deployment'),
      replicas: z.int().check(z.minimum(0), z.maximum(LIMITS.replicas)),
      namespace: z.optional(name('namespace')),
      node: z.optional(nodeName),
    }),
    z.strictObject({ do: z.literal('restartKubelet'), node: nodeName }),
    z.strictObject({ do: z.literal('restartContainerd'), node: nodeName }),
    z.strictObject({
      do: z.literal('setContainerdVersion'),
      node: nodeName,
      // The release's own error: it lists the releases and behaviour ranges there are.
      version: z.string().check(
        z.superRefine((v, ctx) => {
          const r = parseRelease(v);
          if (!r.ok) ctx.issues.push({ code: 'custom', message: r.error, input: v });
        }),
      ),
    }),
    z.strictObject({ do: z.literal('reboot'), node: nodeName }),
    z.strictObject({
      do: z.literal('shell'),
      node: nodeName,
      line: text,
      cwd: z.optional(absPath),
      env: z.optional(z.record(varName, text)),
      vars: z.optional(z.record(varName, text)),
      status: z.optional(z.int().check(z.minimum(0), z.maximum(255))),
      tty: z.optional(z.boolean()),
    }),
    z.strictObject({
      do: z.literal('writeFile'),
      node: nodeName,
      path: absPath,
      data: text,
      mode: z.optional(z.int().check(z.minimum(0), z.maximum(0o7777))),
    }),
    z.strictObject({ do: z.literal('removeFile'), node: nodeName, path: absPath }),
    z.strictObject({
      do: z.literal('installPlugin'),
      node: nodeName,
      plugin: z.string(),
      build: z.string(),
    }),
    z.strictObject({
      do: z.literal('hangPlugin'),
      node: nodeName,
      plugin: z.string(),
      commands: z.array(z.enum(['ADD', 'DEL', 'CHECK', 'GC', 'STATUS', 'VERSION'])),
    }),
    z.strictObject({ do: z.literal('cniCheck'), pod: podRef }),
    z.strictObject({ do: z.literal('cniGc'), node: nodeName }),
    z.strictObject({ do: z.literal('cniStatus'), node: nodeName }),
    z.strictObject({
      do: z.literal('injectFault'),
      fault: z.string().check(z.regex(/^[a-z0-9][a-z0-9.-]*$/)),
      params: z.optional(z.record(z.string(), z.unknown())),
    }),
  ]);

  const savedSchema = z.strictObject({
    format: z.literal(SESSION_FORMAT),
    version: z.literal(SESSION_VERSION),
    seed: z.int().check(z.minimum(0), z.maximum(0xffffffff)),
    cluster: z.strictObject({
      nodes: z.array(nodeSpec).check(z.minLength(1), z.maxLength(LIMITS.nodes)),
      /** The cluster network (a preset's, docs/dataplane.md); absent: the nodes are not wired. */
      network: z.optional(
        z.strictObject({
          mode: z.enum(['host-gw', 'vxlan', 'none']),
          masqAgent: z.optional(z.enum(['kindnetd', 'flanneld'])),
        }),
      ),
    }),
    actions: z
      .array(
        z.strictObject({
          step: z.int().check(z.minimum(0), z.maximum(LIMITS.cursor)),
          action: actionSchema,
          idle: z.optional(z.literal(true)),
          planned: z.optional(z.literal(true)),
        }),
      )
      .check(z.maxLength(LIMITS.actions)),
    cursor: z.int().check(z.minimum(-1), z.maximum(LIMITS.cursor)),
    level: z.enum(LEVELS as [Level, ...Level[]]),
    trace: z.strictObject({
      length: z.int().check(z.minimum(0)),
      digest: z.string().check(z.regex(/^[0-9a-f]{8}$/)),
    }),
    checksum: z.string().check(z.regex(/^[0-9a-f]{16}$/)),
  });
  return { actionSchema, savedSchema };
}
let schemas: ReturnType<typeof buildSchemas> | null = null;
const schema = () => (schemas ??= buildSchemas());

/** Validates an action (from a form, a file or a message); returns its problems, or none. */
export function actionProblems(a: unknown): string[] {
  const r = schema().actionSchema.safeParse(a, { reportInput: true });
  return r.success ? [] : issueTexts(r.error.issues);
}

export function isSessionAction(a: unknown): a is SessionAction {
  return schema().actionSchema.safeParse(a).success;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  return String(v);
}

function issueTexts(issues: readonly SchemaIssue[]): string[] {
  return issues.slice(0, 10).map((i) => {
    const at = pathText(i.path);
    const custom = i.message !== 'Invalid input' ? i.message : null;
    switch (i.code) {
      case 'invalid_type':
        if (i.input === undefined) return `${at}: required`;
        return `${at}: expected ${EXPECTED_TYPE[i.expected ?? ''] ?? i.expected}, got ${typeName(i.input)}`;
      case 'invalid_value':
        return `${at}: expected ${(i.values ?? []).map((v) => JSON.stringify(v)).join(' or ')}, got ${typeName(i.input)}`;
      case 'unrecognized_keys':
        return `${at}: unknown field(s) ${(i.keys ?? []).join(', ')}`;
      case 'invalid_union':
        if (i.note === 'No matching discriminator') {
          return `${at}: ${i.input === undefined ? 'required, one' : 'expected one'} of ${(i.options ?? []).join(', ')}`;
        }
        return `${at}: ${custom ?? 'invalid value'}`;
      case 'too_small':
        return i.origin === 'array'
          ? `${at}: expected at least ${i.minimum} item(s)`
          : `${at}: expected at least ${i.minimum}, got ${typeName(i.input)}`;
      case 'too_big':
        return i.origin === 'array' || i.origin === 'string'
          ? `${at}: expected at most ${i.maximum} ${i.origin === 'array' ? 'item(s)' : 'characters'}`
          : `${at}: expected at most ${i.maximum}, got ${typeName(i.input)}`;
      default:
        return `${at}: ${custom ?? `invalid value ${typeName(i.input)}`}`;
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Digests

/** JSON with object keys sorted, so that equal content gives equal text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The checksum of a saved session: SHA-256 of its canonical JSON without the checksum. */
export function checksumOf(saved: Omit<SavedSession, 'checksum'>): string {
  const body = canonicalJson({ ...saved, checksum: undefined });
  return hex(sha256(utf8ToBytes(body))).slice(0, 16);
}

/** FNV-1a (32 bits) over what each event says, up to and including event `upTo`. */
export function traceDigest(events: readonly TraceEvent[], upTo: number): string {
  let h = 0x811c9dc5;
  const n = Math.min(upTo + 1, events.length);
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    const s = `${e.kind}|${e.node ?? ''}|${e.source}|${e.target}|${e.summary}|${e.error ?? ''}\n`;
    for (let j = 0; j < s.length; j++) {
      h ^= s.charCodeAt(j);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return h.toString(16).padStart(8, '0');
}

// ---------------------------------------------------------------------------------------------
// Save and load

export function saveSession(s: Session): SavedSession {
  const body: Omit<SavedSession, 'checksum'> = {
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    seed: s.seed,
    cluster: s.spec,
    actions: s.loggedActions(),
    cursor: s.cursor,
    level: s.level,
    trace: { length: s.cursor + 1, digest: traceDigest(s.events, s.cursor) },
  };
  return { ...body, checksum: checksumOf(body) };
}

export function serializeSession(s: Session): string {
  return JSON.stringify(saveSession(s));
}

export type SavedParse = { ok: true; saved: SavedSession } | { ok: false; errors: string[] };

/**
 * Reads a saved session (text or parsed JSON): valid JSON, the format and version, every field,
 * actions in step order, and the checksum. Never throws.
 */
export function parseSavedSession(input: unknown): SavedParse {
  let data = input;
  if (typeof input === 'string') {
    if (input.length > 8 * LIMITS.text)
      return { ok: false, errors: ['the saved state is too large'] };
    try {
      data = JSON.parse(input);
    } catch (e) {
      return { ok: false, errors: [`not JSON: ${(e as Error).message}`] };
    }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, errors: ['expected a saved cnisim session (a JSON object)'] };
  }
  const d = data as Record<string, unknown>;
  if (d['format'] !== SESSION_FORMAT) {
    return { ok: false, errors: [`format: expected "${SESSION_FORMAT}"`] };
  }
  if (typeof d['version'] === 'number' && d['version'] > SESSION_VERSION) {
    return {
      ok: false,
      errors: [
        `version: ${d['version']} was saved by a newer cnisim (this one reads version ${SESSION_VERSION})`,
      ],
    };
  }
  const r = schema().savedSchema.safeParse(data, { reportInput: true });
  if (!r.success) return { ok: false, errors: issueTexts(r.error.issues) };
  const saved = r.data as SavedSession;
  const errors: string[] = [];
  saved.actions.forEach((a, i) => {
    const prev = saved.actions[i - 1];
    if (prev && a.step < prev.step) {
      errors.push(
        `actions[${i}].step: ${a.step} is before the previous action's step ${prev.step}`,
      );
    }
  });
  const names = new Set<string>();
  saved.cluster.nodes.forEach((n, i) => {
    if (names.has(n.name)) errors.push(`cluster.nodes[${i}].name: duplicate node "${n.name}"`);
    names.add(n.name);
  });
  if (errors.length) return { ok: false, errors };
  const { checksum, ...body } = saved;
  if (checksumOf(body) !== checksum) {
    return {
      ok: false,
      errors: ['checksum: the saved state does not match its checksum (it was damaged or edited)'],
    };
  }
  return { ok: true, saved };
}

/** What loading found: warnings are for the user, the session was restored anyway. */
export interface LoadReport {
  warnings: string[];
}

/**
 * Replays a parsed save into `session` (its cluster, actions, cursor and level are replaced)
 * and reports whether the replayed trace is the one that was saved.
 */
export function* loadJob(session: Session, saved: SavedSession): Generator<number, LoadReport> {
  yield* session.replaceJob(saved.cluster, saved.seed, saved.actions, saved.cursor);
  session.setLevel(saved.level);
  const warnings: string[] = [];
  if (session.cursor !== saved.cursor) {
    warnings.push(
      `the saved step ${saved.cursor + 1} no longer exists: the trace now ends at step ${session.cursor + 1}`,
    );
  } else if (traceDigest(session.events, saved.trace.length - 1) !== saved.trace.digest) {
    warnings.push(
      'this version of cnisim replays the saved actions differently: the steps may not match what you saw',
    );
  }
  for (const a of session.actions) {
    if (a.error !== null) warnings.push(`${a.action.do} at step ${a.step}: ${a.error}`);
  }
  return { warnings };
}
