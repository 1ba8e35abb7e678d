/**
 * A node's terminal as the UI drives it, loaded by `loadTerminal()` (index.ts) as one lazy chunk:
 * a command line against a session (session/terminal.ts), Tab completion (shell/complete.ts) and
 * whether a line needs the next one before it runs (a here-document, an open quote or `if`: PS2).
 */
export * from './session/terminal';
export { complete } from './shell/complete';
export { needsMoreInput } from './shell/parse';
