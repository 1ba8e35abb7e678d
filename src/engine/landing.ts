/**
 * The engine the landing needs to step, loaded by `loadLanding()` (index.ts) first, as one lazy
 * chunk: the default sandbox as a Session, its cluster, plugins, kernel and daemons. What it
 * leaves out loads with the app's whole engine (app.ts) right after: the node shell and its
 * commands, the fault catalogue, saving and loading (zod, sha2), what the panels read.
 */
export { newSandbox, SANDBOX_POD } from './session/sandbox';
