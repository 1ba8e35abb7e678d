/**
 * A challenge's work, as the app keeps it across a reload: what the learner did to the cluster
 * (commands in a node's shell, actions, the conflist editor) and the step they were at. Opening
 * the same challenge and seed again replays that work on the fresh run, so the cluster is the one
 * the learner left, not the ticket's first state. Where the record is kept (localStorage) is the
 * app's business (src/ui/course/work.ts); what it holds, how it is read back and replayed is
 * here, so that it runs headless and is tested without a page.
 *
 * The record holds the session's whole log (the challenge's own actions and the learner's; the
 * hidden fault is not in the log, the challenge injects it), but is read with care: the
 * challenge's own actions must be there unchanged and in order, and the learner's must be
 * actions a session accepts (`actionProblems`).
 */
import type { Level } from '../trace/trace';
import type { Job, LoggedAction } from '../session/session';
import { actionProblems } from '../session/serialize';
import { LEVELS } from '../session/view';
import type { ChallengeRun } from './challenge';

export interface ChallengeWork {
  app: 'cnisim-challenge-work';
  version: 1;
  challenge: string;
  seed: number;
  actions: LoggedAction[];
  cursor: number;
  level: Level;
}

/** Up to this many actions are read back (a tampered record cannot make a replay endless). */
export const MAX_WORK_ACTIONS = 2000;

/** The work on `run` as it is now. */
export function challengeWork(run: ChallengeRun): ChallengeWork {
  const s = run.session;
  return {
    app: 'cnisim-challenge-work',
    version: 1,
    challenge: run.challenge.id,
    seed: run.seed,
    actions: s.loggedActions(),
    cursor: s.cursor,
    level: s.level,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads saved work for a freshly opened `run`: null when none is saved (`text` null) or the work
 * is another challenge's or seed's, the work to replay, or why it cannot be (a damaged or
 * tampered record).
 */
export function readChallengeWork(
  text: string | null,
  run: ChallengeRun,
): ChallengeWork | { problem: string } | null {
  if (text === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: 'it is not JSON' };
  }
  if (!isRecord(data) || data['app'] !== 'cnisim-challenge-work' || data['version'] !== 1)
    return { problem: 'it is not a saved challenge' };
  if (data['challenge'] !== run.challenge.id || data['seed'] !== run.seed) return null;
  const { actions, cursor, level } = data;
  if (!Number.isInteger(cursor) || (cursor as number) < -1)
    return { problem: 'cursor: expected a step' };
  if (typeof level !== 'string' || !(LEVELS as readonly string[]).includes(level))
    return { problem: `level: expected ${LEVELS.join(', ')}` };
  if (!Array.isArray(actions) || actions.length > MAX_WORK_ACTIONS)
    return { problem: `actions: expected a list of at most ${MAX_WORK_ACTIONS}` };
  // The challenge's own actions (with its hidden fault) come first in the same order, unchanged.
  const own = run.session.loggedActions().map((a) => JSON.stringify(a));
  let k = 0;
  let step = 0;
  for (const [i, a] of (actions as unknown[]).entries()) {
    if (k < own.length && JSON.stringify(a) === own[k]) {
      k++;
      step = (a as LoggedAction).step;
      continue;
    }
    if (!isRecord(a)) return { problem: `actions[${i}]: expected an action` };
    const { step: at, action, ...flags } = a;
    if (!Number.isInteger(at) || (at as number) < step)
      return { problem: `actions[${i}].step: expected a step in order` };
    step = at as number;
    const extra = Object.entries(flags).filter(
      ([f, v]) => !((f === 'idle' || f === 'planned') && v === true),
    );
    if (extra.length) return { problem: `actions[${i}].${extra[0]![0]}: not expected` };
    const problems = actionProblems(action);
    if (problems.length) return { problem: `actions[${i}].action: ${problems[0]}` };
  }
  if (k < own.length) return { problem: "the challenge's own actions are not all there" };
  return {
    app: 'cnisim-challenge-work',
    version: 1,
    challenge: run.challenge.id,
    seed: run.seed,
    actions: actions as LoggedAction[],
    cursor: cursor as number,
    level: level as Level,
  };
}

/**
 * Replays saved work on the fresh run's session, as a job (stopping it leaves the fresh run).
 * True when the saved step was reached; false when the replayed trace ends before it.
 */
export function* replayChallengeWork(run: ChallengeRun, work: ChallengeWork): Job<boolean> {
  const s = run.session;
  yield* s.replaceJob(s.spec, s.seed, work.actions, work.cursor);
  s.setLevel(work.level);
  return s.cursor === work.cursor;
}
