/**
 * Builds the landing's precomputed trace (landing-trace.ts) with the engine: the default
 * sandbox stepped through its first `LANDING_EVENTS` events, and what the landing's views read
 * at each, by the views' own functions. Run at build time (vite.config.ts, `landingTrace`) and
 * by landing-trace.test.ts; never part of the app's bundle.
 */
import { loadEngine, loadLanding } from '../engine';
import type { LandingTrace } from './landing-trace';
import { stepDetail } from './panels/inspector-data';
import { podsData, type PodsData } from './panels/pods-data';

export async function buildLandingTrace(): Promise<LandingTrace> {
  const [engine, { LANDING_EVENTS }] = await Promise.all([loadEngine(), loadLanding()]);
  const session = engine.newSandbox();
  const start = session.start;
  session.seek(LANDING_EVENTS - 1);
  const events = session.events.slice(0, LANDING_EVENTS);
  const probe = engine.newSandbox();
  const lengths = events.map((_, i) => {
    probe.seek(i);
    return probe.events.length;
  });
  const pods: PodsData[] = [];
  const seen = new Map<string, number>();
  const podsAt: number[] = [];
  for (let i = -1; i < events.length; i++) {
    const data = podsData(session, i, () => true);
    const key = JSON.stringify(data);
    let at = seen.get(key);
    if (at === undefined) {
      at = pods.length;
      pods.push(data);
      seen.set(key, at);
    }
    podsAt.push(at);
  }
  const trace: LandingTrace = {
    start,
    events,
    lengths,
    markers: session.markers.filter((m) => m.step < events.length),
    details: events.map((_, i) => stepDetail(session, i)),
    pods,
    podsAt,
  };
  // As the app receives it: JSON (no undefined fields, no shared objects).
  return JSON.parse(JSON.stringify(trace)) as LandingTrace;
}
