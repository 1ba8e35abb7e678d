/**
 * The views' selectors over the app's store (src/ui/app/state.ts): each view reads what it
 * shows in one subscription, `useApp(selectX, shallow)`, and re-renders only when one of those
 * fields changes.
 */
import { previewing } from './app/preview';
import type { AppState } from './app/state';

/** The events the controls move through: the session's, or the landing's precomputed ones. */
function eventsOf(s: AppState) {
  return s.session?.events ?? previewing(s)?.events;
}

/** The playback controls (components/Controls.tsx). */
export const selectControls = (s: AppState) => ({
  ready: s.phase === 'ready',
  /** Whether the steps can be moved through: the session's, or the landing's precomputed ones. */
  steps: s.phase === 'ready' || previewing(s) !== null,
  /** The step's virtual time. */
  time: s.cursor >= 0 ? eventsOf(s)?.[s.cursor]?.time : undefined,
  atStart: s.cursor === (s.session?.start ?? previewing(s)?.start ?? NaN),
  busy: s.busy,
  playing: s.playing,
  speed: s.speed,
  level: s.level,
  cursor: s.cursor,
  length: s.length,
});

/** The timeline under the views (components/Timeline.tsx). */
export const selectTimeline = (s: AppState) => ({
  session: s.session,
  cursor: s.cursor,
  length: s.length,
  version: s.version,
  busy: s.busy !== null,
  /** The landing's precomputed trace, before the engine (its markers). */
  preview: previewing(s),
});
