/**
 * The engine as the app loads it: one lazy chunk, fetched right after the first paint (see
 * main.tsx). The first screen's code imports only types from src/engine, never values, so the
 * simulation's ~170 KiB gzip stay out of the first-screen bytes.
 */
export {
  newSandbox,
  SANDBOX_POD,
  Session,
  SessionError,
  drain,
  parseSavedSession,
  loadJob,
  serializeSession,
  saveSession,
  actionProblems,
  describeAction,
  describeCondition,
} from '../engine/session';
export { DEFAULT_CLUSTER, REFERENCE_PACKAGE, defaultConflist } from '../engine/cluster/cluster';
export { BUILDS } from '../engine/plugins/lib/build';

export type EngineModule = typeof import('./engine');
