/**
 * The course's data formats (docs/authoring.md): lessons, challenges and quiz questions, as
 * zod/mini schemas. Lessons and challenges are JSON files under `src/course/`; `content.ts`
 * validates every one of them when the course is loaded (and the tests do too), so a typo in a
 * lesson is a load error naming the file and the field, never a goal that silently passes.
 *
 * Shapes in short:
 *
 * - An event matcher picks trace events by what they are (kind, source, target, node, summary
 *   pattern, CNI command, API event reason, journal text, ...), never by their position, so a
 *   narration or a quiz link survives changes to the engine that add or move events.
 * - A goal is a check of the simulation's state (pods, files, links, addresses, routes, the
 *   journal, API events, the audit, the trace) with a sentence for the learner; when it is not
 *   met the checker (goals.ts) says what it found instead.
 * - A lesson has a starting scenario (the scenario format, docs/scenarios.md), narration keyed by
 *   event matchers, goals with graded hints (nudge, concept, exact step), a solution (scenario
 *   actions) and quiz questions.
 * - A challenge has a cluster, a ticket, the answer choices, the goals that show the symptom and
 *   the recovery, and the faults it may hide; `hidden.ts` draws one (and its node) by seed.
 */
import * as z from 'zod/mini';
import { parseCondition } from '../scenario/condition';
import { cidrProblem } from '../scenario/schema';
import type { AuditFinding } from '../cluster/cluster';
import type { EventKind } from '../trace/trace';
import { pathText, type SchemaIssue } from '../schema-text';

// Strict pages forbid eval: zod must not compile parsers with new Function.
z.config({ jitless: true });

export const EVENT_KINDS = [
  'libcni.call',
  'libcni.return',
  'libcni.cache',
  'exec',
  'exit',
  'kernel',
  'fs',
  'env',
  'note',
  'state',
  'cri',
  'api',
  'log',
  'packet',
] as const satisfies readonly EventKind[];

/** Every kind of audit finding (cluster.audit); a new kind must be added here to be checked. */
export const AUDIT_KINDS = [
  'orphan-veth',
  'orphan-cache',
  'orphan-reservation',
  'orphan-netns',
  'orphan-iptables',
  'duplicate-ip',
  'pod-ip-not-reserved',
  'stuck-pod',
] as const satisfies readonly AuditFinding['kind'][];
type MissingAuditKind = Exclude<AuditFinding['kind'], (typeof AUDIT_KINDS)[number]>;
// A compile error here names an audit kind the list above lacks.
const auditKindsComplete: MissingAuditKind extends never ? true : MissingAuditKind = true;
void auditKindsComplete;

export const CNI_COMMANDS = ['ADD', 'DEL', 'CHECK', 'GC', 'STATUS', 'VERSION'] as const;
export const POD_STATUSES = ['Running', 'ContainerCreating', 'Terminating', 'Pending'] as const;

/**
 * The simplifications of kubelet-containerd.md §8 that real nodes contradict, each scoped to the
 * runtime (and release) it describes, with what CRI-O does. A quiz choice marked with one of these
 * is a distractor built on that simplification (never a right answer).
 */
