/**
 * What components import from the app's store, in one place. The store itself is src/ui/app:
 * state.ts (the one store: `useApp(selector)`, `get`, `subscribe`, the write path `update`),
 * jobs.ts (long work in slices), commands.ts (`cmd`, `ui`), notices.ts, persistence.ts (saving
 * as a subscriber, restoring) and boot.ts (start-up and routing, imported by the entry points
 * only). Modules that boot.ts imports (share/open.ts, course/open.ts) import src/ui/app directly,
 * never this file, so that no import cycle runs through it.
 */
export {
  get,
  publish,
  subscribe,
  shallow,
  useApp,
  THEME_KEY,
  type AppState,
  type Busy,
  type LeftTab,
  type Notice,
  type RightTab,
  type Theme,
} from './app/state';
export { Cancelled, cancelJob, runJob } from './app/jobs';
export { dismissNotice, notify, obsoleteNotices } from './app/notices';
export {
  cmd,
  pastEndText,
  pause,
  runInShell,
  seekTo,
  seekToAsked,
  setTheme,
  SPEEDS,
  ui,
} from './app/commands';
export { CORRUPT_KEY, restoreOwn, saveNow, STORAGE_KEY } from './app/persistence';
export { shownWalk, useWalkState, walkCmd, type ShownWalk } from './app/walk';
