/**
 * The app's store (zustand): the session (a mutable engine object, see src/engine/session) and
 * what React renders from it. Components never call the session directly for changes: they
 * call these commands, which run the work (spread over frames when it is long), then publish
 * the session's cursor, level, length and revision, which is what components subscribe to.
 *
 * The engine arrives in a lazy chunk (`loadEngine()` of src/engine/index.ts); until then `phase` is 'loading' and every
 * command is a no-op.
 */
import { create } from 'zustand';
import type {
  EngineModule,
  Job,
  Level,
  PerformResult,
  Session,
  SessionAction,
  StopCondition,
} from '../engine';
import { pageUrl, parseRoute, type Route } from './route';
import { openLink } from './share/open';
import { damagedCopyText, setAside, tryWrite } from './storage';

export const STORAGE_KEY = 'cnisim.sandbox.v1';
export const CORRUPT_KEY = 'cnisim.sandbox.v1.damaged';
export const THEME_KEY = 'cnisim.theme';

export type Theme = 'system' | 'light' | 'dark';
export type LeftTab = 'trace' | 'sequence' | 'topology' | 'machines' | 'metrics';
export type RightTab = 'pods' | 'files' | 'journal' | 'actions' | 'config' | 'shell';

export const SPEEDS = [1, 2, 5, 10, 25] as const;

export interface Notice {
  id: number;
  kind: 'info' | 'warning' | 'error';
  text: string;
  /** A file the notice offers to download (a damaged save that could not be read). */
  download?: { label: string; name: string; text: string };
  /**
   * The trace the notice is about (a restored sandbox that replays differently): it goes away
   * once that trace is gone, when another session opens or an action rewrites it.
   */
  about?: { session: Session; revision: number };
}

export interface Busy {
  label: string;
  /** Events computed so far. */
  progress: number;
}

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
}

export const useApp = create<AppState>(() => ({
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
}));

const set = useApp.setState;
export const get = useApp.getState;

