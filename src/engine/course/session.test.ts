/**
 * A lesson opened in the app is a Session replaying its scenario's actions at the steps the
 * headless run took them: the trace must be the same event for event, or narration, goals and
 * quiz links computed headless would point at other steps than the ones the learner sees.
 */
import { describe, expect, it } from 'vitest';
import { loadCourse } from './content';
import { lessonScenario } from './lesson';
import { scenarioSession } from './session';
import { runScenario } from '../scenario/run';

const lessons = loadCourse().lessons;

describe.each(lessons.map((l) => [l.id, l] as const))('lesson %s in a Session', (_, lesson) => {
  it('replays the headless trace of its solution exactly', { timeout: 60_000 }, () => {
    const data = lessonScenario(lesson, { solution: true });
    const headless = runScenario(data);
    if (!headless.ok) throw new Error(headless.errors.join('; '));
    const s = scenarioSession(data);
    expect(s.length).toBe(headless.cluster.events.length);
    expect(s.session.cursor).toBe(s.length - 1);
    const a = headless.cluster.events.map((e) => `${e.source}>${e.target} ${e.summary}`);
    const b = s.session.events
      .slice(0, s.length)
      .map((e) => `${e.source}>${e.target} ${e.summary}`);
    expect(b).toEqual(a);
    expect(s.idleWaits).toEqual([]);
  });
});

describe('scenarioSession', () => {
  it('reports an action made after an idle wait, which the Session makes earlier', () => {
    const s = scenarioSession({
      version: 1,
      nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }],
      actions: [
        { do: 'createPod', name: 'web-0' },
        { do: 'runUntil', until: 'pod-running:web-0', timeout: '1m' },
        { do: 'wait', for: '30s' },
        { do: 'deletePod', pod: 'web-0' },
      ],
    });
    expect(s.idleWaits).toHaveLength(1);
    expect(s.idleWaits[0]).toMatchObject({ action: 3 });
    expect(s.idleWaits[0]!.seconds).toBeGreaterThan(20);
    expect(s.idleWaits[0]!.seconds).toBeLessThanOrEqual(30);
  });

  it('throws naming the problem of an invalid scenario', () => {
    expect(() => scenarioSession({ version: 1, nodes: [] })).toThrow(/invalid scenario: .*nodes/);
  });
});
