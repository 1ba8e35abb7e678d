/**
 * The engine the landing needs to step, loaded by `loadLanding()` (index.ts) first, as one lazy
 * chunk: the default sandbox as a Session, its cluster, plugins, kernel and daemons. What it
 * leaves out loads with the app's whole engine (app.ts) right after: the node shell and its
 * commands, the fault catalogue, saving and loading (zod), the
 * plugins the default conflist does not use, the iptables model (its parser, help texts,
 * extensions and iptables-save), what the panels read. (sha2 stays: the bridge plugin names its
 * masquerade chains with it.)
 */
import { iptablesLoaded } from './kernel/iptables/provider';
import type { SessionView } from './session/view';

export { newSandbox, SANDBOX_POD } from './session/sandbox';

/**
 * How many events of the default sandbox's trace the landing's engine computes on its own: the
 * bridge plugin's first iptables command (the pod's masquerade rule) comes after them.
 * landing.test.ts checks both sides of this number.
 */
export const LANDING_EVENTS = 57;

/**
 * Whether the landing's sandbox must wait for the whole engine before its next unit of work
 * (the app's job runner asks before each one). False once the whole engine is in.
 */
export function needsWholeEngine(session: Pick<SessionView, 'events'>): boolean {
  return !iptablesLoaded() && session.events.length >= LANDING_EVENTS;
}