export const MYTHS = {
  'kubelet-calls-libcni':
    'The kubelet calls libcni or the plugin. Since dockershim left (Kubernetes 1.24) the kubelet only calls the CRI runtime. containerd calls libcni through go-cni, CRI-O through ocicni; libcni execs the plugins.',
  'version-negotiation':
    "Runtime and plugin negotiate a version. libcni passes the config's cniVersion to every plugin, and a plugin without exactly that version fails with code 1; only a 1.1 cniVersions list lets libcni pick (the highest it knows). containerd asks no plugin for its versions; CRI-O asks when it loads a list and rejects a list a plugin cannot serve: a check, not a negotiation.",
  'cache-file-name':
    'The result cache file is <network>_<container-id>. libcni writes /var/lib/cni/results/<network>-<container-id>-<ifname>, JSON of kind cniCacheV1 (containerd uses that default cache dir; CRI-O reads the cached config back at DEL).',
  'netns-path':
    'CNI_NETNS is /var/run/netns/<sandbox-id>. containerd uses /var/run/netns/cni-<random uuid>, CRI-O /var/run/netns/<random uuid>; the sandbox id travels only as CNI_CONTAINERID.',
  'kubelet-runs-check':
    "The kubelet runs CHECK when it queries pod status. The kubelet never calls CNI. containerd calls neither CHECK nor GC (from 2.0.1 it runs STATUS on every status poll, for 1.1.0 lists). CRI-O runs CHECK right after each ADD and, from 1.32, STATUS and one GC at start. cnitool cannot stand in: it cannot name a runtime's attachment, and its gc deletes every attachment a runtime made.",
  'corrupted-cache-blocks-del':
    'A corrupted cache blocks every future DEL. True for libcni before 1.2 only (containerd 1.6 and 1.7 vendor 1.1.2); from 1.2 (containerd 2.0) libcni discards an unreadable cache file and runs DEL without prevResult. Which libcni the runtime is built with decides, on CRI-O too.',
  'kubelet-logs-plugin':
    "The kubelet logs \"Successfully added network\". The kubelet logs CRI errors only; plugin errors and stderr reach the runtime's journal (containerd's or CRI-O's), and some plugins, such as Calico, keep their own log file.",
  'failed-del-leaks-ip':
    'A failed DEL lets the pod go and leaks the IP. On containerd, a failed DEL with a recorded result fails StopPodSandbox (FailedKillPod, pod stuck Terminating, retried, IP still held); the silent leak is a failed ADD whose clean-up DEL also fails, on releases up to 1.6.8, from 1.6.37 and in 2.x (1.6.9 to 1.6.36 and 1.7 keep that sandbox as SANDBOX_UNKNOWN and tear it down again). CRI-O runs one DEL per deletion, with the config cached at ADD.',
} as const;
export type MythId = keyof typeof MYTHS;
export const MYTH_IDS = Object.keys(MYTHS) as MythId[];

/** What the course must cover (issue 7's list); every topic is some lesson's `covers`. */
export const TOPICS = [
  'add',
  'pod-ip',
  'del-idempotence',
  'check-drift',
  'chaining',
  'result-cache',
  'errors-retry',
  'partial-failure',
  'version',
  'restarts',
  'operating',
  'per-node',
  'gc-status',
  'libcni-cache',
  'real-nodes',
  // Issue 15's new lessons.
  'del',
  'rollout',
  'staging-drill',
  'orphans',
  'timeouts',
  'disable-check',
  'version-by-hand',
  // Short levels split from lessons 10-15.
  'reboot',
  'leak-cleanup',
  'gc',
  'cache-repair',
  // Issue 18's packet lessons (the cluster network, docs/dataplane.md).
  'packets',
  'cross-node',
  'masquerade',
  'vxlan',
  'cri-o',
] as const;
export type Topic = (typeof TOPICS)[number];

const ID_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const id = z
  .string()
  .check(
    z.refine((v) => ID_RE.test(v) && v.length <= 60, 'expected an id like "add-step-by-step"'),
  );
const text = z.string().check(z.minLength(1, 'expected some text'));

function regexProblem(v: string): string | null {
  try {
    new RegExp(v);
    return null;
  } catch (e) {
    return `not a valid regular expression: ${(e as Error).message}`;
  }
}

const pattern = z.string().check(
  z.superRefine((v, ctx) => {
    const p = regexProblem(v);
    if (p) ctx.issues.push({ code: 'custom', message: p, input: v });
  }),
);

const cidr = z.string().check(
  z.superRefine((v, ctx) => {
    const p = cidrProblem(v);
    if (p) ctx.issues.push({ code: 'custom', message: p, input: v });
  }),
);

const condition = z.string().check(
  z.superRefine((v, ctx) => {
    const r = parseCondition(v);
    if (!r.ok) ctx.issues.push({ code: 'custom', message: r.error, input: v });
  }),
);

// ---------------------------------------------------------------------------------------------
// Event matchers

/**
 * Picks trace events. Every field given must hold. Globs (`*`) in `node`, `source`, `target`;
 * `summary`, `stdin`, `stdout` are regular expressions (JavaScript syntax, unanchored).
 */
