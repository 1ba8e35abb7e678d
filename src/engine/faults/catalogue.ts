/**
 * The fault catalogue: what goes wrong with pod networking on real nodes, as data. Each fault
 * says what a learner reads about it (title, explanation), when it can be injected, its
 * parameters, the symptoms a real node shows, what an operator does about it, and how it is
 * made (`inject`) and undone (`recovery.actions`) with the cluster's own primitives
 * (injections.ts, recoveries.ts). An injection that is only a command an operator types is data:
 * a `shell` line with placeholders, or a `node-command`.
 *
 * The entries are typed (a wrong kind or a missing field does not compile) and checked against
 * the schema below by catalogue.test.ts (a broken entry fails it with a message naming the entry
 * and the field). The schema is built only when parseCatalogue runs, not when this module loads:
 * the app's first step needs the catalogue, not its validator.
 *
 * Texts in symptoms use placeholders: <id> a sandbox id (64 hex), <uid> the pod's uid, <pod> its
 * name, <ns> its sandbox's netns, <net> the network's name (containerd-net on a default node).
 */
import * as z from 'zod/mini';

/**
 * When a fault can be injected:
 * - `any`: into a node at any time; pods created (or retried) afterwards show it;
 * - `pod-running`: into a running pod's attachment (param `pod`);
 * - `before-delete`: into a running pod, which is then deleted (the symptoms are its teardown);
 * - `during-add`: while a pod is being created, at the moment a plugin of its ADD starts working
 *   (the cluster runs until then).
 */
export const WHEN = ['any', 'pod-running', 'before-delete', 'during-add'] as const;
export type When = (typeof WHEN)[number];

/**
 * What the line of a `shell` injection can name, in braces: `{cache}` the result cache file of
 * the pod's ready sandbox, `{plugin-path}` param plugin in the node's first bin dir, `{conflist}`
 * the file of the node's pod network, `{pod-netns}` the name of the pod's netns, `{pod-address}`
 * the first IPv4 address of its eth0 (address/prefix), `{host-veth}` the host end of its veth,
 * `{pod-bridge}` the bridge that veth is plugged into; for the network faults: `{hairpin-port}`
 * that veth when its hairpin mode is on, `{pod-masq-rule}` the pod's POSTROUTING jump to bridge's
 * ipMasq chain (as `iptables -S` writes it, after `-A POSTROUTING`), `{peer-route}` the pod CIDR
 * of the first other node that this node routes via that node's underlay address (host-gw),
 * `{peer-pod-cidr}` / `{peer-node-ip}` that node's pod CIDR and address (whether routed or not),
 * `{mtu-conflist}` the conflist when it sets an "mtu" and the node has a VXLAN device,
 * `{vxlan-mtu}` that device's MTU. Each fails, naming the parameter, when what it names is not
 * there, before anything is run.
 */
export const SHELL_PLACEHOLDERS = [
  'cache',
  'plugin-path',
  'conflist',
  'pod-netns',
  'pod-address',
  'host-veth',
  'pod-bridge',
  'hairpin-port',
  'pod-masq-rule',
  'peer-route',
  'peer-pod-cidr',
  'peer-node-ip',
  'mtu-conflist',
  'vxlan-mtu',
] as const;
export type ShellPlaceholder = (typeof SHELL_PLACEHOLDERS)[number];

/** Node commands the cluster carries out itself (its own steps, no shell's). */
export const NODE_COMMANDS = [
  'systemctl restart kubelet',
  'systemctl restart containerd',
  'reboot',
] as const;

export const PARAM_KINDS = [
  'node',
  'pod',
  'plugin',
  'build',
  'cniVersion',
  'choice',
  'count',
] as const;

/** The catalogue's zod schemas, built once on first use. */
function buildSchemas() {
  const ParamSpec = z.strictObject({
    kind: z.enum(PARAM_KINDS),
    description: z.string().check(z.minLength(1)),
    /** A value used when the parameter is not given (absent: required, unless `node`). */
    default: z.optional(z.union([z.string(), z.number()])),
    /** The values a `choice` accepts. */
    values: z.optional(z.array(z.string()).check(z.minLength(1))),
  });

  const Symptom = z.strictObject({
    /** Where a person sees it. */
    /** `traffic`: what ping, curl and the packet walk show. */
    where: z.enum([
      'kubectl',
      'event',
      'journal',
      'kernel',
      'ipam',
      'cache',
      'check',
      'node',
      'traffic',
    ]),
    text: z.string().check(z.minLength(1)),
  });

  /** How a fault is made. Parameters (node, pod, plugin, ...) come from the call. */
  const Inject = z.discriminatedUnion('kind', [
    /**
     * A command an operator types on the node, run by its shell (`rm {cache}`): `line`, or, with
     * `by` naming a choice parameter, the line for its value. {placeholders}: SHELL_PLACEHOLDERS.
     */
    z.strictObject({
      kind: z.literal('shell'),
      by: z.optional(z.string()),
      line: z.union([z.string(), z.record(z.string(), z.string())]),
    }),
    /** systemctl restart or reboot of the node, which the cluster carries out. */
    z.strictObject({ kind: z.literal('node-command'), command: z.enum(NODE_COMMANDS) }),
    /** The pod's result cache file is cut short after `keepBytes` bytes (a write lost in a crash). */
    z.strictObject({ kind: z.literal('truncate-cache'), keepBytes: z.number() }),
    /** The node's conflist gets `cniVersion` = param cniVersion. */
    z.strictObject({ kind: z.literal('set-cni-version') }),
    /** param plugin of param build is installed over the current binary. */
    z.strictObject({ kind: z.literal('install-build') }),
    /** host-local's range is filled with reservations of container ids nobody knows. */
    z.strictObject({ kind: z.literal('fill-ipam') }),
    /** An attachment from an earlier life: a reservation, and a cache file if `withCache`. */
    z.strictObject({ kind: z.literal('stale-attachment'), withCache: z.boolean() }),
    z.strictObject({ kind: z.literal('delete-netns') }),
    z.strictObject({ kind: z.literal('hang-plugin') }),
    /** The node's conflist is cut to its first half (a write caught midway). */
    z.strictObject({ kind: z.literal('half-write-conflist') }),
    /** param plugin writes a line that is not JSON to stdout before its output. */
    z.strictObject({ kind: z.literal('noisy-plugin') }),
  ]);

  /** What an operator does to recover, as something the simulation can do too. */
  const RecoveryAction = z.discriminatedUnion('kind', [
    /** Install param plugin again, of the node's build. */
    z.strictObject({ kind: z.literal('reinstall-plugin') }),
    /** Remove the result cache files of the pod's sandboxes that are no longer ready. */
    z.strictObject({ kind: z.literal('remove-cache') }),
    /** libcni GC of the node's pod network with the live sandboxes valid, as a runtime calls it (libcni v1.2). */
    z.strictObject({ kind: z.literal('cni-gc') }),
    z.strictObject({ kind: z.literal('set-cni-version'), cniVersion: z.string() }),
    /** Write the node's original conflist back. */
    z.strictObject({ kind: z.literal('restore-conflist') }),
    z.strictObject({ kind: z.literal('unhang-plugin') }),
    /** Remove netns mounts, reservations and cache files that no sandbox owns. */
    z.strictObject({ kind: z.literal('remove-orphans') }),
    /** Delete the pod and create it again (what its ReplicaSet would do). */
    z.strictObject({ kind: z.literal('recreate-pod') }),
    /**
     * Delete the pod network's bridge if it has no ports and an all-zero MAC: the kernel zeroes a
     * bridge's MAC when its last port goes, and bridge v1.1.1 then fails every ADD with "could not
     * set bridge's mac: invalid argument" (containernetworking/plugins PR #1265). The next ADD
     * creates the bridge afresh.
     */
    z.strictObject({ kind: z.literal('reset-portless-bridge') }),
    /** Nothing: the kubelet and containerd bring the node back by themselves. */
    z.strictObject({ kind: z.literal('none') }),
    /** A command an operator types on the node (placeholders as in a `shell` injection). */
    z.strictObject({ kind: z.literal('shell'), line: z.string() }),
  ]);

  const Fault = z.strictObject({
    id: z.string().check(z.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case')),
    title: z.string().check(z.minLength(1)),
    explanation: z.string().check(z.minLength(40)),
    when: z.enum(WHEN),
    /**
     * Whether a challenge may hide it: it leaves something to find and fix. Faults the node heals
     * by itself (a plain restart, a reboot) are not.
     */
    challenge: z.boolean(),
    /**
     * Whether, once it is injected with its default parameters, a pod created afterwards on its
     * node fails to start (stays ContainerCreating): a missing or refusing plugin, a full range, a
     * broken conflist. A restart, a reboot, a stale reservation, a pod's own fault or a network
     * fault let new pods run. Checked against the simulation by fails-new-pods.test.ts.
     */
    failsNewPods: z.boolean(),
    /**
     * Its symptoms and recovery name no runtime's behaviour (the kernel's only): offered on
     * CRI-O nodes too (inject.ts checkRuntime).
     */
    anyRuntime: z.optional(z.boolean()),
    params: z.record(z.string(), ParamSpec),
    symptoms: z.array(Symptom).check(z.minLength(1)),
    recovery: z.strictObject({
      steps: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
      actions: z.array(RecoveryAction).check(z.minLength(1)),
    }),
    inject: Inject,
  });
  return { ParamSpec, Symptom, Inject, RecoveryAction, Fault, Catalogue: z.array(Fault) };
}
type Schemas = ReturnType<typeof buildSchemas>;
let schemas: Schemas | null = null;

export type ParamSpec = z.infer<Schemas['ParamSpec']>;
export type Symptom = z.infer<Schemas['Symptom']>;
export type InjectSpec = z.infer<Schemas['Inject']>;
export type RecoveryActionSpec = z.infer<Schemas['RecoveryAction']>;
export type FaultDef = z.infer<Schemas['Fault']>;

/** zod issues as lines a person can act on: `faults[3] (plugin-missing).params.plugin.kind: ...`. */
export function formatIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  root: string,
  label?: (index: number) => string | undefined,
): string {
  return issues
    .map((i) => {
      let out = root;
      i.path.forEach((p, k) => {
        if (typeof p === 'number') {
          out += `[${p}]`;
          const l = k === 0 ? label?.(p) : undefined;
          if (l) out += ` (${l})`;
        } else out += `.${String(p)}`;
      });
      return `${out}: ${i.message}`;
    })
    .join('\n');
}

