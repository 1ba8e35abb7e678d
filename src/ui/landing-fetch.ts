/**
 * Whether the page opens on the landing, and the landing's engine: main.tsx fetches it right
 * after its first render (which hydrates the first screen painted from index.html), so that its
 * chunks, parsed on another thread, do not compete with that render and the first paint.
 */
import { loadEngine, loadLanding, type EngineModule, type LandingEngine } from '../engine';
import { yieldToPage } from './app/jobs';
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
 * Anywhere else (a saved sandbox, a link, a course route) the whole engine, requested in the task
 * right after the scripts' evaluation: main.tsx imports this module first, so the chunks download
 * while React renders the page, not after it. Not in the evaluation's own task: the request adds
 * a `<link rel=modulepreload>` per chunk, and with cold caches that took 70-110 ms, on top of the
 * 130-170 ms the evaluation takes. Null on the landing and in a foreign site's frame, which shows
 * only a link.
 */
export const wholeEngine: Promise<EngineModule> | null =
  typeof window !== 'undefined' && !onLanding && !framedByForeignPage(window)
    ? yieldToPage().then(loadEngine)
    : null;
