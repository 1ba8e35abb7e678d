/**
 * Whether the page opens on the landing, and the landing's engine: main.tsx fetches it right
 * after its first render (which hydrates the first screen painted from index.html), so that its
 * chunks, parsed on another thread, do not compete with that render and the first paint.
 */
import { loadEngine, loadLanding, type EngineModule, type LandingEngine } from '../engine';
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

/** Whether the page opens on the landing (decided once, before the first render). */
export const onLanding: boolean = typeof window !== 'undefined' && opensOnLanding();

/** The landing's engine, on its way (null: the page opens on something else). */
export function fetchLanding(): Promise<LandingEngine> | null {
  return onLanding ? loadLanding() : null;
}

/**
 * Anywhere else (a saved sandbox, a link, a course route) the whole engine, requested as this
 * module is evaluated: main.tsx imports it first, so its chunks download while React and the
 * app's modules are evaluated, not after them. Null on the landing and in a foreign site's
 * frame, which shows only a link.
 */
export const wholeEngine: Promise<EngineModule> | null =
  typeof window !== 'undefined' && !onLanding && !framedByForeignPage(window) ? loadEngine() : null;