function readTheme(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

/** Publishes the session's state to the store (and schedules saving it). */
export function publish(): void {
  const s = get().session;
  if (!s) return;
  set((st) => ({
    cursor: s.cursor,
    length: s.events.length,
    level: s.level,
    revision: s.revision,
    version: st.version + 1,
  }));
  scheduleSave();
}

let shellLineId = 0;

/** Opens the Shell on `node` and runs `line` there, as if typed (see AppState.shellLine). */
export function runInShell(node: string, line: string): void {
  set({ rightTab: 'shell', shellLine: { node, line, id: ++shellLineId } });
}

let noticeId = 0;
export function notify(
  kind: Notice['kind'],
  text: string,
  download?: Notice['download'],
  about?: Session,
): void {
  const n: Notice = {
    id: ++noticeId,
    kind,
    text,
    ...(download ? { download } : {}),
    ...(about ? { about: { session: about, revision: about.revision } } : {}),
  };
  set((st) => ({ notices: [...st.notices.slice(-3), n] }));
}

/** Notices about a trace that is no longer the session's (see Notice.about). */
export function obsoleteNotices(st: Pick<AppState, 'notices' | 'session'>): Notice[] {
  return st.notices.filter(
    (n) =>
      n.about !== undefined &&
      (n.about.session !== st.session || n.about.revision !== st.session?.revision),
  );
}

useApp.subscribe((st, prev) => {
  if (st.session === prev.session && st.revision === prev.revision) return;
  const gone = obsoleteNotices(st);
  if (gone.length) set({ notices: st.notices.filter((n) => !gone.includes(n)) });
});

export function dismissNotice(id: number): void {
  set((st) => ({ notices: st.notices.filter((n) => n.id !== id) }));
}

// ---------------------------------------------------------------------------------------------
// Jobs: long work spread over frames

const SLICE_MS = 12;
let current: { cancelled: boolean } | null = null;

/**
 * Runs a job: the first slice at once (a step that computes one event finishes here, without a
 * frame of delay), the rest in later tasks, with `busy` showing progress. One job at a time:
 * returns null when another is running.
 */
export function runJob<T>(label: string, job: Job<T>): Promise<T> | null {
  if (current) return null;
  const token = { cancelled: false };
  current = token;
  return new Promise<T>((resolve, reject) => {
    const slice = () => {
      const start = performance.now();
      let r: IteratorResult<number, T>;
      try {
        do r = job.next();
        while (!r.done && !token.cancelled && performance.now() - start < SLICE_MS);
      } catch (e) {
        current = null;
        set({ busy: null });
        publish();
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      if (r.done || token.cancelled) {
        current = null;
        set({ busy: null });
        publish();
        if (r.done) resolve(r.value);
        else reject(new Cancelled());
        return;
      }
      set({ busy: { label, progress: r.value } });
      setTimeout(slice, 0);
    };
    slice();
  });
}

export class Cancelled extends Error {
  override name = 'Cancelled';
}

/** Stops the running job (a replay keeps the old trace; a run keeps what it computed). */
export function cancelJob(): void {
  if (current) current.cancelled = true;
}

function quietly<T>(p: Promise<T> | null): void {
  p?.catch((e: unknown) => {
    if (!(e instanceof Cancelled)) notify('error', (e as Error).message);
  });
}

// ---------------------------------------------------------------------------------------------
// Commands

export const cmd = {
  stepForward(): void {
    const s = get().session;
    if (!s) return;
    quietly(
      runJob('Computing the next step', s.stepForwardJob())?.then((moved) => {
        if (!moved && get().playing) pause();
        if (!moved) notify('info', 'Nothing is left to happen: act on the cluster to go on.');
      }) ?? null,
    );
  },

  stepBack(): void {
    const s = get().session;
    if (!s || current) return;
    s.stepBack();
    publish();
  },

  seek(i: number): void {
    const s = get().session;
    if (!s) return;
    quietly(runJob('Computing steps', s.seekJob(i)));
  },

  home(): void {
    cmd.seek(-1);
  },

  end(): void {
    const s = get().session;
    if (!s) return;
    cmd.seek(s.events.length - 1);
  },

  /** Back to where the sandbox starts; the actions and the trace are kept. */
  reset(): void {
    const s = get().session;
    if (!s || current) return;
    pause();
    s.reset();
    publish();
  },

  runUntil(cond: StopCondition, label: string): void {
    const s = get().session;
    if (!s) return;
    pause();
    quietly(
      runJob(`Running until ${label}`, s.runUntilJob(cond))?.then((found) => {
        const end = s.lastRun;
        if (found !== null || !end) return;
        // A node-scoped fault (injected with its node) shows only in that node's new pods.
        let faultNode: string | null = null;
        for (const a of s.actions)
          if (a.first !== null && a.first <= s.cursor && a.action.do === 'injectFault')
            faultNode =
              typeof a.action.params?.['node'] === 'string' ? (a.output?.faultNode ?? null) : null;
        const text = get().engine?.runEndText(end, label, faultNode);
        if (text) notify(end.kind === 'repeating' ? 'warning' : 'info', text);
      }) ?? null,
    );
  },

  setLevel(level: Level): void {
    const s = get().session;
    if (!s) {
      set({ level });
      return;
    }
    s.setLevel(level);
    publish();
  },

  /** Performs an action at the cursor; resolves with its result, or null when refused. */
  async perform(action: SessionAction): Promise<PerformResult | null> {
    const st = get();
    const s = st.session;
    const engine = st.engine;
    if (!s || !engine) return null;
    pause();
    const problems = engine.actionProblems(action);
    if (problems.length) {
      notify('error', problems.join('; '));
      return null;
    }
    const p = runJob(`Replaying to apply: ${engine.describeAction(action)}`, s.performJob(action));
    if (!p) {
      notify('warning', 'Wait for the current computation to finish, or stop it.');
      return null;
    }
    try {
      const r = await p;
      if (r.error) notify('warning', `${engine.describeAction(action)}: ${r.error}`);
      return r;
    } catch (e) {
      if (!(e instanceof Cancelled)) notify('error', (e as Error).message);
      return null;
    }
  },

  /** Discards everything: the default sandbox again. */
  newSandbox(): void {
    const { session: s, engine } = get();
    if (!s || !engine) return;
    pause();
    set({ selectedPod: null, selectedFile: null });
    quietly(
      runJob(
        'Opening a new sandbox',
        s.replaceJob(
          engine.DEFAULT_CLUSTER,
          1,
          [{ step: 0, action: { do: 'createPod', name: engine.SANDBOX_POD } }],
          -2,
        ),
      )?.then(() => {
        s.reset();
        publish();
      }) ?? null,
    );
  },

  togglePlay(): void {
    if (get().playing) pause();
    else play();
  },

  setSpeed(speed: number): void {
    set({ speed });
    if (get().playing) {
      pause();
      play();
    }
  },
};

let timer: ReturnType<typeof setInterval> | null = null;

function play(): void {
  if (!get().session || timer) return;
  set({ playing: true });
  timer = setInterval(() => {
    if (!current) cmd.stepForward();
  }, 1000 / get().speed);
}

export function pause(): void {
  if (timer) clearInterval(timer);
  timer = null;
  if (get().playing) set({ playing: false });
}

export function setTheme(theme: Theme): void {
  set({ theme });
  try {
    if (theme === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage may be unavailable (private mode): the theme lasts for this page only.
  }
}

// ---------------------------------------------------------------------------------------------
// Start-up and persistence

let saveTimer: ReturnType<typeof setTimeout> | null = null;

/** Saves a moment after the last change, when the page is idle (saving walks the trace). */
function scheduleSave(): void {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(saveNow, { timeout: 2000 });
    else saveNow();
  }, 400);
}

/** Writes the sandbox to localStorage now (also on pagehide, so a reload keeps the last step). */
export function saveNow(): void {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = null;
  const { session: s, engine, phase, source } = get();
  if (!s || !engine || phase !== 'ready' || source !== 'own') return;
  let store: Storage | null;
  try {
    store = localStorage;
  } catch {
    store = null;
  }
  const r = tryWrite(store, STORAGE_KEY, engine.serializeSession(s));
  // Unavailable storage: the sandbox lasts for this page only, as the user chose. A full one is
  // said once (until a save succeeds again): what was saved before is kept, the changes are not.
  if (r === 'full' && !storageFullSaid) {
    storageFullSaid = true;
    notify(
      'warning',
      "This browser's storage for this site is full: your latest changes to the sandbox were not saved (the copy saved before is kept). Free some storage for this site to save again.",
    );
  } else if (r === 'ok') storageFullSaid = false;
}

let storageFullSaid = false;

/** Creates the session once the engine chunk has arrived: a shared link, the saved sandbox, or a new one. */
export async function start(engine: EngineModule): Promise<void> {
  performance.mark('cnisim:engine-loaded');
  // openLink and restoreOwn each make the session: a sandbox made here would be thrown away.
  set({ engine });
  const route = parseRoute(location.hash);
  // The landing's sandbox (landing.ts), already open and maybe stepped, is kept.
  const landing = get().phase === 'ready' && route.kind === 'sandbox';
  if (!landing) {
    if (route.kind === 'link') await openLink(route.payload);
    else if (route.kind === 'scenario') await openScenario(route);
    else await restoreOwn();
    if (isCourse(route)) await openCourse(route);
    set({ phase: 'ready' });
  }
  publish();
  performance.mark('cnisim:ready');
  window.addEventListener('pagehide', saveNow);
  window.addEventListener('hashchange', onHashChange);
}

/** Replaces the session with the user's saved sandbox (or a new one when none is saved). */
export async function restoreOwn(): Promise<void> {
  const engine = get().engine;
  if (!engine) return;
  const session = engine.newSandbox();
  performance.mark('cnisim:sandbox-created');
  set({ session, source: 'own' });
  let saved: string | null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    saved = null;
  }
  if (saved === null) return;
  const parsed = engine.parseSavedSession(saved);
  if (!parsed.ok) {
    let kept: ReturnType<typeof setAside>;
    try {
      kept = setAside(localStorage, STORAGE_KEY, CORRUPT_KEY, saved);
    } catch {
      kept = 'refused';
    }
    notify(
      'warning',
      `Your saved sandbox could not be restored (${parsed.errors[0]}). A fresh sandbox was opened. ${damagedCopyText(kept, CORRUPT_KEY)}`,
      { label: 'Download the damaged copy', name: 'cnisim-sandbox-damaged.json', text: saved },
    );
    return;
  }
  try {
    const job = runJob('Restoring your sandbox', engine.loadJob(session, parsed.saved));
    const report = job ? await job : { warnings: [] };
    for (const w of report.warnings.slice(0, 3))
      notify('warning', `Restored sandbox: ${w}`, undefined, session);
  } catch (e) {
    notify(
      'warning',
      `Your saved sandbox could not be replayed (${(e as Error).message}). A fresh sandbox was opened.`,
    );
    set({ session: engine.newSandbox() });
  }
}

