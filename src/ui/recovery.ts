/**
 * "How an operator recovers" from a fault: the catalogue's recovery steps (src/engine/faults,
 * rendered as they are written), and the commands in them that the app offers to run in the
 * node's shell with one click. Only commands that read, or that are the recovery itself and
 * cannot hurt anything else, are offered; a command that deletes by a pattern or by an id the
 * person must find first is shown in the text but never run for them (NOT_OFFERED says why).
 */

/** A command of a recovery step that can be run in the node's shell. */
export interface RecoveryCommand {
  /** The line typed into the shell. */
  line: string;
}

export interface RecoveryStep {
  text: string;
  commands: RecoveryCommand[];
}

export interface RecoveryContext {
  /** The pod the fault is on (namespace/name or name), if it is a pod's fault. */
  pod?: string | null;
}

/** Commands offered, as the catalogue's texts write them, with the line they run. */
const OFFERED: { re: RegExp; line(ctx: RecoveryContext): string | null }[] = [
  { re: /\bcrictl pods -q --no-trunc\b/, line: () => 'crictl pods -q --no-trunc' },
  { re: /\bcrictl pods -q\b(?! --no-trunc)/, line: () => 'crictl pods -q' },
  { re: /\bip link show cni0\b/, line: () => 'ip link show cni0' },
  {
    // The pod's own deletion: its ReplicaSet (or the person) creates it again.
    re: /\bkubectl delete pod <pod>/,
    line: ({ pod }) => {
      if (!pod) return null;
      const [ns, name] = pod.includes('/') ? pod.split('/', 2) : ['default', pod];
      return ns === 'default'
        ? `kubectl delete pod ${name}`
        : `kubectl delete pod -n ${ns} ${name}`;
    },
  },
];

/**
 * Commands the texts name that are never one click, and why: each can hurt a real node when
 * run without looking first.
 */
export const NOT_OFFERED: { re: RegExp; why: string }[] = [
  {
    re: /\bcnitool gc\b/,
    why: 'cnitool gc without GC args treats every attachment of the network as garbage: it would tear down the running pods too',
  },
  {
    re: /\brm \/var\/lib\/cni\//,
    why: 'removing a cache file or a reservation needs the id of a sandbox that is gone; the wrong file breaks a live pod',
  },
  { re: /\bip link del cni0\b/, why: 'deleting the bridge cuts every pod still plugged into it' },
  { re: /\biptables -t nat -[DFX]/, why: 'which nat chain to remove depends on the sandbox id' },
  { re: /\bip netns del\b/, why: 'which namespace is orphaned must be checked first' },
];

/** The recovery steps of a fault with the commands offered in each. */
export function recoverySteps(steps: readonly string[], ctx: RecoveryContext): RecoveryStep[] {
  return steps.map((text) => {
    const commands: RecoveryCommand[] = [];
    for (const o of OFFERED) {
      if (!o.re.test(text)) continue;
      const line = o.line(ctx);
      if (line !== null && !commands.some((c) => c.line === line)) commands.push({ line });
    }
    return { text, commands };
  });
}

/** Why the commands of a step that are not offered are not (none: an empty list). */
export function notOffered(text: string): string[] {
  return NOT_OFFERED.filter((n) => n.re.test(text)).map((n) => n.why);
}
