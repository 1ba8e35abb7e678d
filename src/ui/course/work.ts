/**
 * A challenge's work survives a reload: the record the engine makes of it (engine
 * `challengeWork`: the session's log, the step and the level) is saved in localStorage beside the
 * attempt (progress.ts keeps hints, refused answers and the score). Opening the same challenge and
 * seed again reads it back and replays it on the fresh challenge (open.ts, with the engine's
 * `readChallengeWork` and `replayChallengeWork`). One challenge's work is kept: the last one
 * worked on. This module only keeps the record: when it is written, where, and forgetting it.
 */
import { loadCourseEngine, type ChallengeRun } from '../../engine';
import { tryWrite } from '../storage';
import { get, subscribe } from '../app/state';
import { storage, useCourse } from './state';

export const WORK_KEY = 'cnisim.challenge-work.v1';

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
  // in the progress, says the same once). A challenge is shown once the course engine is loaded.
  const work = loadCourseEngine.now().challengeWork(run);
  tryWrite(storage(), WORK_KEY, JSON.stringify(work));
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
