/**
 * Challenges at run time: the candidate's Session on a cluster with a hidden fault, the ticket,
 * the check of an answer (the root cause, and the fix carried out in the simulation until the
 * node recovers or a time limit passes) and the score.
 *
 * An answer is accepted when its cause is the hidden fault's and, after its fix steps ran, every
 * recovery goal holds: a right cause with a fix that does not bring the node back is refused,
 * and so is a wrong cause whatever the fix did. A refused answer says which part was wrong
 * (cause, or the node did not recover and which goal is unmet) but never what the right one is.
 */
import type { ClusterSpec } from '../cluster/cluster';
import { injectFault } from '../faults/inject';
import * as vfs from '../fs/vfs';
import type { FaultInjector } from '../session';
import { clusterSpec } from '../scenario/run';
import { parseScenario } from '../scenario/schema';
import type { Session } from '../session/session';
import { drain, SessionError, type Job } from '../session/session';
import type { WorldState } from '../sim/world';
import { FIXES, type FixContext, type FixStep } from './fixes';
import { bindGoal, checkGoals, type CheckContext, type GoalResult } from './goals';
import { challengeScenario, drawHidden, ticketText, type Hidden } from './hidden';
import type { Challenge, Goal } from './schema';
import { scenarioSession } from './session';

/** Virtual time an answer's fix gets to bring the node back (the kubelet's back-off included). */
export const RECOVERY_LIMIT_US = 5 * 60_000_000;

export interface ChallengeRun {
  challenge: Challenge;
  seed: number;
  hidden: Hidden;
  ticket: string;
  session: Session;
  /** The step the candidate starts at (the end of the cluster's workload). */
  start: number;
  /** The cluster as the challenge describes it, without the fault (what the fixes restore). */
  intended: ClusterSpec;
}

/** Faults whose injection the catalogue records in the simulator's own words ("now hangs on ADD"). */
const QUIET: Readonly<
  Record<string, (exec: Record<string, unknown>, p: Record<string, unknown>) => unknown>
> = {
  'plugin-hangs': (exec, p) => ({ ...exec, hangOn: [String(p['command'] ?? 'ADD')] }),
  'bad-output': (exec) => ({ ...exec, stdoutNoise: true }),
};

/**
 * A challenge's injector: the catalogue's, except for a plugin made to hang or to write to stdout.
 * Those are changed under a neutral summary, as a real node would show them (something changed,
 * not what), instead of the simulator's account, which would name the fault to a candidate
 * stepping back through the trace. The change itself is the catalogue's.
 */
export const challengeInjector: FaultInjector = (c, id, params = {}) => {
  const quiet = QUIET[id];
  if (!quiet) return injectFault(c, id, params);
  const node = String(params['node']);
  const path = `/opt/cni/bin/${String(params['plugin'] ?? 'bridge')}`;
  const at = c.events.length;
  try {
    c.env(node, `${node}: a change outside the cluster's view`, ({ fs }) => {
      const e = vfs.stat(fs, path);
      if (!e || e.kind !== 'file' || !e.exec) throw new Error(`${path} is not a plugin binary`);
      const exec = quiet(e.exec as unknown as Record<string, unknown>, params) as typeof e.exec;
      return { fs: vfs.writeFile(fs, path, e.data, { mode: e.mode, exec }) };
    });
  } catch (e) {
    return { ok: false, error: `fault ${id}: ${(e as Error).message}` };
  }
  return { ok: true, at: Math.min(at, c.events.length - 1) };
};

/** Opens a challenge with a seed: the cluster with its hidden fault, run up to the ticket. */
export function openChallenge(ch: Challenge, seed: number): ChallengeRun {
  const hidden = drawHidden(ch, seed);
  const data = challengeScenario(ch, hidden, seed);
  const s = scenarioSession(data, { hideFaults: true, faults: challengeInjector });
  const pub = parseScenario({ ...ch.cluster, seed });
  if (!pub.ok) throw new Error(`challenge ${ch.id}: ${pub.errors.join('; ')}`);
  return {
    challenge: ch,
    seed,
    hidden,
    ticket: ticketText(ch, hidden),
    session: s.session,
    start: s.start,
    intended: clusterSpec(pub.scenario),
  };
}

