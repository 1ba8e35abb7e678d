/**
 * Sessions: a cluster, the user's actions and a cursor over the trace (session.ts); saving and
 * loading them (serialize.ts); the interface views read (view.ts).
 */
export * from './actions';
export * from './conditions';
export * from './serialize';
export * from './session';
export * from './repeats';
export * from './view';
export { SANDBOX_POD, newSandbox } from './sandbox';
