/**
 * Every lesson makes a handout: its narrated steps, in order, each with the sentences the lesson
 * panel shows at that step of the solution's run, and the goals that run meets.
 */
import { describe, expect, it } from 'vitest';
import { loadCourse } from './content';
import { lessonHandout, lessonHandoutJob } from './handout';
import { narrationAt } from './lesson';

const course = loadCourse();

describe.each(course.lessons.map((l) => [l.id, l] as const))('handout of %s', (_, lesson) => {
  it('lists every narrated step of the solution with its sentences', { timeout: 60_000 }, () => {
    const h = lessonHandout(lesson);
    if ('errors' in h) throw new Error(h.errors.join('; '));
    expect(h.steps.length).toBeGreaterThan(0);
    const at = h.steps.map((s) => s.step);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    for (const s of h.steps) {
      expect(s.text).toEqual(narrationAt(lesson, h.events, s.step));
      expect(s.event.summary).toBe(h.events[s.step]!.summary);
      expect(s.learner).toBe(s.step >= h.setupEnd);
    }
    // Every step the lesson narrates anywhere in the run is on the handout.
    const spoken = h.events.filter((_, i) => narrationAt(lesson, h.events, i).length > 0);
    expect(spoken.map((e) => e.seq)).toEqual(at);
    expect(h.goals.map((g) => g.id)).toEqual(lesson.goals.map((g) => g.id));
    expect(h.goals.filter((g) => !g.met)).toEqual([]);
  });
});

describe('a lesson whose run fails', () => {
  it('gives its problems instead of a handout', () => {
    const lesson = course.lessons[0]!;
    const broken = { ...lesson, start: { ...lesson.start, nodes: [] } };
    const h = lessonHandout(broken);
    expect('errors' in h && h.errors.length > 0).toBe(true);
  });
});

describe('the handout as a job', () => {
  it('runs the lesson in many small units, to the same handout', () => {
    const lesson = course.lessons.find((l) => l.id === 'add-step-by-step')!;
    const job = lessonHandoutJob(lesson);
    let units = 0;
    let r = job.next();
    for (; !r.done; r = job.next()) units++;
    // One unit per step of the cluster: the page can slice it (it was one task).
    expect(units).toBeGreaterThan(50);
    expect(JSON.stringify(r.value)).toBe(JSON.stringify(lessonHandout(lesson)));
  });
});