const baseMatcher = {
  kind: z.optional(z.union([z.enum(EVENT_KINDS), z.array(z.enum(EVENT_KINDS))])),
  node: z.optional(z.string()),
  source: z.optional(z.string()),
  target: z.optional(z.string()),
  summary: z.optional(pattern),
  /** exec: the CNI_COMMAND; libcni.call / libcni.return: the operation (AddNetworkList is ADD). */
  command: z.optional(z.enum(CNI_COMMANDS)),
  /** api: the reason of a Kubernetes event (FailedCreatePodSandBox, SandboxChanged, ...). */
  reason: z.optional(z.string()),
  /** log: text the journal line contains. */
  log: z.optional(z.string()),
  /** log: the unit that wrote it. */
  unit: z.optional(z.enum(['containerd', 'kubelet'])),
  /** exec: environment variables with these exact values ("" for an empty one). */
  env: z.optional(z.record(z.string(), z.string())),
  /** exec: a pattern the plugin's stdin matches. */
  stdin: z.optional(pattern),
  /** exit: a pattern the process's stdout matches. */
  stdout: z.optional(pattern),
  /** Whether it is a failure (a plugin exiting non-zero or killed, a failed libcni or CRI call). */
  failed: z.optional(z.boolean()),
  /** A pod name: exec (K8S_POD_NAME in CNI_ARGS), api (the pod or event object), cri (summary). */
  pod: z.optional(z.string()),
};

/**
 * `within`: an enclosing event (the exec or libcni call the event happened in, or one enclosing
 * that) matches this, e.g. host-local's DEL run by bridge during an ADD.
 */
export const eventMatcherSchema = z.strictObject({
  ...baseMatcher,
  within: z.optional(z.strictObject(baseMatcher)),
});
export type EventMatcher = z.output<typeof eventMatcherSchema>;

// ---------------------------------------------------------------------------------------------
// Goals

const count = {
  /** Exactly this many. */
  count: z.optional(z.int().check(z.minimum(0))),
  min: z.optional(z.int().check(z.minimum(0))),
  max: z.optional(z.int().check(z.minimum(0))),
};

/** `host`, or `pod:<name>` (the network namespace of the pod's newest sandbox). */
const netnsRef = z.string().check(
  z.refine(
    // {pod}: a challenge's placeholder, bound to a pod name when the challenge opens.
    (v) => v === 'host' || /^pod:([a-z0-9-]+\/)?([a-z0-9.*-]|\{\w+\})+$/.test(v),
    'expected "host" or "pod:<pod name>"',
  ),
);

/** From which point of the trace a goal about events counts: the start, or the learner's part. */
const since = z.optional(z.enum(['start', 'setup']));

/** A hint in three grades: a nudge, the concept behind it, the exact step. */
export const hintSchema = z.strictObject({ nudge: text, concept: text, step: text });
export type Hint = z.output<typeof hintSchema>;

const goalBase = {
  id,
  /** What the learner is asked to reach, in one sentence. */
  text,
  hint: z.optional(hintSchema),
};

