/**
 * From a scenario to a Session the app can step through: the scenario runs headless once to learn
 * at which step each of its actions took effect, and the Session replays the same actions at the
 * same steps (the trace is a pure function of cluster, seed and logged actions, so it is the same
 * trace). Waits (`wait`, `runUntil`) leave no action of their own: they are where the next action
 * was logged.
 *
 * Scenario actions whose wait ends in an idle cluster at a virtual time with no event (`at`,
 * `wait` or `time:` while nothing is scheduled) cannot be replayed at that time by a Session,
 * which only moves from event to event; lessons and challenges avoid them (their tests check that
 * the Session's trace equals the headless one).
 */
import { podKey } from '../apiserver/apiserver';
import type { HostPort } from '../state/api';
import { parsePodPattern, podsMatching } from '../scenario/condition';
import { clusterSpec, runScenario } from '../scenario/run';
import type { Scenario, ScenarioAction } from '../scenario/schema';
import type { FaultInjector, LoggedAction, SessionAction } from '../session';
import { Session } from '../session/session';
// A lesson's or a scenario file's session injects the catalogue's faults.
import '../session/with-faults';
import type { WorldState } from '../sim/world';

function fileText(data: string | Record<string, unknown>): string {
  return typeof data === 'string' ? data : `${JSON.stringify(data, null, 2)}\n`;
}

function expand(state: WorldState, pattern: string): string[] {
  const p = parsePodPattern(pattern);
  if (!p.ok) return [];
  return podsMatching(state.api, p.value).map((x) => podKey(x.spec.namespace, x.spec.name));
}

/**
 * The Session actions a scenario action is (none for waits), with the world just before it (to
 * expand pod patterns into pods, as the scenario runner does).
 */
export function toSessionActions(
  a: ScenarioAction,
  defaultNode: string,
  before: WorldState,
): SessionAction[] {
  const node = ('node' in a ? a.node : undefined) ?? defaultNode;
  switch (a.do) {
    case 'createPod':
      return [
        {
          do: 'createPod',
          name: a.name,
          ...(a.namespace ? { namespace: a.namespace } : {}),
          ...(a.node ? { node: a.node } : {}),
          ...(a.hostPorts
            ? {
                hostPorts: a.hostPorts.map(
                  (h): HostPort => ({ protocol: 'TCP', ...h }) as HostPort,
                ),
              }
            : {}),
          ...(a.annotations ? { annotations: a.annotations } : {}),
        },
      ];
    case 'deletePod':
      return expand(before, a.pod).map((pod) => ({ do: 'deletePod', pod }));
    case 'cniCheck':
      return expand(before, a.pod).map((pod) => ({ do: 'cniCheck', pod }));
    case 'scale':
      return [
        {
          do: 'scale',
          deployment: a.deployment,
          replicas: a.replicas,
          ...(a.namespace ? { namespace: a.namespace } : {}),
          ...(a.node ? { node: a.node } : {}),
        },
      ];
    case 'restartKubelet':
    case 'restartContainerd':
    case 'reboot':
      // A session restarts with the default down time.
      return [{ do: a.do, node }];
    case 'setContainerdVersion':
      return [{ do: 'setContainerdVersion', node, version: a.version }];
    case 'shell':
      return [{ do: 'shell', node, line: a.line }];
    case 'writeFile':
      return [
        {
          do: 'writeFile',
          node,
          path: a.path,
          data: fileText(a.data),
          ...(a.mode !== undefined
            ? { mode: typeof a.mode === 'number' ? a.mode : parseInt(a.mode, 8) }
            : {}),
        },
      ];
    case 'removeFile':
      return [{ do: 'removeFile', node, path: a.path }];
    case 'installPlugin':
      return [{ do: 'installPlugin', node, plugin: a.plugin, build: a.build }];
    case 'hangPlugin':
      return [{ do: 'hangPlugin', node, plugin: a.plugin, commands: a.commands }];
    case 'cniGc':
      return [{ do: 'cniGc', node }];
    case 'cniStatus':
      return [{ do: 'cniStatus', node }];
    case 'injectFault':
      return [{ do: 'injectFault', fault: a.fault, ...(a.params ? { params: a.params } : {}) }];
    case 'wait':
    case 'runUntil':
      return [];
  }
}

export interface ScenarioSession {
  session: Session;
  /** The step where the scenario ended: the cursor's position, where the user takes over. */
  start: number;
  /** The headless run's event count, for checking the replay. */
  length: number;
  scenario: Scenario;
  /** Actions the scenario performed, as logged (hidden in a challenge: see hidden.ts). */
  actions: LoggedAction[];
  /**
   * Actions the headless run made after virtual time passed with no event (a `wait` or `at` in
   * an idle cluster): the Session applies them right after the event before, so from their step
   * on its times are `seconds` earlier than the headless run's (see the note at the top).
   */
  idleWaits: { action: number; step: number; seconds: number }[];
}

/**
 * Runs a scenario headless and opens a Session on the same trace, with the cursor at its end.
 * Throws with the scenario's problems when it is invalid. Restarts and reboots use the Session's
 * default down times; scenarios meant for sessions use the defaults too.
 */
export function scenarioSession(
  data: unknown,
  opts: {
    seed?: number;
    faults?: FaultInjector | null;
    /** Replay its injected faults as hidden actions (a challenge's: no marker, not in the log). */
    hideFaults?: boolean;
  } = {},
): ScenarioSession {
  const run = runScenario(data, opts.seed !== undefined ? { seed: opts.seed } : {});
  if (!run.ok) throw new Error(`invalid scenario: ${run.errors.join('; ')}`);
  const { cluster, summary, scenario } = run;
  const defaultNode = cluster.spec.nodes[0]!.name;
  const actions: LoggedAction[] = [];
  const idleWaits: ScenarioSession['idleWaits'] = [];
  const list = scenario.actions ?? [];
  for (const rep of summary.actions) {
    if (rep.status !== 'done' || rep.step === null) continue;
    const before = rep.step > 0 ? cluster.sim.states[rep.step - 1]! : cluster.sim.initial;
    const made = toSessionActions(list[rep.index]!, defaultNode, before);
    for (const action of made)
      actions.push({
        step: rep.step,
        action,
        ...(opts.hideFaults && action.do === 'injectFault' ? { hidden: true as const } : {}),
      });
    const last = rep.step > 0 ? cluster.events[rep.step - 1]!.time : null;
    if (made.length && last !== null && rep.time !== null && rep.time > last)
      idleWaits.push({ action: rep.index, step: rep.step, seconds: (rep.time - last) / 1e6 });
  }
  const session = new Session({
    cluster: clusterSpec(scenario),
    seed: summary.seed,
    actions,
    // undefined: the fault catalogue, as every Session; null turns injection off.
    ...(opts.faults !== undefined ? { faults: opts.faults } : {}),
  });
  const length = cluster.events.length;
  session.seek(length - 1);
  return { session, start: session.cursor, length, scenario, actions, idleWaits };
}
