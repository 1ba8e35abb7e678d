/**
 * A challenge's work survives a reload: what the learner did to the cluster (commands in a node's
 * shell, actions, the conflist editor) and the step they were at, saved in localStorage beside
 * the attempt (progress.ts keeps hints, refused answers and the score). Opening the same
 * challenge and seed again replays that work on the fresh challenge (open.ts), so the cluster is
 * the one the learner left, not the ticket's first state. One challenge's work is kept: the last
 * one worked on.
 *
 * The record holds the session's whole log (the challenge's own actions and the learner's; the
 * hidden fault is not in the log, the challenge injects it), but is read with care: the
 * challenge's own actions must be there unchanged and in order, and the learner's must be
 * actions the app accepts (engine `actionProblems`).
 */
import { LEVELS, type ChallengeRun, type Level, type Session } from '../../engine';
import { tryWrite } from '../storage';
import { get, subscribe } from '../app/state';
import { storage, useCourse } from './state';

export const WORK_KEY = 'cnisim.challenge-work.v1';

type Logged = ReturnType<Session['loggedActions']>[number];

export interface ChallengeWork {
  app: 'cnisim-challenge-work';
  version: 1;
  challenge: string;
  seed: number;
  actions: Logged[];
  cursor: number;
  level: Level;
}

/** The work on `run` as it is now. */
export function workOf(run: ChallengeRun): ChallengeWork {
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

/** Up to this many actions are read back (a tampered record cannot make a replay endless). */
const MAX_ACTIONS = 2000;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads saved work for a freshly opened `run`: null when none is saved for its challenge and
 * seed, the work to replay, or why it cannot be (a damaged or tampered record).
 * `actionProblems` is the engine's check of one action (EngineModule.actionProblems).
 */
export function readWork(
  text: string | null,
  run: ChallengeRun,
  actionProblems: (a: unknown) => string[],
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
  if (!Array.isArray(actions) || actions.length > MAX_ACTIONS)
    return { problem: `actions: expected a list of at most ${MAX_ACTIONS}` };
  // The challenge's own actions (with its hidden fault) come first in the same order, unchanged.
  const own = run.session.loggedActions().map((a) => JSON.stringify(a));
  let k = 0;
  let step = 0;
  for (const [i, a] of (actions as unknown[]).entries()) {
    if (k < own.length && JSON.stringify(a) === own[k]) {
      k++;
      step = (a as Logged).step;
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
    actions: actions as Logged[],
    cursor: cursor as number,
    level: level as Level,
  };
}

/** Replays saved work on the fresh challenge's session (a job: Stop leaves the fresh one). */
export function* replayWork(run: ChallengeRun, work: ChallengeWork): Generator<number, boolean> {
  const s = run.session;
  yield* s.replaceJob(s.spec, s.seed, work.actions, work.cursor);
  s.setLevel(work.level);
  return s.cursor === work.cursor;
}

/** Reads the saved work's text (null when there is none, or storage is unavailable). */
export function savedWorkText(): string | null {
  try {
    return storage()?.getItem(WORK_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Forgets saved work (a record that could not be read). */
export function forgetWork(): void {
  try {
    storage()?.removeItem(WORK_KEY);
  } catch {
    // Unavailable storage: nothing was saved either.
  }
}

/** The challenge open in the app, when the session shown is its own. */
function shownChallenge(): ChallengeRun | null {
  const open = useCourse.getState().open;
  const { session, source } = get();
  return open?.kind === 'challenge' && source === 'course' && session === open.run.session
    ? open.run
    : null;
}

/** Set while the work being opened is replayed: saving then would write a half-done cluster. */
let restoring = false;
export function setRestoring(on: boolean): void {
  restoring = on;
}

/** Saves the work on the challenge shown now. */
export function saveWorkNow(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const run = restoring ? null : shownChallenge();
  if (!run) return;
  // Unavailable or full storage: the work lasts for this page only (the attempt's own record,
  // in the progress, says the same once).
  tryWrite(storage(), WORK_KEY, JSON.stringify(workOf(run)));
}

let timer: ReturnType<typeof setTimeout> | null = null;

// The session's changes (a step, an action) are saved a moment after the last; a reload or a
// closed tab saves at once.
subscribe((st, prev) => {
  if (st.version === prev.version || !shownChallenge()) return;
  if (timer) clearTimeout(timer);
  timer = setTimeout(saveWorkNow, 300);
});
if (typeof window !== 'undefined') window.addEventListener('pagehide', saveWorkNow);
