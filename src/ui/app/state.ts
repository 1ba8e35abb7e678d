/**
 * The app's one store: the session (a mutable engine object, see src/engine/session) and what
 * React renders from it, with the course's, the handout's and the embed's parts as slices.
 *
 * Reading: components call `useApp(selector)` (one `useSyncExternalStore` subscription; the
 * selectors of each view are in ../selectors.ts), other code `get()` or `subscribe()`.
 *
 * Writing has one path: `update()`, called only by the command modules (src/ui/app/*.ts, the
 * course's state.ts and open.ts, the handout's state.ts, the embed's start and host). Components
 * never write: they call commands (`cmd.*`, `ui.*` and the course's own). `store-paths.test.ts`
 * checks it. This module imports nothing of the app's, so nothing can form a cycle through it.
 */
import { useMemo, useSyncExternalStore } from 'react';
import type { EngineModule, Level, Session } from '../../engine';
import type { LandingTrace } from '../landing-trace';
import type { Route } from '../route';

export type Theme = 'system' | 'light' | 'dark';
export type LeftTab = 'trace' | 'sequence' | 'topology' | 'machines' | 'metrics';
export type RightTab = 'pods' | 'files' | 'journal' | 'actions' | 'config' | 'packets' | 'shell';

export const THEME_KEY = 'cnisim.theme';

export interface Notice {
  id: number;
  kind: 'info' | 'warning' | 'error';
  text: string;
  /** A file the notice offers to download (a damaged save that could not be read). */
  download?: { label: string; name: string; text: string };
  /**
   * The trace the notice is about (a restored sandbox that replays differently): it goes away
   * once that trace is gone, when another session opens or an action rewrites it. With
   * `actions`, also once another action is taken (how a run ended says nothing after a fix).
   */
  about?: { session: Session; revision: number; actions?: number };
}

export interface Busy {
  label: string;
  /** Events computed so far. */
  progress: number;
}

/** A slice another part of the app owns (the course, the handout, the embed): its own type. */
export type Slices = Record<string, unknown>;

export interface AppState {
  phase: 'loading' | 'ready' | 'failed';
  loadError: string | null;
  session: Session | null;
  engine: EngineModule | null;
  /** Mirrors of the session, so that components re-render when it changes. */
  cursor: number;
  length: number;
  level: Level;
  revision: number;
  /** Bumped on every change of the session (a new event, an action). */
  version: number;
  playing: boolean;
  speed: number;
  busy: Busy | null;
  notices: Notice[];
  leftTab: LeftTab;
  rightTab: RightTab;
  selectedPod: string | null;
  selectedFile: { node: string; path: string } | null;
  theme: Theme;
  shortcutsOpen: boolean;
  /**
   * Where the session came from: the user's own sandbox (saved in localStorage as it changes),
   * or a shared link (share/open.ts), which is never saved over the user's own.
   */
  source: 'own' | 'link' | 'embed' | 'course';
  shareOpen: boolean;
  /** The course route shown (course/, a lesson, a challenge), null in the sandbox. */
  course: Exclude<Route, { kind: 'sandbox' | 'link' | 'scenario' }> | null;
  /** Presenter mode (present/Presenter.tsx). */
  presenter: boolean;
  /** A line to type into a node's shell (a recovery step's command): the Shell view runs it. */
  shellLine: { node: string; line: string; id: number } | null;
  /** The lazy parts' slices, by name (course/state.ts, course/handout/state.ts, embed/state.ts). */
  slices: Slices;
  /**
   * The landing's precomputed trace (../landing-trace.ts, ./preview.ts): stepped through before
   * the engine arrives (`live`; the build's first screen paints it without controls), then shown
   * for the `session` that took over from it, at its `revision`, while it covers the step.
   */
  preview: {
    trace: LandingTrace;
    live: boolean;
    session: Session | null;
    revision: number;
  } | null;
}

