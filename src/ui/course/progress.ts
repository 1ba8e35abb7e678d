/**
 * A learner's progress, saved in this browser per lesson and challenge, exported to a file and
 * imported back. Saved data is checked against a schema when read: progress that does not
 * validate (hand-edited, from a future version, cut short) is set aside under its own key with a
 * notice, never a blank page, and a bad import replaces nothing.
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

const challengeProgress = z.strictObject({
  attempts: count,
  solved: z.boolean(),
  /** Best score of a solved attempt. */
  best: z.optional(count),
  /** The seed of the last attempt (to come back to it). */
  seed: z.optional(count),
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

export type ParsedProgress = { ok: true; progress: Progress } | { ok: false; error: string };

/** Reads progress from text (a saved copy or an imported file); never throws. */
export function parseProgress(text: string): ParsedProgress {
  if (text.length > 2_000_000) return { ok: false, error: 'the file is larger than 2 MB' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not valid JSON (${(e as Error).message})` };
  }
  const r = progressSchema.safeParse(data);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const at = i.path.length ? i.path.map(String).join('.') : 'the file';
    return { ok: false, error: `${at}: ${i.message}` };
  }
  return { ok: true, progress: r.data };
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
