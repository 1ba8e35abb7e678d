/**
 * The landing: on a first visit to the sandbox (no saved sandbox, no link, scenario or course in
 * the address), the default sandbox opens with the landing's engine (`loadLanding()`: no node
 * shell, fault catalogue, zod or unused plugins), so that "Step forward" works while the whole engine is
 * still loading (landing-fetch.ts starts fetching it). `start` (store.ts) then keeps this session
 * when the whole engine arrives.
 */
import { loadEngine, type LandingEngine } from '../engine';
import { cmd } from './app/commands';
import { setJobGate, yieldToPage } from './app/jobs';
import { takeOver, takePending } from './app/preview';
import { get, publish, update } from './app/state';

/**
 * The landing's engine steps the default sandbox through its first `LANDING_EVENTS` events on
 * its own; a job that would go further waits for the whole engine (which brings the iptables
 * model the bridge plugin needs next), showing that it does. Once it is in, nothing waits.
 */
function waitForWholeEngine(engine: LandingEngine): void {
  setJobGate({
    blocks: () => {
      const s = get().session;
      return s !== null && engine.needsWholeEngine(s);
    },
    ready: loadEngine(),
    label: 'Loading the rest of the engine',
  });
}

/**
 * The landing engine's default sandbox, stepped to where the landing's precomputed trace was
 * (`takeOver`, app/preview.ts; `prepare` runs first), or null when the whole engine came first
 * and opened the session. In tasks of their own: the landing engine's evaluation (the
 * caller's), the new sandbox, the takeover (30-90 ms with no code compiled yet), and its first
 * render (the caller's, 100-150 ms, after this settles). On a first visit the four took
 * 250-330 ms in one task.
 */
export async function landingSandbox(
  engine: LandingEngine,
  prepare?: (session: ReturnType<LandingEngine['newSandbox']>) => void,
): Promise<ReturnType<LandingEngine['newSandbox']> | null> {
  const loading = () => get().phase === 'loading';
  if (!loading()) return null;
  waitForWholeEngine(engine);
  await yieldToPage();
  if (!loading()) return null;
  const session = engine.newSandbox();
  await yieldToPage();
  if (!loading()) return null;
  prepare?.(session);
  takeOver(session);
  await yieldToPage();
  if (!loading()) return null;
  // The preview steps on until the session is in the store: a step taken meanwhile is followed
  // (the events are computed by now, so this is only a seek).
  takeOver(session);
  return session;
}

/** Opens the default sandbox (`landingSandbox`) in the app. */
export async function startLanding(engine: LandingEngine): Promise<void> {
  performance.mark('cnisim:landing-loaded');
  const session = await landingSandbox(engine);
  if (!session) return;
  update({ session, source: 'own', phase: 'ready' });
  publish();
  performance.mark('cnisim:landing-ready');
  takePending(cmd.stepForward);
}
