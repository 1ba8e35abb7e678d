/**
 * The views' selectors over the app's store (src/ui/app/state.ts): each view reads what it
 * shows in one subscription, `useApp(selectX, shallow)`, and re-renders only when one of those
 * fields changes.
 */
import type { AppState } from './app/state';

/** The playback controls (components/Controls.tsx). */
export const selectControls = (s: AppState) => ({
  ready: s.phase === 'ready',
  busy: s.busy,
  playing: s.playing,
  speed: s.speed,
  level: s.level,
  cursor: s.cursor,
  length: s.length,
  session: s.session,
});

/** The timeline under the views (components/Timeline.tsx). */
export const selectTimeline = (s: AppState) => ({
  session: s.session,
  cursor: s.cursor,
  length: s.length,
  version: s.version,
  busy: s.busy !== null,
});
