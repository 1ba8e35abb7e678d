/**
 * A node's terminal as the UI drives it, loaded by `loadTerminal()` (index.ts) as one lazy chunk:
 * a command line against a session (session/terminal.ts) and Tab completion (shell/complete.ts).
 */
export * from './session/terminal';
export { complete } from './shell/complete';
