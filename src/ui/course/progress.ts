/**
 * A learner's progress, saved in this browser per lesson and challenge, exported to a file and
 * imported back. Saved data is checked against a schema when read: progress that does not
 * validate (hand-edited, from a future version, cut short) is set aside under its own key with a
 * notice, never a blank page, and a bad import replaces nothing.
 *
 * A challenge's open attempt (hints shown, refused answers, steps, clock: engine/course/attempt.ts
 * `AttemptRecord`) is saved with it, so a reload does not start it over. Progress saved before
 * that field existed loads as it is; an attempt entry that does not validate is dropped with a
 * notice, and the rest of the progress is kept.
 */
import * as z from 'zod/mini';
import { damagedCopyText, setAside } from '../storage';

z.config({ jitless: true });

export const PROGRESS_KEY = 'cnisim.course.v1';
export const PROGRESS_DAMAGED_KEY = 'cnisim.course.v1.damaged';

const count = z.int().check(z.minimum(0), z.maximum(1_000_000));

const lessonProgress = z.strictObject({
  /** Goals met at some step. */
  goals: z.array(z.string()).check(z.maxLength(100)),
  /** Quiz questions answered: true when right. */
  quiz: z.record(z.string(), z.boolean()),
  hints: count,
  done: z.boolean(),
});
export type LessonProgress = z.output<typeof lessonProgress>;

/** Milliseconds since 1970, up to the year 2255. */
const epochMs = z.int().check(z.minimum(0), z.maximum(9_000_000_000_000));

/** The attempt at a challenge's seed that was under way or ended (engine AttemptRecord). */
const savedAttempt = z.strictObject({
  seed: count,
  opened: epochMs,
  steps: count,
  hints: count,
  refused: count,
  status: z.enum(['open', 'solved', 'gave-up']),
  ended: z.optional(epochMs),
});
export type SavedAttempt = z.output<typeof savedAttempt>;

const challengeProgress = z.strictObject({
  attempts: count,
  solved: z.boolean(),
  /** Best score of a solved attempt. */
  best: z.optional(count),
  /** The seed of the last attempt (to come back to it). */
  seed: z.optional(count),
  /** The last attempt, to resume after a reload (absent in progress saved before it existed). */
  attempt: z.optional(savedAttempt),
});
export type ChallengeProgress = z.output<typeof challengeProgress>;

export const progressSchema = z.strictObject({
  app: z.literal('cnisim-course'),
  version: z.literal(1),
  /** This learner's seed: the order quiz choices are shown in (the same on every visit). */
  learner: z.optional(z.int().check(z.minimum(1), z.maximum(0x7fffffff))),
  lessons: z.record(z.string(), lessonProgress),
  challenges: z.record(z.string(), challengeProgress),
});
export type Progress = z.output<typeof progressSchema>;

export function emptyProgress(): Progress {
  return { app: 'cnisim-course', version: 1, lessons: {}, challenges: {} };
}

export function emptyLesson(): LessonProgress {
  return { goals: [], quiz: {}, hints: 0, done: false };
}

export function emptyChallenge(): ChallengeProgress {
  return { attempts: 0, solved: false };
}

export type ParsedProgress =
  | {
      ok: true;
      progress: Progress;
      /** Attempt entries that did not validate and were left out, with why. */
      dropped?: string[];
    }
  | { ok: false; error: string };

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

function issueText(issues: readonly { path: PropertyKey[]; message: string }[], at: string) {
  const i = issues[0]!;
  return `${[at, ...i.path.map(String)].join('.')}: ${i.message}`;
}

/**
 * Leaves out every challenge's attempt entry that does not validate (a tampered or cut-short
 * record costs that attempt, never the rest of the progress).
 */
function dropBadAttempts(data: unknown): { data: unknown; dropped: string[] } {
  if (!isRecord(data) || !isRecord(data['challenges'])) return { data, dropped: [] };
  const dropped: string[] = [];
  const challenges: Record<string, unknown> = {};
  for (const [id, c] of Object.entries(data['challenges'])) {
    if (isRecord(c) && 'attempt' in c) {
      const r = savedAttempt.safeParse(c['attempt']);
      if (!r.success) {
        dropped.push(issueText(r.error.issues, `challenges.${id}.attempt`));
        const { attempt: _, ...rest } = c;
        challenges[id] = rest;
        continue;
      }
    }
    challenges[id] = c;
  }
  return dropped.length ? { data: { ...data, challenges }, dropped } : { data, dropped };
}

/** Reads progress from text (a saved copy or an imported file); never throws. */
export function parseProgress(text: string): ParsedProgress {
  if (text.length > 2_000_000) return { ok: false, error: 'the file is larger than 2 MB' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not valid JSON (${(e as Error).message})` };
  }
  const cleaned = dropBadAttempts(data);
  const r = progressSchema.safeParse(cleaned.data);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const at = i.path.length ? i.path.map(String).join('.') : 'the file';
    return { ok: false, error: `${at}: ${i.message}` };
  }
  return cleaned.dropped.length
    ? { ok: true, progress: r.data, dropped: cleaned.dropped }
    : { ok: true, progress: r.data };
}

export function serializeProgress(p: Progress): string {
  return `${JSON.stringify(p, null, 2)}\n`;
}

/** What storing can do (localStorage, or a stand-in in tests). */
export interface Store {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface Loaded {
  progress: Progress;
  /** Set when saved progress was unreadable: what happened to it. */
  problem: string | null;
  /** The unreadable text, for the notice to offer as a download (kept aside or not). */
  damaged?: string;
}

/** Loads saved progress; unreadable progress is moved to PROGRESS_DAMAGED_KEY. */
export function loadProgress(store: Store | null): Loaded {
  let text: string | null;
  try {
    text = store?.getItem(PROGRESS_KEY) ?? null;
  } catch {
    text = null;
  }
  if (text === null) return { progress: emptyProgress(), problem: null };
  const r = parseProgress(text);
  if (r.ok && r.dropped)
    return {
      progress: r.progress,
      problem: `A saved challenge attempt could not be read (${r.dropped.join('; ')}): it was left out, and the rest of your progress is kept.`,
      damaged: text,
    };
  if (r.ok) return { progress: r.progress, problem: null };
  // Storage that refuses the copy keeps the original until the fresh progress is saved over it.
  const kept = setAside(store, PROGRESS_KEY, PROGRESS_DAMAGED_KEY, text);
  return {
    progress: emptyProgress(),
    problem: `Your saved course progress could not be read (${r.error}). You start afresh. ${damagedCopyText(kept, PROGRESS_DAMAGED_KEY)}`,
    damaged: text,
  };
}

/** Saves progress; false when storage refused. */
export function saveProgress(store: Store | null, p: Progress): boolean {
  try {
    store?.setItem(PROGRESS_KEY, serializeProgress(p));
    return store !== null;
  } catch {
    return false;
  }
}