export const goalSchema = z.discriminatedUnion('type', [
  /** Pods matching `pod` (a pattern, see docs/scenarios.md) exist and are so. */
  z.strictObject({
    type: z.literal('pod'),
    ...goalBase,
    pod: z.string(),
    status: z.optional(z.enum(POD_STATUSES)),
    node: z.optional(z.string()),
    /** The pod IP is inside this CIDR ("podCIDR": the node's pod CIDR). */
    ipIn: z.optional(z.union([cidr, z.literal('podCIDR')])),
    ip: z.optional(z.string()),
    /**
     * The IP is really the pod's: its sandbox records it, eth0 in its namespace carries it,
     * host-local holds a reservation for that sandbox and libcni cached the result.
     */
    wired: z.optional(z.boolean()),
  }),
  z.strictObject({ type: z.literal('pod-gone'), ...goalBase, pod: z.string() }),
  /** Files matching a glob (`*` within a name), counted; `contains`: each one's content has it. */
  z.strictObject({
    type: z.literal('files'),
    ...goalBase,
    node: z.string(),
    path: z.string().check(z.refine((v) => v.startsWith('/'), 'expected an absolute path')),
    contains: z.optional(z.string()),
    ...count,
  }),
  z.strictObject({
    type: z.literal('link'),
    ...goalBase,
    node: z.string(),
    netns: netnsRef,
    name: z.string(),
    kind: z.optional(z.enum(['loopback', 'veth', 'bridge', 'dummy', 'ifb'])),
    master: z.optional(z.string()),
    up: z.optional(z.boolean()),
    ...count,
  }),
  z.strictObject({
    type: z.literal('address'),
    ...goalBase,
    node: z.string(),
    netns: netnsRef,
    dev: z.string(),
    /** Exact address with prefix, e.g. 10.244.1.2/24. */
    address: z.optional(z.string()),
    /** Any IPv4 address inside this CIDR ("podCIDR": the node's). */
    within: z.optional(z.union([cidr, z.literal('podCIDR')])),
    present: z.optional(z.boolean()),
  }),
  z.strictObject({
    type: z.literal('route'),
    ...goalBase,
    node: z.string(),
    netns: netnsRef,
    /** `default` or a CIDR. */
    dst: z.string(),
    via: z.optional(z.string()),
    dev: z.optional(z.string()),
    present: z.optional(z.boolean()),
  }),
  z.strictObject({
    type: z.literal('journal'),
    ...goalBase,
    node: z.optional(z.string()),
    unit: z.optional(z.enum(['containerd', 'kubelet'])),
    contains: text,
    present: z.optional(z.boolean()),
    since,
  }),
  /** Kubernetes events (kubectl describe), summed over their counts. */
  z.strictObject({
    type: z.literal('k8s-event'),
    ...goalBase,
    reason: text,
    pod: z.optional(z.string()),
    since,
    ...count,
  }),
  /** Trace events matching `match`; with `last`, the latest of them must also match `last`. */
  z.strictObject({
    type: z.literal('trace'),
    ...goalBase,
    match: eventMatcherSchema,
    last: z.optional(eventMatcherSchema),
    since,
    ...count,
  }),
  /** Events matching each step, in this order (other events may come between). */
  z.strictObject({
    type: z.literal('sequence'),
    ...goalBase,
    steps: z.array(eventMatcherSchema).check(z.minLength(2)),
    since,
  }),
  /** The audit's findings (cluster.audit) on a node, or everywhere; at most `max` (default 0). */
  z.strictObject({
    type: z.literal('audit'),
    ...goalBase,
    node: z.optional(z.string()),
    kinds: z.optional(z.array(z.enum(AUDIT_KINDS))),
    max: z.optional(z.int().check(z.minimum(0))),
    min: z.optional(z.int().check(z.minimum(0))),
  }),
  z.strictObject({
    type: z.literal('node'),
    ...goalBase,
    node: z.string(),
    ready: z.optional(z.boolean()),
    networkReady: z.optional(z.boolean()),
  }),
  /**
   * Whether a packet from a pod's namespace reaches `to` and its answer comes back, as the
   * packet walk (docs/dataplane.md) says on the state of the step: an ICMP echo (ping) or, with
   * `port`, a TCP SYN (curl). Nothing is sent: the walk changes nothing.
   */
  z.strictObject({
    type: z.literal('reach'),
    ...goalBase,
    /** `pod:<name>`: the pod's network namespace. */
    from: netnsRef.check(z.refine((v) => v.startsWith('pod:'), 'expected "pod:<pod name>"')),
    /** `pod:<name>` (its IP) or an address. */
    to: z.string().check(z.minLength(1)),
    /** A TCP port (a SYN, as curl sends); without it an echo request (ping). */
    port: z.optional(z.int().check(z.minimum(1), z.maximum(65535))),
    /** Bytes of ICMP payload (ping -s); default 56. */
    size: z.optional(z.int().check(z.minimum(0), z.maximum(65000))),
    /** Whether the answer comes back (default true). */
    reachable: z.optional(z.boolean()),
  }),
  /** containerd's sandboxes on a node (optionally of one pod, in one state), counted. */
  z.strictObject({
    type: z.literal('sandboxes'),
    ...goalBase,
    node: z.string(),
    pod: z.optional(z.string()),
    state: z.optional(z.enum(['SANDBOX_READY', 'SANDBOX_NOTREADY'])),
    ...count,
  }),
]);
export type Goal = z.output<typeof goalSchema>;
export type GoalType = Goal['type'];

// ---------------------------------------------------------------------------------------------
// Quiz

