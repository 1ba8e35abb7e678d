/**
 * Whether the embed shows the default sandbox, and the landing's engine for it: main.tsx fetches
 * it right after its first render (as the app's main.tsx does), so that its chunks, parsed on
 * another thread, do not compete with that render and the first paint.
 */
import { loadLanding, type LandingEngine } from '../engine';
import { parseParams } from './protocol';

/** Whether the embed opens the default sandbox, which the landing's engine can make. */
export const onLanding: boolean =
  typeof window !== 'undefined' && parseParams(location.search).params.scenario === 'sandbox';

/** The landing's engine, on its way (null: the embed opens another scenario). */
export function fetchLanding(): Promise<LandingEngine> | null {
  return onLanding ? loadLanding() : null;
}
