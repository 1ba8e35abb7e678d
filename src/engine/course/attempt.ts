/**
 * A learner's attempt at a lesson or a challenge, as a pure machine: events in, a new snapshot
 * out (`attemptStep(snapshot, event)`), nothing else read or changed. The course panel keeps the
 * snapshot and renders it; the tests drive it without a page.
 *
 * What it decides:
 * - hints: a lesson's graded hints per goal (nudge, concept, step; the next one goes to the first
 *   unmet goal that has more), a challenge's hints in order, none after the attempt ended;
 * - steps: every move of the cursor while the attempt is open counts one;
 * - answers (a challenge): one check at a time; a refused answer counts, an accepted one ends the
 *   attempt with its score (scoreChallenge); giving up ends it without a score;
 * - time: from `opened` to the accepted answer, in the caller's clock (ms), given with the events;
 * - saving (a challenge): `attemptRecord` is what outlives the page (hints shown, refused answers,
 *   steps, when it was opened and ended); `resumeAttempt` opens the attempt again from it, so a
 *   reload neither makes hints free nor forgets refused answers, and the clock keeps running.
 */
import { scoreChallenge, type Score, type Verdict } from './challenge';

export type AttemptStatus = 'open' | 'checking' | 'solved' | 'gave-up';

export interface Attempt {
  kind: 'lesson' | 'challenge';
  /** The caller's clock (ms) when it was opened. */
  opened: number;
  status: AttemptStatus;
  /** Moves of the cursor while open. */
  steps: number;
  /** The cursor last seen. */
  cursor: number;
  /** A lesson: hint level shown per goal (1 nudge, 2 concept, 3 step). */
  hints: Record<string, 1 | 2 | 3>;
  /** Hints shown in all (a challenge's count, a lesson's sum over its goals). */
  hintsUsed: number;
  /** A challenge: how many hints it has. */
  hintCount: number;
  wrongAnswers: number;
  verdict: Verdict | null;
  score: Score | null;
  /** The caller's clock (ms) when an answer was accepted. */
  ended: number | null;
  /** Why the last check could not run (an engine error), for the panel to say. */
  error: string | null;
}

export type AttemptEvent =
  | { type: 'cursor'; cursor: number }
  /** A lesson: the next hint, given which goals are met now. */
  | {
      type: 'lesson-hint';
      goals: readonly { id: string; hinted: boolean; met: boolean }[];
    }
  | { type: 'challenge-hint' }
  | { type: 'submit' }
  | { type: 'verdict'; verdict: Verdict; now: number }
  | { type: 'check-failed'; error: string }
  | { type: 'give-up' };

export function openAttempt(
  kind: Attempt['kind'],
  opts: { now: number; cursor: number; hintCount?: number; hints?: Attempt['hints'] },
): Attempt {
  const hints = opts.hints ?? {};
  return {
    kind,
    opened: opts.now,
    status: 'open',
    steps: 0,
    cursor: opts.cursor,
    hints,
    hintsUsed: Object.values(hints).reduce((a, n) => a + n, 0),
    hintCount: opts.hintCount ?? 0,
    wrongAnswers: 0,
    verdict: null,
    score: null,
    ended: null,
    error: null,
  };
}

/** What of a challenge attempt is kept across a reload of the page. */
export interface AttemptRecord {
  /** The caller's clock (ms) when it was opened. */
  opened: number;
  steps: number;
  /** Hints shown. */
  hints: number;
  /** Answers refused. */
  refused: number;
  /** A check under way when the page went away did not end: it is saved as open. */
  status: 'open' | 'solved' | 'gave-up';
  /** The caller's clock (ms) when it was solved. */
  ended?: number;
}

/** A challenge attempt's record, to save. */
export function attemptRecord(a: Attempt): AttemptRecord {
  const status = a.status === 'checking' ? 'open' : a.status;
  return {
    opened: a.opened,
    steps: a.steps,
    hints: a.hintsUsed,
    refused: a.wrongAnswers,
    status,
    ...(status === 'solved' && a.ended !== null ? { ended: a.ended } : {}),
  };
}