export const quizSchema = z.strictObject({
  id,
  question: text,
  choices: z
    .array(
      z.strictObject({
        id: z.string().check(z.regex(/^[a-z]$/, 'expected a letter a-z')),
        text,
        /** A distractor built on one of §8's simplifications. */
        myth: z.optional(z.enum(MYTH_IDS as [MythId, ...MythId[]])),
        /**
         * Why this choice is wrong, from the misconception that makes it tempting; shown once the
         * question is answered. Every wrong choice has one, a right choice none (validate.ts).
         */
        whyNot: z.optional(text),
      }),
    )
    .check(z.minLength(2), z.maxLength(6)),
  /** The right choices (more than one: "select all that apply"). */
  answer: z.array(z.string()).check(z.minLength(1)),
  explanation: text,
  /** The step of a scenario that shows it: a lesson (default: this one) and an event in its run. */
  link: z.strictObject({ lesson: z.optional(id), at: eventMatcherSchema }),
});
export type QuizQuestion = z.output<typeof quizSchema>;

// ---------------------------------------------------------------------------------------------
// Predictions

/**
 * A question the narration pauses for: before the first event matching `when` after the learner
 * takes over is shown, the learner picks what it will be. Each choice says, as an event matcher
 * (`is`), what that event looks like if the choice is right, so the engine itself decides which
 * choice came true (predict.ts) and the tests check that the authored answer is what happens.
 */
export const predictionSchema = z.strictObject({
  id,
  /** The event predicted; the narration stops on the step before it. */
  when: eventMatcherSchema,
  /** Not the first `skip` matching events (e.g. 1: the second CHECK). */
  skip: z.optional(z.int().check(z.minimum(1))),
  question: text,
  choices: z
    .array(
      z.strictObject({
        id: z.string().check(z.regex(/^[a-z]$/, 'expected a letter a-z')),
        text,
        /** What the predicted event matches when this choice is what happens. */
        is: eventMatcherSchema,
      }),
    )
    .check(z.minLength(2), z.maxLength(5)),
  /** The choice that happens in the lesson's solution. */
  answer: z.string(),
  /** Why, shown once the learner has answered and the step is shown. */
  explanation: text,
});
export type Prediction = z.output<typeof predictionSchema>;

// ---------------------------------------------------------------------------------------------
// Lessons

const scenarioData = z.record(z.string(), z.unknown());

export const lessonSchema = z.strictObject({
  $schema: z.optional(z.string()),
  /** The format's version. */
  format: z.literal(1),
  id,
  title: text,
  summary: text,
  /** Minutes a learner needs, about. */
  minutes: z.int().check(z.minimum(1), z.maximum(120)),
  covers: z.array(z.enum(TOPICS)).check(z.minLength(1)),
  /** Topics the lesson relies on: a track must teach them (`covers`) before it. */
  needs: z.optional(z.array(z.enum(TOPICS))),
  objectives: z.array(text).check(z.minLength(1)),
  /** What the learner reads before the first step. */
  intro: text,
  /**
   * The starting scenario (docs/scenarios.md). Its actions bring the cluster to where the lesson
   * begins; the learner takes over after them.
   */
  start: scenarioData,
  narration: z
    .array(
      z.strictObject({
        when: eventMatcherSchema,
        /** Plain text; {node}, {source}, {target}, {summary} and {1}..{9} (groups of `summary`). */
        text,
        /** Only at the first matching event. */
        once: z.optional(z.boolean()),
        /** Not at the first `skip` matching events (e.g. 1: only at retries). */
        skip: z.optional(z.int().check(z.minimum(1))),
      }),
    )
    .check(z.minLength(1)),
  /** Questions the narration pauses for before the step they are about (see predictionSchema). */
  predictions: z.optional(z.array(predictionSchema)),
  goals: z.array(goalSchema).check(z.minLength(1)),
  solution: z.strictObject({
    /** Scenario actions that take the learner from the start to every goal. */
    actions: z.array(z.record(z.string(), z.unknown())).check(z.minLength(1)),
    /** After the last action: run until this holds (default idle) or the timeout (default 2m). */
    end: z.optional(
      z.strictObject({
        until: z.optional(condition),
        timeout: z.optional(z.union([z.string(), z.number()])),
      }),
    ),
    /** What the solution does, for the learner who asks for it. */
    explanation: text,
  }),
  quiz: z.array(quizSchema).check(z.minLength(1)),
});
export type Lesson = z.output<typeof lessonSchema>;

// ---------------------------------------------------------------------------------------------
// Tracks

/**
 * A track: lessons in an order where nothing is used before it is taught (every lesson's `needs`
 * is `covers` of a lesson before it). `src/course/tracks.json` lists them.
 */
