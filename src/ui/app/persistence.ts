/**
 * Persistence: the user's sandbox in localStorage, saved by a subscriber a moment after the
 * session changes (never a link's or a course's session), and read back by `restoreOwn`; the
 * theme, saved when it changes.
 */
import { damagedCopyText, setAside, tryWrite } from '../storage';
import { runJob, yieldToPage } from './jobs';
import { notify } from './notices';
import { get, subscribe, update, THEME_KEY } from './state';

export const STORAGE_KEY = 'cnisim.sandbox.v1';
export const CORRUPT_KEY = 'cnisim.sandbox.v1.damaged';

let saveTimer: ReturnType<typeof setTimeout> | null = null;

/** Saves a moment after the last change, when the page is idle (saving walks the trace). */
function scheduleSave(): void {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(saveNow, { timeout: 2000 });
    else saveNow();
  }, 400);
}

subscribe((st, prev) => {
  if (st.version !== prev.version) scheduleSave();
  if (st.theme !== prev.theme) saveTheme(st.theme);
});

function saveTheme(theme: string): void {
  try {
    if (theme === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage may be unavailable (private mode): the theme lasts for this page only.
  }
}

let storageFullSaid = false;

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

/** Replaces the session with the user's saved sandbox (or a new one when none is saved). */
export async function restoreOwn(): Promise<void> {
  const engine = get().engine;
  if (!engine) return;
  const session = engine.newSandbox();
  performance.mark('cnisim:sandbox-created');
  await yieldToPage();
  update({ session, source: 'own' });
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
  // The new sandbox is rendered (in this task's microtasks); the replay starts in the next task.
  await yieldToPage();
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
    update({ session: engine.newSandbox() });
  }
}