function goalsOf(run: ChallengeRun, goals: readonly Goal[]): Goal[] {
  return goals.map((g) => bindGoal(g, run.hidden.vars));
}

/** A check context at step `step` of the run's session (default: the cursor). */
export function sessionContext(
  session: Session,
  step = session.cursor,
  setupEnd = 0,
): CheckContext {
  return {
    state: session.stateAt(step),
    events: session.events,
    step,
    setupEnd,
    audit: (s) => session.audit(s),
  };
}

/** The ticket's symptom goals, checked at the step the candidate starts at. */
export function checkSymptom(run: ChallengeRun): GoalResult[] {
  return checkGoals(goalsOf(run, run.challenge.symptom), sessionContext(run.session, run.start));
}

/** The recovery goals, checked at a step (default: the cursor). */
export function checkRecovery(run: ChallengeRun, step = run.session.cursor): GoalResult[] {
  return checkGoals(
    goalsOf(run, run.challenge.recovery),
    sessionContext(run.session, step, run.start + 1),
  );
}

// ---------------------------------------------------------------------------------------------
// Answers

export interface Answer {
  cause: string;
  /** Fix step ids, carried out in the order the challenge lists them. */
  fixes: string[];
}

export type Verdict =
  | { accepted: true; recovery: GoalResult[]; did: string[] }
  | {
      accepted: false;
      /** What was wrong, in a sentence that gives nothing of the right answer away. */
      reason: string;
      recovery: GoalResult[];
      did: string[];
    };

function fixContext(run: ChallengeRun, state: WorldState): FixContext {
  return {
    state,
    node: run.hidden.node,
    spec: run.intended,
    audit: (s) => run.session.audit(s),
  };
}

/** Runs the session until `test` holds on a state or `limitUs` of virtual time passed. */
function* runUntilState(
  session: Session,
  test: (s: WorldState) => boolean,
  limitUs: number,
): Job<void> {
  const end = session.stateAt(session.cursor).clock + limitUs;
  if (test(session.stateAt(session.cursor))) return;
  yield* session.runUntilJob({
    kind: 'predicate',
    test: (_e, _i, state) => state.clock >= end || test(state),
  });
}

function* carryOut(run: ChallengeRun, steps: FixStep[], did: string[]): Job<void> {
  const s = run.session;
  for (const step of steps) {
    if ('action' in step) {
      try {
        const r = yield* s.performJob(step.action);
        did.push(r.error ? `${describe(step.action)}: ${r.error}` : describe(step.action));
      } catch (e) {
        if (!(e instanceof SessionError)) throw e;
        did.push(`${describe(step.action)}: ${e.message}`);
      }
    } else if ('wait' in step) {
      yield* runUntilState(s, step.until, step.timeoutUs);
      did.push(`waited until ${step.wait}`);
    } else {
      yield* carryOut(run, step.later(fixContext(run, s.stateAt(s.cursor))), did);
    }
  }
}

