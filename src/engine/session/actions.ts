/**
 * What a user can do to a session's cluster, as plain data: the session's log holds these, a
 * saved session stores them, and a session exports them as a scenario. Names and fields follow
 * the scenario format's actions (`do`, `node`, `pod`, ...), without its timing fields: a logged
 * action carries the step it was performed at instead (see session.ts).
 */
import type { Cluster } from '../cluster/cluster';
import type { HostPort } from '../state/api';
import type { RunResult, ShellSnapshot } from '../shell';

export type SessionAction =
  | {
      do: 'createPod';
      name: string;
      namespace?: string;
      node?: string;
      hostPorts?: HostPort[];
      annotations?: Record<string, string>;
    }
  | { do: 'deletePod'; pod: string }
  | { do: 'scale'; deployment: string; replicas: number; namespace?: string; node?: string }
  | { do: 'restartKubelet'; node: string }
  | { do: 'restartContainerd'; node: string }
  /** Installs a containerd release on the node; it runs from containerd's next start. */
  | { do: 'setContainerdVersion'; node: string; version: string }
  | { do: 'reboot'; node: string }
  | {
      do: 'shell';
      node: string;
      line: string;
      /** A terminal's session the line continues (directory, variables, `$?`); see ShellSnapshot. */
      cwd?: string;
      env?: Record<string, string>;
      vars?: Record<string, string>;
      status?: number;
      /** Typed at a terminal: `ls` prints columns. */
      tty?: boolean;
    }
  | { do: 'writeFile'; node: string; path: string; data: string; mode?: number }
  | { do: 'removeFile'; node: string; path: string }
  | { do: 'installPlugin'; node: string; plugin: string; build: string }
  | { do: 'hangPlugin'; node: string; plugin: string; commands: string[] }
  | { do: 'cniCheck'; pod: string }
  | { do: 'cniGc'; node: string }
  | { do: 'cniStatus'; node: string }
  | { do: 'injectFault'; fault: string; params?: Record<string, unknown> };

export type ActionName = SessionAction['do'];

/**
 * Injects a fault of the catalogue into a cluster (src/engine/faults: `injectFault`, the
 * default). A refusal `{ ok: false, error }` fails the action; `{ ok: true, at }` names the
 * step the fault was injected at.
 */
export type FaultInjector = (
  cluster: Cluster,
  id: string,
  params: Record<string, unknown> | undefined,
) => unknown;

/** What an action returned that a view may show (a shell's output). */
export interface ActionOutput {
  shell?: RunResult & { state: ShellSnapshot };
  /** The step an injected fault took effect at (a during-add fault runs to its moment first). */
  faultAt?: number;
  /** The node an injected fault is on. */
  faultNode?: string;
}

/**
 * `applyAction` as a job's unit of work, in pieces where one action is long: scaling yields
 * after each pod (110 pods at once blocked the page for a quarter of a second). The cluster is
 * changed in the same calls in the same order as by `applyAction`.
 */
export function* applyActionJob(
  cluster: Cluster,
  a: SessionAction,
  faults: FaultInjector | null,
): Generator<void, ActionOutput, void> {
  if (a.do !== 'scale') return applyAction(cluster, a, faults);
  yield* cluster.scaleJob(a.deployment, a.replicas, scaleOptions(a));
  return {};
}

function scaleOptions(a: Extract<SessionAction, { do: 'scale' }>) {
  return {
    ...(a.namespace !== undefined ? { namespace: a.namespace } : {}),
    ...(a.node !== undefined ? { node: a.node } : {}),
  };
}