function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return JSON.stringify(v);
}

/** zod issues in plain words (zod/mini ships no messages of its own). */
function readableIssue(iss: Record<string, unknown>): string | undefined {
  const list = (vs: unknown) => (vs as unknown[]).map((v) => JSON.stringify(v)).join(', ');
  switch (iss['code']) {
    case 'invalid_type':
      return `expected ${String(iss['expected'])}, got ${shown(iss['input'])}`;
    case 'invalid_value':
      return `expected one of ${list(iss['values'])}, got ${shown(iss['input'])}`;
    case 'invalid_union': {
      const d = iss['discriminator'];
      if (typeof d !== 'string') return undefined;
      const input = iss['input'] as Record<string, unknown> | undefined;
      return `expected ${d} to be one of ${list(iss['options'])}, got ${shown(input?.[d])}`;
    }
    case 'too_small':
      if (iss['origin'] === 'string')
        return iss['minimum'] === 1
          ? 'must not be empty'
          : `must be at least ${String(iss['minimum'])} characters long`;
      return `must have at least ${String(iss['minimum'])} item${iss['minimum'] === 1 ? '' : 's'}`;
    case 'unrecognized_keys': {
      const keys = iss['keys'] as string[];
      return `unknown key${keys.length > 1 ? 's' : ''} ${list(keys)}`;
    }
    default:
      return undefined;
  }
}

/** Parses catalogue data; throws one readable message listing every problem. */
export function parseCatalogue(data: unknown): FaultDef[] {
  schemas ??= buildSchemas();
  const r = schemas.Catalogue.safeParse(data, {
    error: (iss) => readableIssue(iss as unknown as Record<string, unknown>),
  });
  if (!r.success) {
    const raw = Array.isArray(data) ? data : [];
    throw new Error(
      `invalid fault catalogue:\n${formatIssues(r.error.issues, 'faults', (i) => {
        const f = raw[i] as { id?: unknown } | undefined;
        return typeof f?.id === 'string' ? f.id : undefined;
      })}`,
    );
  }
  const seen = new Set<string>();
  const problems: string[] = [];
  r.data.forEach((f, i) => {
    if (seen.has(f.id)) problems.push(`faults[${i}] (${f.id}).id: duplicate id`);
    seen.add(f.id);
    for (const [name, p] of Object.entries(f.params)) {
      if (p.kind === 'choice' && !p.values)
        problems.push(`faults[${i}] (${f.id}).params.${name}.values: a choice needs values`);
      if (p.kind === 'choice' && p.default !== undefined && !p.values?.includes(String(p.default)))
        problems.push(`faults[${i}] (${f.id}).params.${name}.default: not one of its values`);
    }
    const inj = f.inject;
    if (inj.kind === 'shell') {
      const where = `faults[${i}] (${f.id}).inject`;
      const by = inj.by === undefined ? undefined : f.params[inj.by];
      if (typeof inj.line === 'string') {
        if (inj.by !== undefined) problems.push(`${where}.by: only for lines by choice`);
      } else if (by?.kind !== 'choice')
        problems.push(`${where}.by: lines by choice need \`by\` naming a choice parameter`);
      else if (Object.keys(inj.line).sort().join() !== [...(by.values ?? [])].sort().join())
        problems.push(`${where}.line: one line for each value of ${inj.by}`);
      const lines = typeof inj.line === 'string' ? [inj.line] : Object.values(inj.line);
      for (const l of lines)
        for (const m of l.matchAll(/\{([^}]*)\}/g))
          if (!(SHELL_PLACEHOLDERS as readonly string[]).includes(m[1]!))
            problems.push(`${where}.line: unknown placeholder {${m[1]!}}`);
    }
    f.recovery.actions.forEach((a, k) => {
      if (a.kind !== 'shell') return;
      for (const m of a.line.matchAll(/\{([^}]*)\}/g))
        if (!(SHELL_PLACEHOLDERS as readonly string[]).includes(m[1]!))
          problems.push(
            `faults[${i}] (${f.id}).recovery.actions[${k}].line: unknown placeholder {${m[1]!}}`,
          );
    });
    const needsPod = f.when !== 'any';
    if (needsPod && !f.params['pod'])
      problems.push(`faults[${i}] (${f.id}).params.pod: required when "when" is ${f.when}`);
    const then = f.params['then'];
    if (f.when === 'before-delete' && (then?.kind !== 'choice' || then.default !== 'delete-pod'))
      problems.push(
        `faults[${i}] (${f.id}).params.then: a before-delete fault needs the choice THEN`,
      );
  });
  if (problems.length) throw new Error(`invalid fault catalogue:\n${problems.join('\n')}`);
  return r.data;
}

// -------------------------------------------------------------------------------------------------
// The catalogue

const NODE = {
  kind: 'node',
  description: 'The node (default: the pod’s node, or the only node of the cluster).',
} as const;
const POD = { kind: 'pod', description: 'The pod, as name or namespace/name.' } as const;
/** What follows a before-delete fault: the pod's deletion (its symptoms are its teardown). */
const THEN: ParamSpec = {
  kind: 'choice',
  description: 'What follows: the pod is deleted, or nothing yet (delete it yourself later).',
  default: 'delete-pod',
  values: ['delete-pod', 'nothing'],
};