export const trackSchema = z.strictObject({
  id,
  title: text,
  summary: text,
  lessons: z.array(id).check(z.minLength(1)),
});
export type Track = z.output<typeof trackSchema>;
export const tracksSchema = z.array(trackSchema).check(z.minLength(1));

/** A short level (issue 15): one idea, at most this many goals and minutes. */
export const SHORT_LEVEL = { goals: 3, minutes: 8 } as const;

// ---------------------------------------------------------------------------------------------
// Challenges

/**
 * One fault a challenge may hide: a fault of the catalogue (src/engine/faults) with its
 * parameters, the cause among `causes` that names it, and the fix steps (ids of fixes.ts) that
 * recover the node from it. The page never shows a variant; `hidden.ts` draws one by seed.
 */
export const variantSchema = z.strictObject({
  fault: id,
  params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
  cause: id,
  fix: z.array(id).check(z.minLength(1)),
});
export type Variant = z.output<typeof variantSchema>;

export const challengeSchema = z.strictObject({
  $schema: z.optional(z.string()),
  format: z.literal(1),
  id,
  title: text,
  difficulty: z.enum(['easy', 'medium', 'hard']),
  /**
   * The symptom as a ticket gives it; {node} is the affected node, {pod} the first pod the
   * cluster creates on it ({pod2}, {pod3}: the next ones; goals take the same placeholders).
   */
  ticket: text,
  /**
   * The cluster and its workload (a scenario, without faults): what runs before the candidate
   * arrives. The hidden fault is folded into the affected node before it boots (hidden.ts).
   */
  cluster: scenarioData,
  /** Nodes the fault may be on (default: every node of the cluster). */
  faultNodes: z.optional(z.array(z.string()).check(z.minLength(1))),
  /** The faults the seed chooses from. */
  variants: z.array(variantSchema).check(z.minLength(1)),
  /**
   * Root causes offered to the candidate (one is right for each hidden fault). `why`: why it is
   * not the cause of this ticket (a myth, or another fault that would show otherwise), true of the
   * release the node runs; shown after a solve or a give-up for every cause that was refused.
   */
  causes: z.array(z.strictObject({ id, text, why: text })).check(z.minLength(3), z.maxLength(10)),
  /**
   * When the hidden fault happens, for a fault that is not a node's state before it boots: after
   * the cluster's action `after` (an index; default: the last), once `until` holds (a
   * condition, docs/scenarios.md). A fault of a pod (`{pod}` by default) is injected into it.
   */
  inject: z.optional(
    z.strictObject({
      after: z.optional(z.int().check(z.minimum(0))),
      until: z.optional(condition),
    }),
  ),
  /** Fix steps offered (ids of fixes.ts); the candidate picks every step of the fix. */
  fixes: z.array(id).check(z.minLength(3), z.maxLength(12)),
  hints: z.array(hintSchema).check(z.minLength(1)),
  /** Goals that hold once the node has recovered ({node}: the affected node). */
  recovery: z.array(goalSchema).check(z.minLength(1)),
  /** Goals that show the ticket's symptom at the start ({node}: the affected node). */
  symptom: z.array(goalSchema).check(z.minLength(1)),
  /** What the candidate learns once solved, whatever the hidden fault was. */
  debrief: text,
});
export type Challenge = z.output<typeof challengeSchema>;

// ---------------------------------------------------------------------------------------------
// Messages

function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  return String(v);
}

/** One line per problem: `path: what is wrong`. */
export function issueLines(issues: readonly unknown[]): string[] {
  return (issues as SchemaIssue[]).flatMap((i) => {
    const at = pathText(i.path);
    switch (i.code) {
      case 'unrecognized_keys':
        return (i.keys ?? []).map((k) => `${pathText([...i.path, k])}: unknown field`);
      case 'invalid_type':
        return [
          i.input === undefined
            ? `${at}: required`
            : `${at}: expected ${i.expected}, got ${shown(i.input)}`,
        ];
      case 'invalid_value':
        return [
          `${at}: expected ${(i.values ?? []).map((v) => JSON.stringify(v)).join(' or ')}, got ${shown(i.input)}`,
        ];
      case 'invalid_union':
        if (i.note === 'No matching discriminator')
          return [`${at}: expected one of ${(i.options ?? []).map((o) => String(o)).join(', ')}`];
        return [`${at}: ${i.message}`];
      default:
        return [`${at}: ${i.message}`];
    }
  });
}
