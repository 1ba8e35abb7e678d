/**
 * The landing's precomputed trace (landing-trace.ts), as the build makes it, against the engine's
 * own session, step by step: the same events, the same steps at every detail level forward and
 * back, the same markers, and what the Inspector and the Pods view show at each step. The
 * session the landing's engine makes takes over from the preview at the step reached.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, loadLanding, type LandingEngine } from '../engine';
import { openPreview, previewCmd, takeOver } from './app/preview';
import { get } from './app/state';
import { buildLandingTrace } from './landing-trace-build';
import { nextStep, podsAtStep, previousStep, type LandingTrace } from './landing-trace';
import { stepDetail } from './panels/inspector-data';
import { podsData } from './panels/pods-data';

const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

let trace: LandingTrace;
let landing: LandingEngine;

beforeAll(async () => {
  [trace, landing] = await Promise.all([buildLandingTrace(), loadLanding()]);
});

describe("the landing's precomputed trace", () => {
  it('holds the landing engine’s first LANDING_EVENTS events, from its start', () => {
    const s = landing.newSandbox();
    expect(trace.start).toBe(s.start);
    expect(trace.events).toHaveLength(landing.LANDING_EVENTS);
    // The session computes no further than the landing's engine may to reach any of them.
    expect(Math.max(...trace.lengths)).toBe(landing.LANDING_EVENTS);
    s.seek(landing.LANDING_EVENTS - 1);
    expect(s.events).toHaveLength(landing.LANDING_EVENTS);
    for (let i = 0; i < trace.events.length; i++)
      expect(trace.events[i], `event ${i}`).toEqual(plain(s.events[i]));
  });

  it('shows at each step what the Inspector and the Pods view show on the engine', () => {
    const s = landing.newSandbox();
    s.seek(landing.LANDING_EVENTS - 1);
    expect(podsAtStep(trace, -1)).toEqual(plain(podsData(s, -1, () => true)));
    for (let i = 0; i < trace.events.length; i++) {
      expect(trace.details[i], `Inspector at ${i}`).toEqual(plain(stepDetail(s, i)));
      expect(podsAtStep(trace, i), `Pods at ${i}`).toEqual(plain(podsData(s, i, () => true)));
    }
  });

  for (const level of LEVELS) {
    it(`steps forward and back as the engine does, at the ${level} level`, () => {
      const s = landing.newSandbox();
      s.setLevel(level);
      let cursor = trace.start;
      const visited: number[] = [];
      for (;;) {
        const next = nextStep(trace, cursor, level);
        if (next === null) break;
        expect(s.stepForward()).toBe(true);
        expect(s.cursor, `forward from ${cursor}`).toBe(next);
        expect(s.events.length, `length at ${next}`).toBe(trace.lengths[next]);
        // The markers of the timeline, as far as the session has computed.
        expect(trace.markers.filter((m) => m.step < s.events.length)).toEqual(plain(s.markers));
        cursor = next;
        visited.push(cursor);
      }
      // Past the trace: the engine's next step at this level lies beyond it.
      s.stepForward();
      expect(s.cursor).toBeGreaterThanOrEqual(trace.events.length);
      s.seek(cursor);
      for (;;) {
        const prev = previousStep(trace, cursor, level);
        if (prev === null) break;
        expect(s.stepBack()).toBe(true);
        expect(s.cursor, `back from ${cursor}`).toBe(prev);
        cursor = prev;
      }
      expect(s.stepBack()).toBe(false);
      expect(visited.length).toBeGreaterThan(0);
    });
  }

  it('hands its step, level and computed length over to the session that takes over', () => {
    openPreview(trace);
    previewCmd.stepForward();
    previewCmd.stepForward();
    previewCmd.stepForward();
    previewCmd.stepBack();
    expect(get().cursor).toBe(trace.start + 2);
    expect(get().length).toBe(trace.lengths[trace.start + 3]);
    const s = landing.newSandbox();
    takeOver(s);
    expect(s.cursor).toBe(trace.start + 2);
    expect(s.events).toHaveLength(trace.lengths[trace.start + 3]!);
    expect(get().preview?.session).toBe(s);
  });
});