/**
 * Opens a scenario file of the build (`#/scenario/<name>`) on its own, as a shared link opens:
 * never saved over the user's sandbox, which "Back to my sandbox" brings back. A name the build
 * does not have opens the user's sandbox with a message naming the scenarios there are.
 */
async function openScenario(route: Extract<Route, { kind: 'scenario' }>): Promise<void> {
  const engine = get().engine;
  if (!engine) return;
  if (get().source === 'own') saveNow();
  let opened: Awaited<ReturnType<typeof import('./scenarios').scenarioFileSession>>;
  try {
    opened = await (await import('./scenarios')).scenarioFileSession(route.name);
  } catch (e) {
    opened = `The scenario "${route.name}" could not be opened: ${(e as Error).message}`;
  }
  if (typeof opened === 'string') {
    notify('error', `${opened} Your own sandbox is open instead.`);
    history.replaceState(null, '', pageUrl(location));
    await restoreOwn();
    return;
  }
  set({ session: opened.session, source: 'link', selectedPod: null, selectedFile: null });
  if (opened.warning) notify('warning', opened.warning);
  await seekTo(route.step ?? 0);
}

/** Goes to a step as numbered on screen (0: the start), computing the steps on the way. */
export async function seekTo(step: number): Promise<void> {
  const s = get().session;
  if (!s) return;
  const job = runJob('Computing steps', s.seekJob(Math.max(-1, step - 1)));
  if (job) await job.catch((e: unknown) => notify('error', (e as Error).message));
}

