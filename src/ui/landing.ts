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
export function waitForWholeEngine(engine: LandingEngine): void {
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
 * Opens the default sandbox (unless the whole engine came first and opened the session), at the
 * step the landing's precomputed trace was stepped to (app/preview.ts). In three tasks: the
 * landing engine's evaluation, the new sandbox, its first render (on a first visit, with no
 * code compiled yet, the three took 250-330 ms in one task).
 */
export async function startLanding(engine: LandingEngine): Promise<void> {
  const loading = () => get().phase === 'loading';
  if (!loading()) return;
  performance.mark('cnisim:landing-loaded');
  waitForWholeEngine(engine);
  await yieldToPage();
  if (!loading()) return;
  const session = engine.newSandbox();
  await yieldToPage();
  if (!loading()) return;
  takeOver(session);
  update({ session, source: 'own', phase: 'ready' });
  publish();
  performance.mark('cnisim:landing-ready');
  takePending(cmd.stepForward);
}
