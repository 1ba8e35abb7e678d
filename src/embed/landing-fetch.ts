/**
 * Starts fetching the landing's engine as soon as embed.html's script runs, before React is
 * evaluated (main.tsx imports this module first), when the embed shows the default sandbox.
 */
import { loadLanding, type LandingEngine } from '../engine';
import { parseParams } from './protocol';

/** The landing's engine, on its way (null: the embed opens another scenario). */
export const landingEngine: Promise<LandingEngine> | null =
  typeof window !== 'undefined' && parseParams(location.search).params.scenario === 'sandbox'
    ? loadLanding()
    : null;
