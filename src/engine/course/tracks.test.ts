/**
 * Short levels and tracks (issue 15): at least 20 lessons; three tracks (a workshop core of about
 * an hour, an operator track, an interview track) in which every lesson is a short level (at most
 * 3 goals, at most 8 minutes, every goal with graded hints, at least one prediction) and nothing is
 * used before a lesson of the track teaches it.
 */
import { describe, expect, it } from 'vitest';
import { loadCourse } from './content';
import { SHORT_LEVEL, type Lesson } from './schema';

const course = loadCourse();
const byId = new Map(course.lessons.map((l) => [l.id, l]));

function shortLevelProblems(l: Lesson): string[] {
  const out: string[] = [];
  if (l.goals.length > SHORT_LEVEL.goals) out.push(`${l.id}: ${l.goals.length} goals`);
  if (l.minutes > SHORT_LEVEL.minutes) out.push(`${l.id}: ${l.minutes} minutes`);
  for (const g of l.goals) if (!g.hint) out.push(`${l.id}: goal ${g.id} has no hints`);
  if (!l.predictions?.length) out.push(`${l.id}: no prediction`);
  return out;
}

describe('tracks', () => {
  it('load with every lesson they name', () => {
    expect(course.errors).toEqual([]);
    expect(course.tracks.map((t) => t.id)).toEqual(['workshop', 'operator', 'interview']);
  });

  it('the course has at least 20 lessons', () => {
    expect(course.lessons.length).toBeGreaterThanOrEqual(20);
  });

  it('the workshop core takes about an hour', () => {
    const w = course.tracks.find((t) => t.id === 'workshop')!;
    const minutes = w.lessons.reduce((n, id) => n + byId.get(id)!.minutes, 0);
    expect(minutes).toBeGreaterThanOrEqual(50);
    expect(minutes).toBeLessThanOrEqual(70);
  });

  it('every lesson of the course is a short level, and in at least one track', () => {
    expect(course.lessons.flatMap((l) => shortLevelProblems(l))).toEqual([]);
    const inTracks = new Set(course.tracks.flatMap((t) => t.lessons));
    expect(course.lessons.map((l) => l.id).filter((id) => !inTracks.has(id))).toEqual([]);
  });

  it.each(course.tracks.map((t) => [t.id, t] as const))(
    '%s: every lesson is a short level',
    (_, t) => {
      expect(t.lessons.flatMap((id) => shortLevelProblems(byId.get(id)!))).toEqual([]);
    },
  );

  it.each(course.tracks.map((t) => [t.id, t] as const))(
    '%s: nothing is used before it is taught',
    (_, t) => {
      const taught = new Set<string>();
      const early: string[] = [];
      for (const id of t.lessons) {
        const l = byId.get(id)!;
        for (const n of l.needs ?? []) if (!taught.has(n)) early.push(`${id} needs ${n}`);
        l.covers.forEach((c) => taught.add(c));
      }
      expect(early).toEqual([]);
    },
  );
});
