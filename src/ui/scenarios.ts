/// <reference types="vite/client" />
/**
 * The scenario files of the build (`scenarios/*.json`, docs/scenarios.md), for the app's
 * `#/scenario/<name>` and an embed's `scenario:<name>`: each file is its own lazy chunk, run
 * headless once and opened as a Session at its start.
 */
import { loadScenarioSession, type Session } from '../engine';

const FILES = import.meta.glob<unknown>('../../scenarios/*.json', { import: 'default' });

const BY_NAME = new Map(
  Object.entries(FILES).map(([path, load]) => [path.replace(/^.*\/|\.json$/g, ''), load]),
);

export const SCENARIO_NAMES: readonly string[] = [...BY_NAME.keys()].sort();

export interface FileSession {
  session: Session;
  /** Where the session's times differ from `npm run sim`'s (idle waits), or null. */
  warning: string | null;
}

/**
 * The session of a scenario file, at its start; a problem when the build has no such file.
 * Throws with the file's problems when it does not validate.
 */
export async function scenarioFileSession(name: string): Promise<FileSession | string> {
  const load = BY_NAME.get(name);
  if (!load) return `There is no scenario "${name}" (scenarios: ${SCENARIO_NAMES.join(', ')}).`;
  const [{ scenarioSession }, scenario] = await Promise.all([loadScenarioSession(), load()]);
  const { session, idleWaits } = scenarioSession(scenario);
  session.seek(-1);
  const w = idleWaits[0];
  const warning = w
    ? `Scenario ${name}: its action ${w.action + 1} comes ${w.seconds.toFixed(1)} s after the last event, in an idle cluster; here it is made right after that event, so from step ${w.step + 1} on the clock reads ${w.seconds.toFixed(1)} s earlier than in npm run sim.`
    : null;
  return { session, warning };
}
