import { describe, expect, it } from 'vitest';
import { loadCourse } from '../../../engine/course/content';
import { lessonHandout } from '../../../engine/course/handout';
import { AFTER, BEFORE, stepDiagram } from './diagram';

describe('a handout step diagram', () => {
  const lesson = loadCourse().lessons[0]!;
  const h = lessonHandout(lesson);
  if ('errors' in h) throw new Error(h.errors.join('; '));

  it('shows the step among the messages around it, the step itself marked', () => {
    for (const s of h.steps) {
      const { window: w, current } = stepDiagram(h.events, s.step);
      const seqs = w.messages.map((m) => m.seq);
      expect(seqs.length).toBeGreaterThan(0);
      expect(seqs.length).toBeLessThanOrEqual(BEFORE + AFTER + 1);
      expect(current).not.toBeNull();
      expect(seqs).toContain(current);
      // The step's own message when it is one (every narrated step of this lesson is).
      expect(current).toBe(s.step);
      expect(w.source).toContain('sequenceDiagram');
    }
  });

  it('falls back to the last message before a step that is not a message', () => {
    const events = h.events;
    const log = events.findIndex((e) => e.kind === 'log');
    expect(log).toBeGreaterThan(0);
    const { current, window: w } = stepDiagram(events, log);
    expect(current).toBeLessThan(log);
    expect(events[current!]!.kind).not.toBe('log');
    expect(w.messages.every((m) => events[m.seq]!.kind !== 'log')).toBe(true);
  });
});