/**
 * A challenge attempt opened again from its record: the same hints shown (they still cost
 * points), refused answers, steps and clock. A solved one keeps its score (computed again from
 * the record, never read from it). Values out of range are brought back into it: at most the
 * challenge's hints, a start no later than `now`, an end between the start and `now`.
 */
export function resumeAttempt(
  r: AttemptRecord,
  opts: { now: number; cursor: number; hintCount: number },
): Attempt {
  const a = openAttempt('challenge', {
    now: Math.min(r.opened, opts.now),
    cursor: opts.cursor,
    hintCount: opts.hintCount,
  });
  const resumed: Attempt = {
    ...a,
    steps: r.steps,
    hintsUsed: Math.min(r.hints, opts.hintCount),
    wrongAnswers: r.refused,
    status: r.status,
  };
  if (r.status !== 'solved') return resumed;
  const ended = Math.min(Math.max(r.ended ?? resumed.opened, resumed.opened), opts.now);
  return {
    ...resumed,
    ended,
    score: scoreChallenge({
      hintsUsed: resumed.hintsUsed,
      steps: resumed.steps,
      seconds: (ended - resumed.opened) / 1000,
      wrongAnswers: resumed.wrongAnswers,
    }),
  };
}

/** Whether the attempt is over (solved or given up): the debrief shows, nothing more counts. */
export function attemptEnded(a: Attempt): boolean {
  return a.status === 'solved' || a.status === 'gave-up';
}

/** A lesson: the goal the next hint is for (the first unmet one with hints left), or null. */
export function nextHintGoal(
  a: Attempt,
  goals: readonly { id: string; hinted: boolean; met: boolean }[],
): string | null {
  if (attemptEnded(a)) return null;
  return goals.find((g) => g.hinted && !g.met && (a.hints[g.id] ?? 0) < 3)?.id ?? null;
}

/** A challenge: whether another hint can be shown. */
export function canHint(a: Attempt): boolean {
  return a.status === 'open' && a.hintsUsed < a.hintCount;
}

/** A challenge: whether an answer can be submitted now. */
export function canSubmit(a: Attempt): boolean {
  return a.status === 'open';
}

export function attemptStep(a: Attempt, e: AttemptEvent): Attempt {
  switch (e.type) {
    case 'cursor':
      if (e.cursor === a.cursor) return a;
      // Moves after the attempt ended (stepping through the fix) cost nothing.
      return { ...a, cursor: e.cursor, steps: attemptEnded(a) ? a.steps : a.steps + 1 };
    case 'lesson-hint': {
      const id = nextHintGoal(a, e.goals);
      if (a.kind !== 'lesson' || !id) return a;
      const level = ((a.hints[id] ?? 0) + 1) as 1 | 2 | 3;
      return { ...a, hints: { ...a.hints, [id]: level }, hintsUsed: a.hintsUsed + 1 };
    }
    case 'challenge-hint':
      if (a.kind !== 'challenge' || !canHint(a)) return a;
      return { ...a, hintsUsed: a.hintsUsed + 1 };
    case 'submit':
      if (a.kind !== 'challenge' || !canSubmit(a)) return a;
      return { ...a, status: 'checking', error: null };
    case 'check-failed':
      if (a.status !== 'checking') return a;
      return { ...a, status: 'open', error: e.error };
    case 'verdict': {
      if (a.status !== 'checking') return a;
      if (!e.verdict.accepted)
        return { ...a, status: 'open', verdict: e.verdict, wrongAnswers: a.wrongAnswers + 1 };
      const score = scoreChallenge({
        hintsUsed: a.hintsUsed,
        steps: a.steps,
        seconds: Math.max(0, (e.now - a.opened) / 1000),
        wrongAnswers: a.wrongAnswers,
      });
      return { ...a, status: 'solved', verdict: e.verdict, score, ended: e.now };
    }
    case 'give-up':
      if (a.kind !== 'challenge' || a.status !== 'open') return a;
      return { ...a, status: 'gave-up' };
  }
}
