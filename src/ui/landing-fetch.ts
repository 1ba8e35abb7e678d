/**
 * Starts fetching the landing's engine as soon as the page's script runs: main.tsx imports this
 * module first, and it imports nothing heavy, so the request goes out before React is evaluated
 * and the first render made (the first screen is already painted from index.html).
 */
import { loadLanding, type LandingEngine } from '../engine';
import { framedByForeignPage } from './framing';
import { parseRoute } from './route';

/** The saved sandbox's key: store.ts's STORAGE_KEY (landing.test.ts checks that they agree). */
export const SAVED_SANDBOX_KEY = 'cnisim.sandbox.v1';

/** Whether the page opens on the default sandbox, which the landing's engine can make. */
export function opensOnLanding(): boolean {
  if (framedByForeignPage(window) || parseRoute(location.hash).kind !== 'sandbox') return false;
  try {
    return localStorage.getItem(SAVED_SANDBOX_KEY) === null;
  } catch {
    return true; // no storage: nothing saved to restore
  }
}

/** The landing's engine, on its way (null: the page opens on something else). */
export const landingEngine: Promise<LandingEngine> | null =
  typeof window !== 'undefined' && opensOnLanding() ? loadLanding() : null;
