/**
 * The landing: on a first visit to the sandbox (no saved sandbox, no link, scenario or course in
 * the address), the default sandbox opens with the landing's engine (`loadLanding()`: no node
 * shell, fault catalogue, zod or unused plugins), so that "Step forward" works while the whole engine is
 * still loading (landing-fetch.ts starts fetching it). `start` (store.ts) then keeps this session
 * when the whole engine arrives.
 */
import type { LandingEngine } from '../engine';
import { get, publish, update } from './app/state';

/** Opens the default sandbox (unless the whole engine came first and opened the session). */
export function startLanding(engine: LandingEngine): void {
  if (get().phase !== 'loading') return;
  performance.mark('cnisim:landing-loaded');
  update({ session: engine.newSandbox(), source: 'own', phase: 'ready' });
  publish();
  performance.mark('cnisim:landing-ready');
}