function readTheme(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

let state: AppState = {
  phase: 'loading',
  loadError: null,
  session: null,
  engine: null,
  cursor: -1,
  length: 0,
  level: 'kernel',
  revision: 0,
  version: 0,
  playing: false,
  speed: 5,
  busy: null,
  notices: [],
  leftTab: 'trace',
  rightTab: 'pods',
  selectedPod: null,
  selectedFile: null,
  theme: readTheme(),
  shortcutsOpen: false,
  source: 'own',
  shareOpen: false,
  course: null,
  presenter: false,
  shellLine: null,
  slices: {},
  preview: null,
};

type Listener = (st: AppState, prev: AppState) => void;
const listeners = new Set<Listener>();

export function get(): AppState {
  return state;
}

/** Calls `l` after every change, with the state before it; returns the unsubscribe function. */
export function subscribe(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/**
 * The one way to change the app's state (see the file comment: only command modules call it).
 * Listeners run in the order they subscribed.
 */
export function update(change: Partial<AppState> | ((st: AppState) => Partial<AppState>)): void {
  const prev = state;
  const part = typeof change === 'function' ? change(prev) : change;
  state = { ...prev, ...part };
  for (const l of [...listeners]) l(state, prev);
}

/**
 * Reads a slice of the state in a component; re-renders when the selected value changes
 * (`Object.is`, or `equal`: `shallow` for a view's selector that returns an object of fields).
 */
export function useApp<T>(selector: (st: AppState) => T, equal?: (a: T, b: T) => boolean): T {
  const read = useMemo(() => cachedRead(selector, equal), [selector, equal]);
  const first = useMemo(() => hydrationRead(selector, read), [selector, read]);
  return useSyncExternalStore(subscribe, read, first);
}

/**
 * The state index.html's first screen was rendered from (src/prerender.tsx), while React
 * hydrates it (main.tsx, `hydrateFrom`): the hydrating render reads this state, so that it
 * matches the page's nodes however the state has moved on (a step taken before a pane was
 * hydrated, the theme the user chose, the controls gone live), and React renders the current
 * state right after (useSyncExternalStore's server snapshot).
 */
let hydrationState: AppState | null = null;

export function hydrateFrom(st: AppState): void {
  hydrationState = st;
}

/** `selector` over the hydration state (the current state when nothing hydrates), the same value each time. */
function hydrationRead<T>(selector: (st: AppState) => T, read: () => T): () => T {
  let last: { st: AppState; value: T } | null = null;
  return () => {
    const st = hydrationState;
    if (st === null) return read();
    if (last?.st !== st) last = { st, value: selector(st) };
    return last.value;
  };
}

/**
 * `selector` over the current state, returning the previous result while `equal` holds, so that
 * a selector that builds an object gives useSyncExternalStore the same snapshot until a field
 * changes.
 */
export function cachedRead<T>(
  selector: (st: AppState) => T,
  equal: (a: T, b: T) => boolean = Object.is,
): () => T {
  let last: { st: AppState; value: T } | null = null;
  return () => {
    if (last?.st === state) return last.value;
    const value = selector(state);
    if (last && equal(last.value, value)) {
      last = { st: state, value: last.value };
      return last.value;
    }
    last = { st: state, value };
    return value;
  };
}

/** Whether two objects have the same own fields with `Object.is`-equal values. */
export function shallow<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) =>
    Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** Publishes the session's state to the store (what components subscribe to). */
export function publish(): void {
  const s = state.session;
  if (!s) return;
  update((st) => ({
    cursor: s.cursor,
    length: s.events.length,
    level: s.level,
    revision: s.revision,
    version: st.version + 1,
  }));
}

/**
 * A named slice for a lazy part of the app: its initial value, a reader and a hook. Its owner
 * writes it with `set` (from its command functions, never from components).
 */
export function slice<S extends object>(name: string, initial: S) {
  const read = (st: AppState): S => (st.slices[name] as S | undefined) ?? initial;
  return {
    get: (): S => read(state),
    use: <T>(selector: (s: S) => T): T => useApp((st) => selector(read(st))),
    set(change: Partial<S> | ((s: S) => Partial<S>)): void {
      update((st) => {
        const cur = read(st);
        const part = typeof change === 'function' ? change(cur) : change;
        return { slices: { ...st.slices, [name]: { ...cur, ...part } } };
      });
    },
    subscribe(l: (s: S, prev: S) => void): () => void {
      return subscribe((st, prev) => {
        const a = read(st);
        const b = read(prev);
        if (a !== b) l(a, b);
      });
    },
  };
}