const DATA: readonly FaultDef[] = [
  {
    id: 'cache-corrupted',
    title: 'Corrupted result cache',
    explanation:
      'libcni keeps the result of every successful ADD in /var/lib/cni/results/<net>-<id>-<ifname> and reads it back as prevResult for DEL. Here the file was cut short (a write lost when the node crashed mid-write; a full disk leaves a new file empty instead, and existing files whole). libcni before v1.2 (containerd 1.6 and 1.7 vendor v1.0.1 – v1.1.2) cannot parse it and fails the DEL before running any plugin, so StopPodSandbox fails on every retry: the pod stays Terminating and keeps its IP. libcni v1.2 and newer discard an unreadable cache file and run DEL without prevResult, so the same fault heals itself there.',
    when: 'before-delete',
    challenge: true,
    failsNewPods: false,
    params: { pod: POD, then: THEN },
    symptoms: [
      { where: 'kubectl', text: 'the pod stays Terminating, its IP still shown' },
      {
        where: 'event',
        text: 'Warning FailedKillPod: error killing pod: failed to "KillPodSandbox" for "<uid>" with KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for sandbox \\"<id>\\": failed to get network \\"<net>\\" cached result: decoding version from network config: unexpected end of JSON input"',
      },
      {
        where: 'journal',
        text: 'containerd: level=error msg="StopPodSandbox for \\"<id>\\" failed" error="failed to destroy network for sandbox ...", again at every retry (10-15 s)',
      },
      {
        where: 'ipam',
        text: 'the reservation /var/lib/cni/networks/<net>/<ip> stays: no plugin ran',
      },
      { where: 'kernel', text: 'the netns mount, the veth pair and the ipMasq chain stay' },
      { where: 'cache', text: 'the truncated cache file stays' },
    ],
    recovery: {
      steps: [
        'Find the sandbox id in the FailedKillPod event or the containerd journal.',
        'Remove its cache file: rm /var/lib/cni/results/<net>-<id>-eth0. The next retry runs DEL without prevResult (bridge and host-local need none) and the pod goes.',
        'Or run a containerd built with libcni v1.2+, which does this by itself.',
      ],
      actions: [{ kind: 'remove-cache' }],
    },
    inject: { kind: 'truncate-cache', keepBytes: 48 },
  },
  {
    id: 'cache-deleted',
    title: 'Deleted result cache',
    explanation:
      'Someone removed a running pod’s result cache file (a clean-up script, a wiped /var/lib/cni). Nothing breaks at once: the kubelet and containerd never read it while the pod runs. DEL runs without prevResult, which the reference plugins tolerate, so deleting the pod still cleans up. What is lost is CHECK: libcni sends no prevResult and the bridge plugin refuses with "Required prevResult missing"; and libcni v1.2 GC no longer knows the attachment exists.',
    when: 'pod-running',
    challenge: true,
    failsNewPods: false,
    params: { pod: POD },
    symptoms: [
      { where: 'kubectl', text: 'the pod stays Running; nothing in its events' },
      { where: 'check', text: 'CHECK (as a runtime calls libcni): Required prevResult missing' },
      { where: 'cache', text: '/var/lib/cni/results/<net>-<id>-eth0 is gone' },
      {
        where: 'journal',
        text: 'on deletion: StopPodSandbox and TearDown succeed (DEL without prevResult)',
      },
    ],
    recovery: {
      steps: [
        'Nothing to repair for the pod’s traffic; deleting the pod still cleans up everything.',
        'To have CHECK (and GC) work again, let the pod be recreated: kubectl delete pod <pod>; its ReplicaSet creates a new one with a new cache file.',
      ],
      actions: [{ kind: 'recreate-pod' }],
    },
    inject: { kind: 'shell', line: 'rm {cache}' },
  },
  {
    id: 'cni-version-unsupported',
    title: 'Conflist cniVersion newer than a plugin supports',
    explanation:
      'The conflist asks for a spec version (here 1.1.0) that the installed plugins (v1.1.1, up to 1.0.0) do not know. libcni passes the list’s cniVersion to every plugin unchanged and there is no negotiation: each plugin’s skeleton refuses with "incompatible CNI versions" before doing anything. containerd loads the file happily (it does not check versions), so the node stays Ready while every new pod fails (up to 2.0.0: from 2.0.1 containerd runs STATUS on every status poll for a list at 1.1.0, the old plugins refuse it with missing containerID, and the node goes NotReady, new pods waiting with NetworkNotReady instead); the clean-up DEL fails the same way but nothing had been allocated. containerd ≤ 1.6.8, 1.6.37+ and 2.x drop that clean-up error and forget the sandbox; 1.6.9 – 1.6.36 and 1.7 (the default node runs 1.7.22) keep it as SANDBOX_UNKNOWN, and the kubelet’s StopPodSandbox of it fails the same way until the version is fixed (1.7.23+ stop it without a DEL).',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: {
      node: NODE,
      cniVersion: { kind: 'cniVersion', description: 'The version written.', default: '1.1.0' },
    },
    symptoms: [
      {
        where: 'kubectl',
        text: 'new pods stay ContainerCreating; the node is Ready (containerd ≤ 2.0.0; from 2.0.1 NotReady: Network plugin returns error: missing containerID)',
      },
      {
        where: 'event',
        text: 'Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "<id>": plugin type="bridge" failed (add): incompatible CNI versions; config is "1.1.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0" "1.0.0"]',
      },
      {
        where: 'journal',
        text: 'containerd: level=error msg="Failed to destroy network for sandbox \\"<id>\\"" error="plugin type=\\"portmap\\" failed (delete): incompatible CNI versions; config is \\"1.1.0\\", ..." (the clean-up DEL fails at portmap the same way)',
      },
      {
        where: 'journal',
        text: 'containerd 1.6.9 – 1.6.36 and 1.7: encountered an error cleaning up failed sandbox "<id>", marking sandbox state as SANDBOX_UNKNOWN; then SandboxChanged, and a StopPodSandbox that fails on every sync',
      },
      { where: 'ipam', text: 'nothing allocated: the plugins refuse before any work' },
    ],
    recovery: {
      steps: [
        'Set cniVersion to a version every plugin of the chain supports (1.0.0 for plugins v1.1.1), or install plugins that support it (v1.6.2 supports 1.1.0).',
        'containerd reloads the file by itself (fsnotify); the next retry succeeds.',
      ],
      actions: [{ kind: 'set-cni-version', cniVersion: '1.0.0' }],
    },
    inject: { kind: 'set-cni-version' },
  },
  {
    id: 'old-plugin-in-chain',
    title: 'A chain mixing an old plugin build',
    explanation:
      'One plugin of the chain is an old build (portmap v0.8.7 supports spec versions up to 0.4.0) in a 1.0.0 list. bridge runs first and succeeds: veth, IP, masquerade rule. Then portmap refuses the version and the ADD fails. libcni does not roll back; containerd’s clean-up DEL runs the chain in reverse order and fails at portmap again, so bridge’s DEL never runs. What follows depends on the containerd release. ≤ 1.6.8, 1.6.37+ and 2.x drop the clean-up error (no CNI result was stored), remove the netns and forget the sandbox: every retry leaks one IP reservation and one masquerade chain until the range is exhausted. 1.6.9 – 1.6.36 and 1.7.0 – 1.7.22 (the default node) keep the sandbox as SANDBOX_UNKNOWN with its netns and address; the kubelet stops it (SandboxChanged), that DEL fails the same way, and no new sandbox is made: one address held, none leaked, until portmap is fixed. 1.7.23+ keep it too but stop it without any DEL, so each retry leaks one reservation and one chain, owned by a NOTREADY sandbox until the kubelet’s garbage collection removes it (every minute, all but the pod’s newest sandbox), then by none.',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: {
      node: NODE,
      plugin: { kind: 'plugin', description: 'The plugin replaced.', default: 'portmap' },
      build: { kind: 'build', description: 'Its build.', default: 'v0.8.7' },
    },
    symptoms: [
      { where: 'kubectl', text: 'new pods stay ContainerCreating' },
      {
        where: 'event',
        text: 'Warning FailedCreatePodSandBox: ... plugin type="portmap" failed (add): incompatible CNI versions; config is "1.0.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0"]',
      },
      {
        where: 'journal',
        text: 'containerd: level=error msg="Failed to destroy network for sandbox \\"<id>\\"" error="plugin type=\\"portmap\\" failed (delete): incompatible CNI versions; ..."',
      },
      {
        where: 'ipam',
        text: '≤ 1.6.8, 1.6.37+, 2.x: one more reservation per attempt, owned by a sandbox that is gone; 1.7.23+: one more per attempt too, owned by a NOTREADY sandbox until the kubelet’s garbage collection removes it; 1.6.9 – 1.6.36, 1.7.0 – 1.7.22: one reservation, held by a SANDBOX_UNKNOWN sandbox',
      },
      {
        where: 'journal',
        text: 'containerd 1.6.9 – 1.6.36 and 1.7: encountered an error cleaning up failed sandbox "<id>", marking sandbox state as SANDBOX_UNKNOWN',
      },
      { where: 'kernel', text: 'one more CNI-… masquerade chain in nat per leaked reservation' },
      { where: 'cache', text: 'no cache file: the ADD never completed' },
    ],
    recovery: {
      steps: [
        'Install the plugin build that matches the others (v1.1.1); the next retry succeeds (on 1.6.9 – 1.6.36 and 1.7.0 – 1.7.22 the kubelet’s StopPodSandbox of the kept sandbox succeeds first, releasing its address).',
        'Where addresses leaked (≤ 1.6.8, 1.6.37+, 1.7.23+, 2.x), remove them by hand: every file in /var/lib/cni/networks/<net>/ whose first line is a container id no sandbox has (crictl pods -q). The leaked nat chains need iptables -t nat -D/-F/-X (or a reboot).',
      ],
      actions: [{ kind: 'reinstall-plugin' }, { kind: 'remove-orphans' }],
    },
    inject: { kind: 'install-build' },
  },
  {
    id: 'plugin-missing',
    title: 'Plugin binary missing from CNI_PATH',
    explanation:
      'The first plugin of the chain is not in /opt/cni/bin (a package removed it, or it was never installed). libcni looks the binary up before running it and fails the ADD with "failed to find plugin"; nothing ran, so nothing leaks. The clean-up DEL fails too when it reaches that plugin. containerd ≤ 1.6.8, 1.6.37+ and 2.x log it and forget the sandbox; 1.6.9 – 1.6.36 and 1.7 (the default node) keep it as SANDBOX_UNKNOWN, and on 1.6.9 – 1.6.36 and 1.7.0 – 1.7.22 the kubelet’s StopPodSandbox of it fails the same way until the plugin is back. The node stays Ready: containerd’s network status asks only whether a config was loaded, not whether its plugins are installed (only from 2.0.1, and only for a list at cniVersion 1.1.0, does it run the plugins’ STATUS).',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: {
      node: NODE,
      plugin: { kind: 'plugin', description: 'The plugin removed.', default: 'bridge' },
    },
    symptoms: [
      { where: 'kubectl', text: 'new pods stay ContainerCreating; the node is Ready' },
      {
        where: 'event',
        text: 'Warning FailedCreatePodSandBox: ... failed to setup network for sandbox "<id>": plugin type="bridge" failed (add): failed to find plugin "bridge" in path [/opt/cni/bin]',
      },
      {
        where: 'journal',
        text: 'containerd: level=error msg="Failed to destroy network for sandbox \\"<id>\\"" error="plugin type=\\"bridge\\" failed (delete): failed to find plugin \\"bridge\\" in path [/opt/cni/bin]"',
      },
      {
        where: 'journal',
        text: 'containerd 1.6.9 – 1.6.36 and 1.7: encountered an error cleaning up failed sandbox "<id>", marking sandbox state as SANDBOX_UNKNOWN; then StopPodSandbox for it fails (1.7.0 – 1.7.22)',
      },
      { where: 'ipam', text: 'no reservation, no cache file, no veth' },
    ],
    recovery: {
      steps: [
        'Install the plugin again into /opt/cni/bin; the next retry (10-15 s) succeeds (after the kubelet has stopped the sandbox kept as SANDBOX_UNKNOWN, on 1.6.9 – 1.6.36 and 1.7).',
      ],
      actions: [{ kind: 'reinstall-plugin' }],
    },
    inject: { kind: 'shell', line: 'rm {plugin-path}' },
  },
  {
    id: 'ipam-exhausted',
    title: 'IPAM exhaustion',
    explanation:
      'host-local keeps one file per reserved address in /var/lib/cni/networks/<net>/. When every address of the range has a file, the next ADD fails in bridge’s IPAM step. Here the files belong to container ids no runtime knows: the residue of months of leaked reservations (failed ADDs whose clean-up DEL failed, reboots with lost runtime state), the usual way a /24 runs out on a node running far fewer pods.',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: {
      node: NODE,
      free: { kind: 'count', description: 'Addresses left free.', default: 0 },
    },
    symptoms: [
      { where: 'kubectl', text: 'new pods stay ContainerCreating; running pods are fine' },
      {
        where: 'event',
        text: 'Warning FailedCreatePodSandBox: ... plugin type="bridge" failed (add): failed to allocate for range 0: no IP addresses available in range set: 10.244.1.1-10.244.1.254',
      },
      { where: 'ipam', text: 'a file for every address of the range except the gateway' },
      {
        where: 'node',
        text: 'the audit lists every leaked reservation (held by a container id no sandbox has)',
      },
    ],
    recovery: {
      steps: [
        'List the reservations whose container id is no current sandbox (compare the first line of each file with crictl pods -q --no-trunc) and remove those files.',
        'Find what leaked them (see silent-ip-leak); the next retry succeeds.',
        'Where every ADD since cni0 was created has failed (a new node, or one rebooted since), cni0 is left without ports and with an all-zero MAC: delete it (ip link del cni0) or the next ADD fails with "could not set bridge\'s mac: invalid argument". (bridge pins cni0’s MAC when it first puts the gateway address on it; a pinned MAC stays when the last port leaves.)',
      ],
      actions: [{ kind: 'remove-orphans' }, { kind: 'reset-portless-bridge' }],
    },
    inject: { kind: 'fill-ipam' },
  },
  {
    id: 'del-fails-with-result',
    title: 'DEL failing for a pod with a recorded result',
    explanation:
      'The pod was set up fine, so containerd holds its CNI result. Then a plugin of the chain went missing (a node upgrade dropped portmap) and the pod is deleted. DEL fails at that plugin; because the setup had completed, containerd fails StopPodSandbox instead of ignoring the error. The kubelet reports FailedKillPod and retries every 10-15 s, the pod stays Terminating and its IP stays reserved: a failed DEL does not silently leak, it blocks.',
    when: 'before-delete',
    challenge: true,
    failsNewPods: true,
    params: {
      pod: POD,
      then: THEN,
      plugin: { kind: 'plugin', description: 'The plugin that goes missing.', default: 'portmap' },
    },
    symptoms: [
      { where: 'kubectl', text: 'the pod stays Terminating, its IP still shown' },
      { where: 'event', text: 'Normal Killing: Stopping container <pod>' },
      {
        where: 'event',
        text: 'Warning FailedKillPod (xN): error killing pod: failed to "KillPodSandbox" for "<uid>" with KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for sandbox \\"<id>\\": plugin type=\\"portmap\\" failed (delete): failed to find plugin \\"portmap\\" in path [/opt/cni/bin]"',
      },
      {
        where: 'journal',
        text: 'kubelet: "StopPodSandbox from runtime service failed" and "Error syncing pod, skipping" at every retry',
      },
      { where: 'ipam', text: 'the pod’s reservation stays' },
      { where: 'cache', text: 'the cache file stays (kept for the retry’s prevResult)' },
    ],
    recovery: {
      steps: [
        'Install the plugin again; the next retry’s DEL succeeds and the pod goes, leaving nothing behind.',
      ],
      actions: [{ kind: 'reinstall-plugin' }],
    },
    inject: { kind: 'shell', line: 'rm {plugin-path}' },
  },
  {
    id: 'silent-ip-leak',
    title: 'A failed ADD whose clean-up DEL also fails (the silent IP leak)',
    explanation:
      'The second plugin of the chain is missing. bridge allocates an IP, creates the veth and the masquerade rule, then libcni fails to find portmap. containerd’s clean-up DEL runs the chain in reverse, fails at portmap first and never reaches bridge. On containerd ≤ 1.6.8, 1.6.37+ and 2.x, since the sandbox never had a result, containerd only logs the error, removes the netns (the veth goes with it) and forgets the sandbox: the reservation and the nat chain stay, owned by nobody, one more at every retry, and nothing on the pod says so. 1.6.9 – 1.6.36 and 1.7.0 – 1.7.22 (the default node) do not leak: they keep the sandbox as SANDBOX_UNKNOWN with its netns and address, the kubelet records SandboxChanged and calls StopPodSandbox, whose DEL fails the same way, so no new sandbox is made until portmap is back. 1.7.23+ keep it but stop it without a DEL: the leak comes back, owned by NOTREADY sandboxes until the kubelet’s garbage collection removes them (every minute, all but the pod’s newest sandbox).',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: {
      node: NODE,
      plugin: { kind: 'plugin', description: 'The plugin removed.', default: 'portmap' },
    },
    symptoms: [
      { where: 'kubectl', text: 'new pods stay ContainerCreating' },
      {
        where: 'event',
        text: 'Warning FailedCreatePodSandBox: ... plugin type="portmap" failed (add): failed to find plugin "portmap" in path [/opt/cni/bin]',
      },
      {
        where: 'journal',
        text: 'containerd: level=error msg="Failed to destroy network for sandbox \\"<id>\\"" error="plugin type=\\"portmap\\" failed (delete): failed to find plugin \\"portmap\\" in path [/opt/cni/bin]"',
      },
      {
        where: 'ipam',
        text: '≤ 1.6.8, 1.6.37+, 1.7.23+, 2.x: one leaked reservation per attempt (10.244.1.2, .3, .4, ...); 1.6.9 – 1.6.36, 1.7.0 – 1.7.22: one, held by the SANDBOX_UNKNOWN sandbox',
      },
      {
        where: 'journal',
        text: 'containerd 1.6.9 – 1.6.36 and 1.7: encountered an error cleaning up failed sandbox "<id>", marking sandbox state as SANDBOX_UNKNOWN; then StopPodSandbox for it fails (1.7.0 – 1.7.22)',
      },
      {
        where: 'kernel',
        text: 'one leaked CNI-… masquerade chain per leaked reservation; no veth',
      },
      { where: 'cache', text: 'no cache file for any of them' },
    ],
    recovery: {
      steps: [
        'Install the plugin again; the next retry succeeds (with the next free IP). On 1.6.9 – 1.6.36 and 1.7.0 – 1.7.22 the kubelet’s StopPodSandbox of the kept sandbox succeeds first and releases its address.',
        'Where addresses leaked, remove the reservations by hand (their owners are no sandbox); the nat chains need iptables clean-up or a reboot. GC cannot find them: they have no cache file.',
      ],
      actions: [{ kind: 'reinstall-plugin' }, { kind: 'remove-orphans' }],
    },
    inject: { kind: 'shell', line: 'rm {plugin-path}' },
  },
  {
    id: 'stale-attachment',
    title: 'Stale attachment left from an earlier life',
    explanation:
      'A reservation and its result cache file remain from a sandbox the runtime no longer knows (its state was wiped, or the node was rebuilt with /var/lib/cni kept). host-local never hands that address out again. libcni v1.2’s GC finds the attachment through the cache file, sees it is not among the valid ones (the ready sandboxes) and runs a full DEL for it with the cached netns and arguments: the reservation and the cache file go.',
    when: 'any',
    challenge: true,
    failsNewPods: false,
    params: { node: NODE },
    symptoms: [
      { where: 'ipam', text: 'a reservation whose container id is no sandbox' },
      { where: 'cache', text: 'a cache file for that container id' },
      {
        where: 'node',
        text: 'that IP is skipped: the next pod gets the following address',
      },
    ],
    recovery: {
      steps: [
        'Confirm that no sandbox has the container id (crictl pods -q --no-trunc does not list it), then release the attachment: a GC of the node’s network with the live sandboxes as valid attachments, as a runtime calls libcni v1.2 (CRI-O 1.32+ runs one at start; containerd never does, so there an operator removes the reservation and the cache file by hand). It DELs every cached attachment that no ready sandbox owns. Never cnitool gc: it passes none of the runtime’s attachments as valid and tears down every pod of the network.',
      ],
      actions: [{ kind: 'cni-gc' }],
    },
    inject: { kind: 'stale-attachment', withCache: true },
  },
  {
    id: 'stale-reservation',
    title: 'Stale host-local reservation without a cache file',
    explanation:
      'Only the reservation file remains from an earlier life (the cache was written by nobody: a failed ADD, or it was removed). GC cannot see it: libcni finds stale attachments through cache files only, and host-local’s own GC is a placeholder in the reference plugins (a FIXME GC comment, still in v1.9.1), so the reservation survives GC by design. An operator removes it by hand.',
    when: 'any',
    challenge: true,
    failsNewPods: false,
    params: { node: NODE },
    symptoms: [
      { where: 'ipam', text: 'a reservation whose container id is no sandbox, and no cache file' },
      {
        where: 'node',
        text: 'that IP is skipped; a GC with the live sandboxes valid succeeds and leaves it',
      },
    ],
    recovery: {
      steps: [
        'Remove the file by hand after checking that no sandbox has that id (crictl pods -q --no-trunc).',
      ],
      actions: [{ kind: 'remove-orphans' }],
    },
    inject: { kind: 'stale-attachment', withCache: false },
  },
  {
    id: 'netns-deleted',
    title: 'Pod netns deleted before DEL',
    explanation:
      '`ip netns del cni-…` removes the bind mount, not the namespace: the pause process is inside it and keeps it, its veth and the pod’s traffic alive. The pod runs on. When it is deleted, stopping the pause process destroys the namespace (and the veth pair) before DEL; containerd sees the netns path is gone and runs DEL with an empty CNI_NETNS. bridge then only releases the IP and returns early, so its masquerade chain stays in the nat table.',
    when: 'pod-running',
    challenge: true,
    failsNewPods: false,
    params: { pod: POD },
    symptoms: [
      { where: 'kubectl', text: 'the pod stays Running; deleting it succeeds' },
      {
        where: 'kernel',
        text: '/var/run/netns/cni-… is gone but the namespace lives on (held by the pause process)',
      },
      {
        where: 'check',
        text: 'CHECK (as a runtime calls libcni): failed to open netns "/var/run/netns/cni-…": ... no such file or directory',
      },
      {
        where: 'kernel',
        text: 'after deletion: the CNI-… masquerade chain of the pod stays in nat',
      },
    ],
    recovery: {
      steps: [
        'Nothing blocks: the pod deletes and its IP is released.',
        'The leftover nat chain (CNI-… with the sandbox id in its comment) has to be removed with iptables, or goes with the next reboot.',
      ],
      actions: [{ kind: 'none' }],
    },
    inject: { kind: 'delete-netns' },
  },
  {
    id: 'add-fails-midway',
    title: 'ADD failing midway, after the veth exists',
    explanation:
      'bridge creates the bridge and the veth pair first and calls its IPAM plugin afterwards. With host-local missing, that call fails: the pod end of the veth already sits in the sandbox’s netns. The clean-up DEL fails as well: bridge v1.1.1 deletes eth0 first (the veth pair goes with it) and then fails to run host-local for the release (v1.1.0 and older call IPAM first, and leave the veth to the netns). containerd ≤ 1.6.8, 1.6.37+ and 2.x ignore that and remove the netns; 1.6.9 – 1.6.36 and 1.7 keep the sandbox and its netns as SANDBOX_UNKNOWN until a StopPodSandbox succeeds (1.7.0 – 1.7.22: once host-local is back; 1.7.23+: at once, without a DEL). On a node where this was the first ADD there is a sting in the tail: the bridge lost its only port, so the kernel zeroed its MAC, and bridge v1.1.1 pins the MAC it read before attaching the new veth: the next ADD, even once host-local is back, fails with "could not set bridge\'s mac: invalid argument". That ADD leaves the gateway address on cni0, so ensureAddr returns early on the one after, which succeeds (containernetworking/plugins PR #1265).',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: {
      node: NODE,
      plugin: { kind: 'plugin', description: 'The IPAM plugin removed.', default: 'host-local' },
    },
    symptoms: [
      { where: 'kubectl', text: 'new pods stay ContainerCreating' },
      {
        where: 'event',
        text: 'Warning FailedCreatePodSandBox: ... plugin type="bridge" failed (add): failed to find plugin "host-local" in path [/opt/cni/bin]',
      },
      {
        where: 'journal',
        text: 'containerd: level=error msg="Failed to destroy network for sandbox \\"<id>\\"" error="plugin type=\\"bridge\\" failed (delete): failed to find plugin \\"host-local\\" in path [/opt/cni/bin]"',
      },
      {
        where: 'kernel',
        text: 'the trace shows the veth created, then deleted by the clean-up DEL (bridge removes eth0 before it calls host-local)',
      },
      {
        where: 'kernel',
        text: 'where no ADD had succeeded since cni0 was created: cni0 left without ports and with MAC 00:00:00:00:00:00',
      },
    ],
    recovery: {
      steps: [
        'Install the IPAM plugin again; the next retry succeeds (on 1.6.9 – 1.6.36 and 1.7.0 – 1.7.22 after the kubelet’s StopPodSandbox of the kept sandbox, whose DEL then releases nothing: no address was reserved).',
        'If the bridge has no ports and an all-zero MAC (ip link show cni0), delete it (ip link del cni0): otherwise the next ADD fails with "failed to set bridge addr: could not set bridge\'s mac: invalid argument". The next ADD creates it again.',
      ],
      actions: [{ kind: 'reinstall-plugin' }, { kind: 'reset-portless-bridge' }],
    },
    inject: { kind: 'shell', line: 'rm {plugin-path}' },
  },
  {
    id: 'plugin-hangs',
    title: 'A plugin that hangs until the runtime request times out',
    explanation:
      'A plugin blocks (a lock, an unreachable datastore). containerd sets no timeout of its own on ADD: the call ends when the kubelet’s deadline expires and cancels RunPodSandbox, which gets twice --runtime-request-timeout (2 × 2 min = 4 min; other CRI calls get 2 min). The cancelled context kills the plugin (signal: killed), the ADD fails, containerd’s clean-up DEL runs under a context of its own, capped at 1 minute, and the kubelet retries after its back-off, to hang again. A retry that comes while the clean-up still runs fails at once: failed to reserve sandbox name.',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: {
      node: NODE,
      plugin: { kind: 'plugin', description: 'The plugin that hangs.', default: 'bridge' },
      command: {
        kind: 'choice',
        description: 'The CNI command it hangs on.',
        default: 'ADD',
        values: ['ADD', 'DEL', 'CHECK'],
      },
    },
    symptoms: [
      { where: 'kubectl', text: 'new pods stay ContainerCreating for minutes' },
      {
        where: 'event',
        text: 'Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded (after 4 min)',
      },
      {
        where: 'journal',
        text: 'containerd: RunPodSandbox ... failed, error ... plugin type="bridge" failed (add): netplugin failed with no error message: signal: killed',
      },
    ],
    recovery: {
      steps: [
        'Make the plugin answer again (restore its datastore, kill what holds its lock); the next retry succeeds.',
      ],
      actions: [{ kind: 'unhang-plugin' }],
    },
    inject: { kind: 'hang-plugin' },
  },
  {
    id: 'bad-output',
    title: 'A plugin whose stdout is not JSON',
    explanation:
      'A plugin binary was replaced by a wrapper (or a debug build) that logs a line to stdout before running the real plugin. The plugin does its work and exits 0, but a CNI plugin’s stdout is its result: libcni parses it as JSON (invoke fixupResultVersion) and fails with "failed to unmarshal raw result: invalid character \'d\' looking for beginning of value", wrapped as plugin type="<plugin>" failed (add). An IPAM plugin’s output is parsed by the plugin that delegates to it (bridge), which fails the same way. Nothing is cached, containerd’s clean-up DEL succeeds (libcni ignores DEL’s stdout) and releases the address, and the kubelet retries after its back-off, to fail again: no leak, on every release. containerd 1.6.0 – 1.6.4 vendor libcni v1.0.1 / v1.1.0, whose text differs ("decoding version from network config: …"); the fault is refused there.',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: {
      node: NODE,
      plugin: {
        kind: 'plugin',
        description: 'The plugin that writes to stdout.',
        default: 'bridge',
      },
    },
    symptoms: [
      { where: 'kubectl', text: 'new pods stay ContainerCreating' },
      {
        where: 'event',
        text: 'Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "<id>": plugin type="bridge" failed (add): failed to unmarshal raw result: invalid character \'d\' looking for beginning of value',
      },
      {
        where: 'journal',
        text: 'containerd: RunPodSandbox ... failed, error ... plugin type="bridge" failed (add): failed to unmarshal raw result: invalid character \'d\' looking for beginning of value',
      },
      {
        where: 'ipam',
        text: 'no reservation left by the failed attempts: the clean-up DEL released each',
      },
    ],
    recovery: {
      steps: [
        'Put the real plugin binary back (a plugin must write only its result to stdout; logs go to stderr or a file). The next retry succeeds.',
      ],
      actions: [{ kind: 'reinstall-plugin' }],
    },
    inject: { kind: 'noisy-plugin' },
  },
  {
    id: 'kubelet-restart-during-add',
    title: 'kubelet restart during ADD',
    explanation:
      'The kubelet restarts while a pod’s ADD runs. Its gRPC connection closes, so containerd’s request context is cancelled: the running plugin is killed, the ADD fails and containerd’s clean-up DEL (with a fresh context) releases what was allocated. The restarted kubelet finds no ready sandbox for the pod and creates a new one. Nothing leaks and no event is recorded for the lost attempt: the kubelet that made it is gone.',
    when: 'during-add',
    challenge: false,
    failsNewPods: false,
    params: {
      pod: POD,
      plugin: {
        kind: 'plugin',
        description: 'The moment: when this plugin’s ADD starts working.',
        default: 'bridge',
      },
    },
    symptoms: [
      {
        where: 'journal',
        text: 'containerd: RunPodSandbox ... failed, error ... plugin type="bridge" failed (add): netplugin failed with no error message: signal: killed',
      },
      { where: 'journal', text: 'containerd: a second RunPodSandbox for the pod, which succeeds' },
      { where: 'kubectl', text: 'the pod ends Running, with no FailedCreatePodSandBox event' },
      { where: 'ipam', text: 'one reservation, the pod’s: nothing leaked' },
    ],
    recovery: {
      steps: ['Nothing: the restarted kubelet creates a new sandbox.'],
      actions: [{ kind: 'none' }],
    },
    inject: { kind: 'node-command', command: 'systemctl restart kubelet' },
  },
  {
    id: 'containerd-restart-during-add',
    title: 'containerd restart during ADD',
    explanation:
      'containerd dies while a pod’s ADD runs. The plugin process is not killed (systemd KillMode=process) and finishes its work, but its result goes nowhere: libcni never writes the cache. The kubelet gets "error reading from server: EOF" and backs off. What the restarted containerd knows depends on its release. ≤ 1.6.8 sets the network up before it saves the sandbox: it forgets it, and the netns mount, the veth pair, the reservation, the masquerade chain and the loopback cache file are orphans. From 1.6.9 the sandbox’s metadata, with its netns, is saved first: the restart loads it NOTREADY, the kubelet records SandboxChanged, calls StopPodSandbox and creates a new sandbox (Attempt:1). On 1.6.9 – 1.6.36 and 1.7.0 – 1.7.22 (the default node) that stop runs DEL in the still-mounted netns and nothing is left. On 1.6.37+, 1.7.23+ and every 2.x it runs no DEL, because no CNI result was stored: the netns (and the veth) go, the reservation, the masquerade chain and the loopback cache file stay.',
    when: 'during-add',
    challenge: true,
    failsNewPods: false,
    params: {
      pod: POD,
      plugin: {
        kind: 'plugin',
        description: 'The moment: when this plugin’s ADD starts working.',
        default: 'bridge',
      },
    },
    symptoms: [
      {
        where: 'event',
        text: 'Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unavailable desc = error reading from server: EOF',
      },
      { where: 'kubectl', text: 'the pod ends Running with the next IP' },
      {
        where: 'event',
        text: 'from 1.6.9: Normal SandboxChanged: Pod sandbox changed, it will be killed and re-created.',
      },
      {
        where: 'kernel',
        text: '≤ 1.6.8: an orphan netns mount /var/run/netns/cni-… with its veth, and a masquerade chain; 1.6.37+, 1.7.23+, every 2.x: the masquerade chain only',
      },
      {
        where: 'ipam',
        text: '≤ 1.6.8: an orphan reservation (the lost sandbox’s IP); 1.6.37+, 1.7.23+, every 2.x: a reservation held by the NOTREADY sandbox, and by no sandbox once the kubelet’s garbage collection has removed it (within a minute); 1.6.9 – 1.6.36, 1.7.0 – 1.7.22: none',
      },
      {
        where: 'cache',
        text: 'where the DEL did not run: a cni-loopback-<id>-lo cache file of the lost sandbox',
      },
    ],
    recovery: {
      steps: [
        'Remove what no sandbox owns: on ≤ 1.6.8, ip netns del the orphan namespace (its veth goes with it); rm the reservation and the cni-loopback cache file (on 1.6.37+, 1.7.23+ and 2.x once the kubelet’s garbage collection has removed the NOTREADY sandbox, within a minute); and the masquerade chain with iptables -t nat -D/-F/-X (or a reboot). GC would not find the reservation: there is no cache file for the pod network. On 1.6.9 – 1.6.36 and 1.7.0 – 1.7.22 there is nothing to remove.',
      ],
      actions: [{ kind: 'remove-orphans' }],
    },
    inject: { kind: 'node-command', command: 'systemctl restart containerd' },
  },
  {
    id: 'containerd-restart',
    title: 'containerd restart with pods running',
    explanation:
      'containerd restarts while pods run. Their pause processes live on (they belong to the shims), and containerd recovers each sandbox from its saved metadata, IP and CNI result included. No CNI plugin runs: ADD and CHECK are not repeated on recovery. Pods keep their IPs.',
    when: 'any',
    challenge: false,
    failsNewPods: false,
    params: { node: NODE },
    symptoms: [
      { where: 'kubectl', text: 'pods stay Running with the same IPs and no new events' },
      { where: 'journal', text: 'no RunPodSandbox, StopPodSandbox or plugin run' },
    ],
    recovery: {
      steps: ['Nothing.'],
      actions: [{ kind: 'none' }],
    },
    inject: { kind: 'node-command', command: 'systemctl restart containerd' },
  },
  {
    id: 'kubelet-restart',
    title: 'kubelet restart with pods running',
    explanation:
      'The kubelet restarts while pods run. It rebuilds its view from the API server and the runtime: each pod’s sandbox is ready and has an IP, so it is reused. No CRI call creates or stops anything, no plugin runs.',
    when: 'any',
    challenge: false,
    failsNewPods: false,
    params: { node: NODE },
    symptoms: [
      { where: 'kubectl', text: 'pods stay Running with the same IPs and no new events' },
      { where: 'journal', text: 'no RunPodSandbox, StopPodSandbox or plugin run' },
    ],
    recovery: {
      steps: ['Nothing.'],
      actions: [{ kind: 'none' }],
    },
    inject: { kind: 'node-command', command: 'systemctl restart kubelet' },
  },
  {
    id: 'node-reboot',
    title: 'Node reboot',
    explanation:
      'A reboot loses everything in memory and on tmpfs: processes, network namespaces and their veths, cni0, iptables rules, /var/run/netns. /var/lib persists: host-local’s reservations, the result cache and containerd’s sandbox metadata. After boot every old sandbox is NOTREADY; the kubelet reports SandboxChanged, stops it (DEL with an empty CNI_NETNS: only the IP is released) and creates a new one, usually with the next IP.',
    when: 'any',
    challenge: false,
    failsNewPods: false,
    params: { node: NODE },
    symptoms: [
      {
        where: 'event',
        text: 'Normal SandboxChanged: Pod sandbox changed, it will be killed and re-created.',
      },
      { where: 'kubectl', text: 'pods Running again with RESTARTS 1 and a new IP' },
      {
        where: 'journal',
        text: 'containerd: StopPodSandbox and TearDown for every old sandbox, then RunPodSandbox with Attempt:1',
      },
      { where: 'ipam', text: 'the old reservations released, new ones taken' },
    ],
    recovery: {
      steps: ['Nothing.'],
      actions: [{ kind: 'none' }],
    },
    inject: { kind: 'node-command', command: 'reboot' },
  },
  {
    id: 'drift',
    title: 'Drift found by CHECK',
    explanation:
      'Someone changed a running pod’s wiring by hand: removed its address or its default route, deleted its host veth (the pod end goes with it) or the bridge. Neither the kubelet nor containerd notice: they never run CHECK. The pod stays Running while its traffic is broken. A CHECK of the pod’s attachment, as a runtime calls libcni (containerd never does; CRI-O does once, right after ADD), compares the node with the cached result and names the first difference. cnitool cannot make that call: it names its own container id after the netns path.',
    when: 'pod-running',
    challenge: true,
    failsNewPods: false,
    params: {
      pod: POD,
      what: {
        kind: 'choice',
        description: 'What is removed.',
        default: 'address',
        values: ['address', 'route', 'host-veth', 'bridge'],
      },
    },
    symptoms: [
      { where: 'kubectl', text: 'the pod stays Running' },
      {
        where: 'kernel',
        text: 'address or host-veth removed: deleting the pod leaves its CNI-… masquerade chain in nat',
      },
      {
        where: 'check',
        text: 'address: Failed to match addr 10.244.1.2/24 on interface eth0; route: Expected Route {Dst:{IP:0.0.0.0 Mask:00000000} GW:<nil>} not found in routing table; host-veth: Interface name eth0 not found; bridge: Interface name cni0 not found',
      },
    ],
    recovery: {
      steps: [
        'Delete the pod; its ReplicaSet creates a new one, wired from scratch (bridge recreates cni0 if it is gone). DEL of the broken one succeeds.',
        'After an address or host-veth drift that DEL leaves the pod’s masquerade chain behind (bridge takes the addresses to unmasquerade from the interface, which no longer has them): remove it with iptables.',
      ],
      actions: [{ kind: 'recreate-pod' }, { kind: 'remove-orphans' }],
    },
    inject: {
      kind: 'shell',
      by: 'what',
      line: {
        address: 'ip -n {pod-netns} addr del {pod-address} dev eth0',
        route: 'ip -n {pod-netns} route del default',
        'host-veth': 'ip link del {host-veth}',
        bridge: 'ip link del {pod-bridge}',
      },
    },
  },
  {
    id: 'conflist-malformed',
    title: 'Malformed conflist',
    explanation:
      'The conflist is half-written (an editor or a config manager caught mid-write). containerd reloads when a file of /etc/cni/net.d is written, renamed or removed, and a parse error aborts the whole load: CNI is "not initialized", the node goes NotReady and the kubelet creates no sandbox. Worse, containerd cannot tear pods down either (go-cni checks its status first): deleted pods stay Terminating until the file is fixed.',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: { node: NODE },
    symptoms: [
      {
        where: 'node',
        text: 'node NotReady: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
      },
      {
        where: 'event',
        text: 'Warning NetworkNotReady: network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
      },
      {
        where: 'journal',
        text: 'containerd: level=error msg="failed to reload cni configuration after receiving fs change event(WRITE         \\"/etc/cni/net.d/10-containerd-net.conflist\\")" error="cni config load failed: failed to load CNI config list file /etc/cni/net.d/10-containerd-net.conflist: error parsing configuration list: unexpected end of JSON input: invalid cni config: failed to load cni config" (containerd 1.6, with fsnotify v1.4.9, prints the event as \\"<file>\\": WRITE)',
      },
      {
        where: 'event',
        text: 'a deleted pod: Warning FailedKillPod ... failed to destroy network for sandbox \\"<id>\\": cni plugin not initialized',
      },
    ],
    recovery: {
      steps: [
        'Write a valid conflist. containerd reloads it at once, the kubelet sees NetworkReady=true at its next status poll (5 s) and creates the waiting sandboxes.',
      ],
      actions: [{ kind: 'restore-conflist' }],
    },
    inject: { kind: 'half-write-conflist' },
  },
  {
    id: 'conflist-missing',
    title: 'Missing conflist',
    explanation:
      'The only file of /etc/cni/net.d was removed (a CNI DaemonSet uninstalled, a clean-up gone wrong). containerd reloads and finds no network config: "cni plugin not initialized", the node goes NotReady, new pods wait with NetworkNotReady, and pods being deleted stay Terminating because containerd cannot run DEL without its network config.',
    when: 'any',
    challenge: true,
    failsNewPods: true,
    params: { node: NODE },
    symptoms: [
      {
        where: 'node',
        text: 'node NotReady: ... message:Network plugin returns error: cni plugin not initialized',
      },
      {
        where: 'journal',
        text: 'containerd: level=error msg="failed to reload cni configuration after receiving fs change event(REMOVE        \\"/etc/cni/net.d/10-containerd-net.conflist\\")" error="cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config" (containerd 1.6, with fsnotify v1.4.9, prints the event as \\"<file>\\": REMOVE)',
      },
      {
        where: 'journal',
        text: 'kubelet: "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"',
      },
      { where: 'event', text: 'Warning NetworkNotReady (xN) on new pods' },
    ],
    recovery: {
      steps: ['Put the conflist back; containerd reloads it and the node becomes Ready.'],
      actions: [{ kind: 'restore-conflist' }],
    },
    inject: { kind: 'shell', line: 'rm {conflist}' },
  },
  {
    id: 'ip-forward-off',
    title: 'ip_forward off on a node',
    explanation:
      'net.ipv4.ip_forward was set to 0 on the node (a hardening role: CIS benchmarks ask for it on hosts that are not routers; a sysctl.d file applied at boot; or by hand). Pods keep running and their namespaces look as before. What the node only bridges still flows: pod to pod on the same cni0. So does traffic to the node’s own addresses (delivered there, not forwarded). Everything the node must route from one interface to another is dropped, silently, as the kernel does without forwarding: from its pods to pods on other nodes (out by eth0 or flannel.1), from other nodes to its pods, and to the outside. No ICMP error comes back: ping waits and reports loss. The bridge plugin writes 1 to /proc/sys/net/ipv4/ip_forward at every ADD of a network with isGateway, so the next pod created on the node hides the fault until the setting is applied again (the next boot).',
    when: 'any',
    challenge: true,
    failsNewPods: false,
    anyRuntime: true,
    params: { node: NODE },
    symptoms: [
      { where: 'kubectl', text: 'every pod stays Running and Ready; no event' },
      { where: 'kernel', text: 'sysctl net.ipv4.ip_forward: net.ipv4.ip_forward = 0' },
      {
        where: 'traffic',
        text: 'ip netns exec <ns> ping -c 1 -W 1 <a pod on another node>: 1 packets transmitted, 0 received, 100% packet loss (exit 1), in both directions; pods on the same node, the gateway and the node’s own addresses answer',
      },
      {
        where: 'traffic',
        text: 'the packet walk: dropped where the node would forward it, "net.ipv4.ip_forward=0" (drop reason ip-forward)',
      },
    ],
    recovery: {
      steps: [
        'sysctl -w net.ipv4.ip_forward=1: traffic flows again at once (routes and conntrack entries were never lost).',
        'Find what set it (grep -r ip_forward /etc/sysctl.conf /etc/sysctl.d) and set it to 1 there (kubeadm’s preflight requires it), or the next boot brings the fault back.',
      ],
      actions: [{ kind: 'shell', line: 'sysctl -w net.ipv4.ip_forward=1' }],
    },
    inject: { kind: 'shell', line: 'sysctl -w net.ipv4.ip_forward=0' },
  },
  {
    id: 'pod-route-missing',
    title: 'Route to another node’s pod CIDR missing (host-gw)',
    explanation:
      'In a host-gw network (kindnet, flannel host-gw, a routed Calico-style setup) a node reaches another node’s pods through one route, <its pod CIDR> via <its node IP> dev eth0, which the network’s agent installs. Here the route to one node’s pod CIDR is gone (deleted by hand or by a network restart while the agent was down; the agent puts it back only when it runs). Nothing in the pods changes. Packets from this node’s pods to that node’s pods follow the default route to the underlay gateway instead, which knows nothing of pod CIDRs: they are lost without an error. The other node’s pods still reach this node’s pods: bridge’s ipMasq masquerades what they send to other nodes to their node’s address, which this node reaches on the underlay, so the replies find their way (with ipMasq false they would be lost too).',
    when: 'any',
    challenge: true,
    failsNewPods: false,
    anyRuntime: true,
    params: { node: NODE },
    symptoms: [
      { where: 'kubectl', text: 'every pod stays Running and Ready; no event' },
      {
        where: 'kernel',
        text: 'ip route on the node has no <pod CIDR> via <node IP> dev eth0 line for the other node',
      },
      {
        where: 'traffic',
        text: 'ping from a pod of the node to a pod of the other node: 100% packet loss (exit 1); the other way round it answers (masqueraded to its node’s address)',
      },
      {
        where: 'traffic',
        text: 'the packet walk: routed by the default route out of eth0 to the underlay gateway 172.18.0.1 and lost beyond it (drop reason outside)',
      },
    ],
    recovery: {
      steps: [
        "Add the route back: ip route add <its pod CIDR> via <its node IP> dev eth0 (on that node, ip route shows its pod CIDR on cni0 and hostname -I its address; kubectl get node <name> -o jsonpath='{.spec.podCIDR}' names the CIDR too, outside this simulator).",
        'Then find why the network’s agent did not keep it (its DaemonSet pod’s logs).',
      ],
      actions: [
        { kind: 'shell', line: 'ip route add {peer-pod-cidr} via {peer-node-ip} dev eth0' },
      ],
    },
    inject: { kind: 'shell', line: 'ip route del {peer-route}' },
  },
  {
    id: 'br-netfilter-unloaded',
    title: 'br_netfilter not loaded',
    explanation:
      'br_netfilter makes frames a bridge forwards pass through iptables (net.bridge.bridge-nf-call-iptables=1). It is not loaded here: removed with rmmod, or never loaded at boot because /etc/modules-load.d/k8s.conf is missing (the Kubernetes install guide long had it written; kubeadm before 1.30 refused to join without it, "/proc/sys/net/bridge/bridge-nf-call-iptables does not exist", and 1.30 dropped that preflight check, kubernetes PR #123464). /proc/sys/net/bridge does not exist, so a sysctl.d setting of bridge-nf-call-iptables fails at boot. Pod to pod traffic on one bridge still flows, unseen by iptables and conntrack, and traffic across nodes is routed as before. What breaks is what needs conntrack to see a bridged answer: a pod that connects to another pod’s hostPort on the same node, through the node’s address, is DNAT’d on the way in, but the answer goes straight across the bridge, is never translated back, and the client does not know it. portmap’s default "snat": true hides it: it masquerades a client from the pod subnet to the gateway address, so the answer comes back through the node (recorded: hostport-bridge-nf-off); with "snat": false it fails (recorded: hostport-bridge-nf-off-nosnat). Kubernetes Services to a backend on the same node fail the same way (kube-proxy is not modelled).',
    when: 'any',
    challenge: true,
    failsNewPods: false,
    anyRuntime: true,
    params: { node: NODE },
    symptoms: [
      { where: 'kubectl', text: 'every pod stays Running and Ready; no event' },
      {
        where: 'kernel',
        text: 'sysctl net.bridge.bridge-nf-call-iptables: sysctl: cannot stat /proc/sys/net/bridge/bridge-nf-call-iptables: No such file or directory',
      },
      {
        where: 'traffic',
        text: 'with portmap "snat": false: curl from a pod to another pod’s hostPort on the same node (http://<node IP>:<hostPort>/) gets no answer it accepts (exit 28 after -m); with the default snat it answers',
      },
      {
        where: 'traffic',
        text: 'the packet walk: the answer crosses cni0 without br_netfilter (no "bridge-nf-call-iptables=1" at the bridge), so its source is not translated back to the node address',
      },
    ],
    recovery: {
      steps: [
        'modprobe br_netfilter: /proc/sys/net/bridge is back, with bridge-nf-call-iptables=1 (the module’s default) in every namespace.',
        'Make it last: echo br_netfilter > /etc/modules-load.d/k8s.conf, and net.bridge.bridge-nf-call-iptables = 1 in /etc/sysctl.d/k8s.conf.',
      ],
      actions: [{ kind: 'shell', line: 'modprobe br_netfilter' }],
    },
    inject: { kind: 'shell', line: 'rmmod br_netfilter' },
  },
  {
    id: 'vxlan-mtu-mismatch',
    title: 'VXLAN MTU mismatch: pods at 1500 over a 1450 overlay',
    explanation:
      'VXLAN adds 50 bytes to every packet (outer Ethernet 14, IP 20, UDP 8, VXLAN 8), so flannel.1 has eth0’s MTU minus 50 (1450) and pods must send no more: flannel’s CNI plugin passes FLANNEL_MTU of /run/flannel/subnet.env to bridge as "mtu". Here the node’s conflist lost its "mtu" (replaced by a bridge conflist written without it), so pods created since get bridge’s default, 1500. Their packets of up to 1450 bytes cross as before. A larger one with DF set (ping -M do; every TCP segment) reaches flannel.1 on the node, which is too small for it: the kernel drops it and answers ICMP "fragmentation needed" (mtu 1450), which ping shows as "Frag needed and DF set (mtu = 1450)" from the gateway. TCP learns the smaller MTU from that ICMP error; where it is filtered, connections stall after the handshake (small requests work, large answers never come; the walk does not model TCP beyond the handshake). Pods created before the change, and traffic within the node, are not affected.',
    when: 'any',
    challenge: true,
    failsNewPods: false,
    anyRuntime: true,
    params: { node: NODE },
    symptoms: [
      { where: 'kubectl', text: 'every pod stays Running and Ready; no event' },
      {
        where: 'kernel',
        text: 'ip -n <ns> link show eth0: mtu 1500 in the pods created since; ip link show flannel.1: mtu 1450',
      },
      {
        where: 'traffic',
        text: 'ip netns exec <ns> ping -c 1 -M do -s 1472 <a pod on another node>: From <gateway> icmp_seq=1 Frag needed and DF set (mtu = 1450) (exit 1); -s 1422 (1450 bytes) and smaller answer',
      },
      {
        where: 'traffic',
        text: 'the packet walk: "1500 bytes > mtu 1450 of flannel.1 with DF set: dropped, ICMP fragmentation needed (mtu 1450)" (drop reason mtu)',
      },
    ],
    recovery: {
      steps: [
        'Put "mtu": 1450 (FLANNEL_MTU of /run/flannel/subnet.env) back in the conflist, or use flannel’s CNI plugin, which passes it.',
        'Recreate the pods created meanwhile (kubectl rollout restart), or set their eth0 by hand: ip -n <ns> link set eth0 mtu 1450.',
      ],
      actions: [
        { kind: 'restore-conflist' },
        {
          kind: 'shell',
          line: 'for n in $(ls /var/run/netns); do ip -n $n link set eth0 mtu {vxlan-mtu}; done',
        },
      ],
    },
    inject: { kind: 'shell', line: 'sed -i \'/"mtu"/d\' {mtu-conflist}' },
  },
  {
    id: 'forward-policy-drop',
    title: 'FORWARD policy DROP, as Docker leaves it',
    explanation:
      'Docker (since 1.13) sets the filter table’s FORWARD policy to DROP when it starts and has to turn IP forwarding on itself (net.ipv4.ip_forward was 0, e.g. it started before the node’s sysctl.d settings were applied), and accepts only its own docker0 traffic. Installed next to containerd on a node (a build agent, an old provisioning script), it leaves every packet the node forwards and no rule accepts to that policy (the policy alone is made here, not Docker’s chains): from a pod to a pod on another node, both ways, and to the outside; with br_netfilter on (bridge-nf-call-iptables=1) also frames bridged between two pods of the same cni0, which pass the FORWARD chain too. Traffic to the node itself (INPUT) is not affected: a pod still reaches its gateway and its node’s address. The bridge plugin adds no FORWARD rule (the firewall plugin’s CNI-FORWARD would accept each pod’s traffic; flannel adds FLANNEL-FWD rules accepting its pod network for this reason).',
    when: 'any',
    challenge: true,
    failsNewPods: false,
    anyRuntime: true,
    params: { node: NODE },
    symptoms: [
      { where: 'kubectl', text: 'every pod stays Running and Ready; no event' },
      {
        where: 'kernel',
        text: 'iptables -S FORWARD: -P FORWARD DROP; iptables -L FORWARD -v -n counts the dropped packets on the policy line',
      },
      {
        where: 'traffic',
        text: 'ping between pods of the node, and between them and pods of other nodes: 100% packet loss (exit 1); a pod still reaches its gateway and its node’s address',
      },
      {
        where: 'traffic',
        text: 'the packet walk: "FORWARD: the filter table\'s FORWARD policy is DROP and no rule accepted the packet" (drop reason netfilter)',
      },
    ],
    recovery: {
      steps: [
        'iptables -P FORWARD ACCEPT; or accept the pod network explicitly so that Docker’s next start does not undo it: iptables -I FORWARD -s 10.244.0.0/16 -j ACCEPT and iptables -I FORWARD -d 10.244.0.0/16 -j ACCEPT.',
        'Better, no Docker on a Kubernetes node, or "iptables": false in /etc/docker/daemon.json.',
      ],
      actions: [{ kind: 'shell', line: 'iptables -P FORWARD ACCEPT' }],
    },
    inject: { kind: 'shell', line: 'iptables -P FORWARD DROP' },
  },
  {
    id: 'masquerade-missing',
    title: 'A pod’s masquerade rule missing',
    explanation:
      'bridge with ipMasq: true gives every pod a chain CNI-<hash> in the nat table (ACCEPT to the pod subnet, MASQUERADE the rest, both commented with the network name and the sandbox id) and a jump to it in POSTROUTING matching the pod’s address. Here that jump was deleted (a clean-up of “stale” CNI rules that took the wrong one, a firewall tool that rewrote nat POSTROUTING). The pod keeps running and reaches the other pods as before (in a host-gw or VXLAN network its packets to other nodes now keep its own address, which those nodes route back). But its packets to the outside leave the node with its pod address: the network beyond the node has no route back to the pod subnet, so no answer ever comes (recorded: egress-no-masq). The node’s other pods, whose jumps are there, reach the outside.',
    when: 'pod-running',
    challenge: true,
    failsNewPods: false,
    anyRuntime: true,
    params: { pod: POD },
    symptoms: [
      { where: 'kubectl', text: 'the pod stays Running and Ready; no event' },
      {
        where: 'kernel',
        text: 'iptables -t nat -S POSTROUTING has no -s <pod IP>/32 … -j CNI-<hash> line for the pod; its chain CNI-<hash> is still there, unreferenced',
      },
      {
        where: 'traffic',
        text: 'ping from the pod to an outside address (the underlay gateway 172.18.0.1): 100% packet loss (exit 1); from the other pods it answers',
      },
      {
        where: 'traffic',
        text: 'the packet walk: no SNAT in POSTROUTING, and "172.18.0.1 (outside the cluster) has no route back to <pod IP>: the source was not masqueraded" (drop reason outside)',
      },
    ],
    recovery: {
      steps: [
        'Add the jump back as bridge wrote it: iptables -t nat -A POSTROUTING -s <pod IP>/32 -m comment --comment "name: \\"<net>\\" id: \\"<id>\\"" -j CNI-<hash> (the chain’s own rules carry the same comment).',
        'Or delete the pod: the new one gets a chain and a jump at its ADD (the old one’s DEL removes its chain).',
      ],
      actions: [{ kind: 'shell', line: 'iptables -t nat -A POSTROUTING {pod-masq-rule}' }],
    },
    inject: { kind: 'shell', line: 'iptables -t nat -D POSTROUTING {pod-masq-rule}' },
  },
  {
    id: 'hairpin-off',
    title: 'Hairpin off on a pod’s bridge port',
    explanation:
      'A pod that connects to its own hostPort (the node’s address, mapped by portmap back to the pod) needs hairpin mode on its bridge port. With br_netfilter on (bridge-nf-call-iptables=1) portmap’s DNAT happens as the frame enters cni0; the frame, now addressed to the pod itself, would have to leave by the port it came in on, and a bridge never sends a frame back out of its ingress port unless hairpin mode is on there. The bridge plugin sets it at ADD from the conflist’s hairpinMode (flannel’s conflist sets it; containerd’s example conflist sets promiscMode instead, which cannot go with it). Here it is off on the pod’s port (turned off by hand, or the pod was created from a conflist without hairpinMode). Everything else works: other pods reach the pod’s hostPort, the pod reaches other pods. With bridge-nf-call-iptables=0 the frame is routed by cni0’s IP stack instead and the pod does reach itself (recorded: hostport-bridge-nf-off).',
    when: 'pod-running',
    challenge: true,
    failsNewPods: false,
    anyRuntime: true,
    params: { pod: POD },
    symptoms: [
      { where: 'kubectl', text: 'the pod stays Running and Ready; no event' },
      {
        where: 'traffic',
        text: 'from the pod, curl -m 2 http://<node IP>:<hostPort>/ times out (exit 28); from another pod of the node it answers',
      },
      {
        where: 'traffic',
        text: 'the packet walk: "bridge cni0: the frame would leave by <veth>, the port it came in on, and hairpin mode is off on <veth>" (drop reason hairpin)',
      },
    ],
    recovery: {
      steps: [
        'bridge link set dev <veth> hairpin on (the pod’s host veth: eth0@ifN in the pod’s namespace names its ifindex N).',
        'And "hairpinMode": true in the conflist, so that pods created later get it.',
      ],
      actions: [{ kind: 'shell', line: 'bridge link set dev {host-veth} hairpin on' }],
    },
    inject: { kind: 'shell', line: 'bridge link set dev {hairpin-port} hairpin off' },
  },
];

/** The catalogue (validated by catalogue.test.ts with parseCatalogue). */
export const FAULTS: readonly FaultDef[] = DATA;

export function faultById(id: string): FaultDef | undefined {
  return FAULTS.find((f) => f.id === id);
}

/** A fault a challenge may hide, with what it takes to inject it. */
export interface ChallengeFault {
  id: string;
  title: string;
  when: When;
  /** Its parameters; each has a default unless it is a `pod` (or the `node` of a multi-node cluster). */
  params: Readonly<Record<string, ParamSpec>>;
}

/**
 * The faults a challenge may hide (`challenge: true`), in catalogue order: inject one with
 * `injectFault(cluster, id, params)`, e.g. `{ node: 'node-2' }` or `{ pod: 'web-0' }`.
 */
export function challengeFaults(): ChallengeFault[] {
  return FAULTS.filter((f) => f.challenge).map((f) => ({
    id: f.id,
    title: f.title,
    when: f.when,
    params: f.params,
  }));
}