/** Carries out an action on a cluster. Throws with the cluster's message when it cannot. */
export function applyAction(
  cluster: Cluster,
  a: SessionAction,
  faults: FaultInjector | null,
): ActionOutput {
  switch (a.do) {
    case 'createPod':
      cluster.createPod({
        name: a.name,
        ...(a.namespace !== undefined ? { namespace: a.namespace } : {}),
        ...(a.node !== undefined ? { node: a.node } : {}),
        ...(a.hostPorts !== undefined ? { hostPorts: a.hostPorts } : {}),
        ...(a.annotations !== undefined ? { annotations: a.annotations } : {}),
      });
      return {};
    case 'deletePod':
      cluster.deletePod(a.pod);
      return {};
    case 'scale':
      cluster.scale(a.deployment, a.replicas, scaleOptions(a));
      return {};
    case 'restartKubelet':
      cluster.restartKubelet(a.node);
      return {};
    case 'restartContainerd':
      cluster.restartContainerd(a.node);
      return {};
    case 'setContainerdVersion':
      cluster.setContainerdVersion(a.node, a.version);
      return {};
    case 'reboot':
      cluster.reboot(a.node);
      return {};
    case 'shell':
      return {
        shell: cluster.shell(a.node, a.line, {
          resume: {
            ...(a.cwd !== undefined ? { cwd: a.cwd } : {}),
            ...(a.env !== undefined ? { env: a.env } : {}),
            ...(a.vars !== undefined ? { vars: a.vars } : {}),
            ...(a.status !== undefined ? { status: a.status } : {}),
          },
          ...(a.tty ? { tty: true } : {}),
        }),
      };
    case 'writeFile':
      cluster.writeFile(a.node, a.path, a.data, a.mode);
      return {};
    case 'removeFile':
      cluster.removeFile(a.node, a.path);
      return {};
    case 'installPlugin':
      cluster.installPlugin(a.node, a.plugin, a.build);
      return {};
    case 'hangPlugin':
      cluster.hangPlugin(a.node, a.plugin, a.commands);
      return {};
    case 'cniCheck':
      cluster.cniCheck(a.pod);
      return {};
    case 'cniGc':
      cluster.cniGc(a.node);
      return {};
    case 'cniStatus':
      cluster.cniStatus(a.node);
      return {};
    case 'injectFault': {
      if (!faults) throw new Error(`fault ${a.fault}: no fault catalogue is loaded`);
      const r = faults(cluster, a.fault, a.params) as
        { ok?: unknown; error?: unknown; at?: unknown; node?: unknown } | undefined;
      if (r?.ok === false) throw new Error(String(r.error));
      return {
        ...(typeof r?.at === 'number' ? { faultAt: r.at } : {}),
        ...(typeof r?.node === 'string' && r.node ? { faultNode: r.node } : {}),
      };
    }
  }
}

/** One line a person can read, e.g. `kubectl create pod web-0`. */
export function describeAction(a: SessionAction): string {
  switch (a.do) {
    case 'createPod':
      return `kubectl create pod ${a.namespace && a.namespace !== 'default' ? `${a.namespace}/` : ''}${a.name}${a.node ? ` on ${a.node}` : ''}`;
    case 'deletePod':
      return `kubectl delete pod ${a.pod}`;
    case 'scale':
      return `kubectl scale deployment ${a.deployment} --replicas=${a.replicas}${a.node ? ` (on ${a.node})` : ''}`;
    case 'restartKubelet':
      return `systemctl restart kubelet on ${a.node}`;
    case 'restartContainerd':
      return `systemctl restart containerd on ${a.node}`;
    case 'setContainerdVersion':
      return `install containerd ${a.version} on ${a.node} (runs from the next containerd restart)`;
    case 'reboot':
      return `reboot ${a.node}`;
    case 'shell':
      return `${a.node}# ${a.line}`;
    case 'writeFile':
      return `write ${a.path} on ${a.node}`;
    case 'removeFile':
      return `rm ${a.path} on ${a.node}`;
    case 'installPlugin':
      return `install ${a.plugin} ${a.build} on ${a.node}`;
    case 'hangPlugin':
      return a.commands.length
        ? `${a.plugin} hangs on ${a.commands.join(', ')} on ${a.node}`
        : `${a.plugin} no longer hangs on ${a.node}`;
    case 'cniCheck':
      return `CHECK of ${a.pod} (libcni, as a runtime calls it)`;
    case 'cniGc':
      return `GC on ${a.node} (libcni, live sandboxes valid)`;
    case 'cniStatus':
      return `STATUS on ${a.node} (libcni)`;
    case 'injectFault':
      return `fault ${a.fault}`;
  }
}
