/**
 * The engine the landing needs to step, loaded by `loadLanding()` (index.ts) first, as one lazy
 * chunk: the default sandbox as a Session, its cluster, plugins, kernel and daemons. What it
 * leaves out loads with the app's whole engine (app.ts) right after: the node shell and its
 * commands, the fault catalogue, saving and loading (zod), the
 * plugins the default conflist does not use, what the panels read. (sha2 stays: the bridge
 * plugin names its masquerade chains with it.)
 */
export { newSandbox, SANDBOX_POD } from './session/sandbox';