function describe(a: { do: string } & Record<string, unknown>): string {
  const rest = Object.entries(a)
    .filter(([k]) => k !== 'do' && k !== 'data')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${a.do} ${rest.join(' ')}`.trim();
}

/**
 * Carries out an answer's fix on the run's session from the end of what is computed, runs until
 * the recovery goals hold (or RECOVERY_LIMIT_US), and judges the answer. The session keeps what
 * the fix did, so the candidate can step through it afterwards.
 */
export function submitAnswer(run: ChallengeRun, answer: Answer): Verdict {
  return drain(submitAnswerJob(run, answer));
}

/** `submitAnswer` as a job: it yields between events, for the app to run it in slices. */
export function* submitAnswerJob(run: ChallengeRun, answer: Answer): Job<Verdict> {
  const ch = run.challenge;
  const s = run.session;
  yield* s.seekJob(s.events.length - 1);
  const did: string[] = [];
  const chosen = ch.fixes.filter((f) => answer.fixes.includes(f));
  for (const id of chosen) {
    const fix = FIXES[id];
    if (!fix) continue;
    yield* carryOut(run, fix.plan(fixContext(run, s.stateAt(s.cursor))), did);
  }
  const goals = goalsOf(run, ch.recovery);
  const from = s.cursor + 1;
  const holds = (state: WorldState, step: number) =>
    checkGoals(goals, {
      state,
      events: s.events,
      step,
      setupEnd: from,
      audit: (x) => s.audit(x),
    }).every((g) => g.met);
  // Goals are checked at most once per 50 ms of virtual time: the audit is not free.
  let next = 0;
  const end = s.stateAt(s.cursor).clock + RECOVERY_LIMIT_US;
  if (!holds(s.stateAt(s.cursor), s.cursor))
    yield* s.runUntilJob({
      kind: 'predicate',
      test: (_e, i, state) => {
        if (state.clock >= end) return true;
        if (state.clock < next) return false;
        next = state.clock + 50_000;
        return holds(state, i);
      },
    });
  const recovery = checkGoals(goals, sessionContext(s, s.cursor, from));
  const recovered = recovery.every((g) => g.met);
  const causeOk = answer.cause === run.hidden.variant.cause;
  if (causeOk && recovered) return { accepted: true, recovery, did };
  const reason = !causeOk
    ? recovered
      ? 'The node recovered, but that is not the root cause.'
      : 'That is not the root cause, and the node did not recover.'
    : `That is the root cause, but the node did not recover: ${recovery.find((g) => !g.met)!.explanation}.`;
  return { accepted: false, reason, recovery, did };
}

// ---------------------------------------------------------------------------------------------
// Score

export interface ScoreInput {
  hintsUsed: number;
  /** Steps the candidate moved the cursor or acted (shell commands, actions). */
  steps: number;
  /** Wall-clock seconds from opening the challenge to the accepted answer. */
  seconds: number;
  /** Answers refused before the accepted one. */
  wrongAnswers: number;
}

export interface Score {
  points: number;
  /** What each part cost, for the candidate to read. */
  parts: { label: string; points: number }[];
}

/**
 * 100 points, less 15 per hint, 10 per refused answer, 1 per 10 steps beyond the first 50 and
 * 1 per minute beyond the first 10; never below 10 for a solved challenge.
 */
export function scoreChallenge(x: ScoreInput): Score {
  const parts = [
    { label: `${x.hintsUsed} hint${x.hintsUsed === 1 ? '' : 's'}`, points: -15 * x.hintsUsed },
    {
      label: `${x.wrongAnswers} refused answer${x.wrongAnswers === 1 ? '' : 's'}`,
      points: -10 * x.wrongAnswers,
    },
    { label: `${x.steps} steps`, points: -Math.floor(Math.max(0, x.steps - 50) / 10) },
    {
      label: `${Math.round(x.seconds / 60)} min`,
      points: -Math.floor(Math.max(0, x.seconds - 600) / 60),
    },
  ];
  const points = Math.max(10, 100 + parts.reduce((a, p) => a + p.points, 0));
  return { points, parts };
}

// ---------------------------------------------------------------------------------------------
// Debrief

export interface Debrief {
  /** The hidden fault's cause, as offered. */
  cause: { id: string; text: string };
  /** The fix steps that recover the node from it, as labelled. */
  fix: string[];
  /** Every other cause offered, with why it is not this ticket's. */
  refused: { id: string; text: string; why: string }[];
  /** The challenge's lesson, whatever the fault. */
  text: string;
}

/** What the candidate reads once the attempt ends (solved or given up). */
export function debriefOf(run: ChallengeRun): Debrief {
  const ch = run.challenge;
  const v = run.hidden.variant;
  const cause = ch.causes.find((c) => c.id === v.cause)!;
  return {
    cause: { id: cause.id, text: cause.text },
    fix: v.fix.map((f) => FIXES[f]?.label ?? f),
    refused: ch.causes.filter((c) => c.id !== v.cause).map((c) => ({ ...c })),
    text: ch.debrief,
  };
}