function isCourse(r: Route): r is NonNullable<AppState['course']> {
  return r.kind === 'course' || r.kind === 'lesson' || r.kind === 'challenge';
}

/** Opens a course route (its code is a lazy chunk, src/ui/course). */
async function openCourse(route: NonNullable<AppState['course']>): Promise<void> {
  try {
    const m = await import('./course/open');
    await m.openCourseRoute(route);
  } catch (e) {
    notify('error', `The course could not be opened: ${(e as Error).message}`);
  }
}

function onHashChange(): void {
  const route = parseRoute(location.hash);
  if (current) return;
  if (isCourse(route)) {
    pause();
    void openCourse(route).then(publish);
    return;
  }
  if (get().course !== null) {
    // Leaving the course: back to the user's own sandbox.
    pause();
    set({ course: null });
    if (get().source === 'course' && route.kind !== 'link' && route.kind !== 'scenario')
      void restoreOwn().then(publish);
  }
  if (route.kind === 'scenario') {
    pause();
    void openScenario(route).then(publish);
    return;
  }
  if (route.kind !== 'link') return;
  pause();
  void openLink(route.payload).then(publish);
}

export function failedToLoad(e: unknown): void {
  set({ phase: 'failed', loadError: e instanceof Error ? e.message : String(e) });
}
