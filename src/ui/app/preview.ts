/**
 * The landing before the engine: "Step forward" and "Step back" (and the timeline, Home, End,
 * Reset) move through the landing's precomputed trace (../landing-trace.ts), and the first
 * session the engine makes takes over at the step reached, with the same detail level and as
 * many events computed (`takeOver`). A step past the precomputed ones waits for the engine
 * ("Loading the simulation"), and is taken once it is there. Anything else (faults, the shell,
 * actions, runs) needs the engine and waits for it as before.
 */
import type { Level, Session } from '../../engine';
import { nextStep, previousStep, type LandingTrace } from '../landing-trace';
import { get, update, type AppState } from './state';

/** The trace the controls move through now: the landing's, before any session exists. */
export function previewing(st: AppState): LandingTrace | null {
  return st.preview !== null && st.preview.live && st.session === null ? st.preview.trace : null;
}

/**
 * The landing's precomputed trace when it shows what the session has at the cursor: before the
 * engine, and then while the session that took over from it stays within it (the same trace,
 * nothing performed, nothing computed past it). The landing's views render from it meanwhile
 * (LandingPane.tsx): the same markup, without waiting for the panels' chunk.
 */
export function previewShows(st: AppState): LandingTrace | null {
  const p = st.preview;
  if (p === null) return null;
  if (st.session === null) return p.trace;
  const s = st.session;
  return s === p.session &&
    s.revision === p.revision &&
    st.length <= p.trace.events.length &&
    st.cursor < p.trace.events.length
    ? p.trace
    : null;
}

/**
 * Opens the landing's precomputed trace at its start, or at `cursor` (an embed's `step`; not
 * opened past the trace). `live: false` paints it without controls (the build's first screen,
 * prerender.tsx, before any script runs).
 */
export function openPreview(
  trace: LandingTrace,
  opts: { live?: boolean; level?: Level; cursor?: number } = {},
): void {
  if (get().session !== null || get().phase !== 'loading') return;
  const cursor = Math.max(-1, opts.cursor ?? trace.start);
  if (cursor >= trace.events.length) return;
  update((st) => ({
    preview: { trace, live: opts.live ?? true, session: null, revision: 0 },
    cursor,
    length: trace.lengths[Math.max(trace.start, cursor)]!,
    level: opts.level ?? st.level,
  }));
}

/**
 * The landing's preview, opened as the build painted it (`live: false`, so that the first
 * render matches index.html and hydrates it: main.tsx), becomes live: its controls step
 * through it.
 */
export function goLive(): void {
  const p = get().preview;
  if (p !== null && !p.live) update({ preview: { ...p, live: true } });
}

/** A step forward asked for past the precomputed trace: taken when a session takes over. */
let pendingForward = false;

function moveTo(cursor: number): void {
  update((st) => ({
    cursor,
    length: Math.max(st.length, cursor < 0 ? 0 : (st.preview?.trace.lengths[cursor] ?? 0)),
  }));
}

/** The preview's side of the step commands (commands.ts): false when no preview is stepping. */
export const previewCmd = {
  stepForward(): boolean {
    const st = get();
    const t = previewing(st);
    if (!t) return false;
    if (pendingForward) return true;
    const next = nextStep(t, st.cursor, st.level);
    if (next !== null) moveTo(next);
    else {
      pendingForward = true;
      update({ busy: { label: 'Loading the simulation', progress: 0 } });
    }
    return true;
  },
  stepBack(): boolean {
    const st = get();
    const t = previewing(st);
    if (!t) return false;
    if (pendingForward) return true;
    const prev = previousStep(t, st.cursor, st.level);
    if (prev !== null) moveTo(prev);
    return true;
  },
  /** To step `i` (clamped to the trace; -1: before the first event). */
  seek(i: number): boolean {
    const st = get();
    const t = previewing(st);
    if (!t) return false;
    if (!pendingForward) moveTo(Math.min(Math.max(-1, Math.floor(i)), t.events.length - 1));
    return true;
  },
  end(): boolean {
    const st = get();
    return previewing(st) !== null && previewCmd.seek(st.length - 1);
  },
  reset(): boolean {
    const t = previewing(get());
    return t !== null && previewCmd.seek(t.start);
  },
  /** Stop while a step waits for the engine: it is not taken. */
  cancel(): boolean {
    if (!pendingForward) return false;
    pendingForward = false;
    update({ busy: null });
    return true;
  },
};

/**
 * The session the engine made for the landing takes over from the preview: it computes as many
 * events as the preview showed (the timeline's length), moves to the same step at the same
 * detail level, and is what the preview's views now show while it stays within the precomputed
 * trace. Returns whether a step forward waits to be taken (`takePending` after the session is
 * in the store).
 */
export function takeOver(session: Session): void {
  const st = get();
  if (!st.preview || st.session !== null) return;
  session.setLevel(st.level);
  // The preview's steps are the landing engine's own, and end where a unit of its work ends
  // (LANDING_EVENTS; landing-trace.test.ts).
  if (st.length > session.events.length) session.seek(st.length - 1);
  session.seek(st.cursor);
  update({ preview: { ...st.preview, session, revision: session.revision } });
}

/** Takes the step forward asked for while the engine was loading (after `takeOver`). */
export function takePending(stepForward: () => void): void {
  if (!pendingForward) return;
  pendingForward = false;
  update({ busy: null });
  stepForward();
}
