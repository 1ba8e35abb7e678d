/**
 * The course's lessons as data: every file validates, the course covers issue 7's list, every
 * solution replays headless and meets all its goals, and every narration entry and quiz link
 * points at an event that really happens in its lesson.
 */
import { describe, expect, it } from 'vitest';
import { loadCourse } from './content';
import { runLesson, type LessonRun } from './lesson';
import { findEvent } from './match';
import { MYTH_IDS, TOPICS, type Lesson } from './schema';

const course = loadCourse();
const runs = new Map<string, LessonRun>();
function solved(l: Lesson): LessonRun {
  let r = runs.get(l.id);
  if (!r) {
    const out = runLesson(l);
    if ('errors' in out) throw new Error(`${l.id}: ${out.errors.join('; ')}`);
    r = out;
    runs.set(l.id, r);
  }
  return r;
}

describe('the course content', () => {
  it('loads with no invalid file', () => {
    expect(course.errors).toEqual([]);
  });

  it('has at least 10 lessons covering every topic of the issue', () => {
    expect(course.lessons.length).toBeGreaterThanOrEqual(10);
    const covered = new Set(course.lessons.flatMap((l) => l.covers));
    expect(TOPICS.filter((t) => !covered.has(t))).toEqual([]);
  });

  it('has at least 40 quiz questions, and every §8 simplification is used as a distractor', () => {
    const qs = course.lessons.flatMap((l) => l.quiz);
    expect(qs.length).toBeGreaterThanOrEqual(40);
    const myths = new Set(qs.flatMap((q) => q.choices.flatMap((c) => (c.myth ? [c.myth] : []))));
    expect(MYTH_IDS.filter((m) => !myths.has(m))).toEqual([]);
  });

  it('gives one lesson to what real nodes actually do', () => {
    const l = course.lessons.find((x) => x.covers.includes('real-nodes'));
    expect(l?.title).toMatch(/real nodes/i);
  });
});

describe.each(course.lessons.map((l) => [l.id, l] as const))('lesson %s', (_, lesson) => {
  it('replays its solution headless and meets every goal', { timeout: 60_000 }, () => {
    const r = solved(lesson);
    const unmet = r.goals.filter((g) => !g.met).map((g) => `${g.id}: ${g.explanation}`);
    expect(unmet).toEqual([]);
  });

  it('does not meet all its goals from the start alone', { timeout: 60_000 }, () => {
    const r = runLesson(lesson, { solution: false });
    if ('errors' in r) throw new Error(r.errors.join('; '));
    const unmet = r.goals.filter((g) => !g.met);
    expect(unmet.length).toBeGreaterThan(0);
    // An unmet goal always says what it expected and what is there instead.
    for (const g of unmet) expect(g.explanation).toMatch(/^expected .+; .+/);
  });

  it('narrates events that happen in its solution', { timeout: 60_000 }, () => {
    const { run } = solved(lesson);
    const silent = lesson.narration
      .filter((n) => findEvent(run.cluster.events, n.when) < 0)
      .map((n) => JSON.stringify(n.when));
    expect(silent).toEqual([]);
  });

  it('links every quiz question to a step of a lesson scenario', { timeout: 60_000 }, () => {
    const broken: string[] = [];
    for (const q of lesson.quiz) {
      const target = q.link.lesson ? course.lessons.find((l) => l.id === q.link.lesson) : lesson;
      if (!target) {
        broken.push(`${q.id}: no lesson ${q.link.lesson}`);
        continue;
      }
      if (findEvent(solved(target).run.cluster.events, q.link.at) < 0)
        broken.push(`${q.id}: nothing matches ${JSON.stringify(q.link.at)}`);
    }
    expect(broken).toEqual([]);
  });
});
