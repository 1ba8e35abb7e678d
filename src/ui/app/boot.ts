/**
 * Start-up and routing: once the engine chunk has arrived, the session is made from the address
 * (a shared link, a scenario file, a course route) or the user's saved sandbox, and the address
 * is followed as it changes. Nothing imports this module but the entry points, so the modules
 * it opens (share/open.ts, course/open.ts) can import the store without a cycle.
 */
import type { EngineModule } from '../../engine';
import { pageUrl, parseRoute, type Route } from '../route';
import { openLink } from '../share/open';
import { ADDRESS_STEP, pause, seekTo, seekToAsked } from './commands';
import { afterJob, jobRunning, stopJobOnLeave, yieldToPage } from './jobs';
import { notify } from './notices';
import { restoreOwn, saveNow } from './persistence';
import { get, publish, update, type AppState } from './state';

/** Creates the session once the engine chunk has arrived: a shared link, the saved sandbox, or a new one. */
export async function start(engine: EngineModule): Promise<void> {
  performance.mark('cnisim:engine-loaded');
  // The engine's modules were evaluated in this task: the session is made in the next ones.
  await yieldToPage();
  // openLink and restoreOwn each make the session: a sandbox made here would be thrown away.
  update({ engine });
  const route = parseRoute(location.hash);
  // The landing's sandbox (landing.ts), already open and maybe stepped, is kept.
  const landing = get().phase === 'ready' && route.kind === 'sandbox';
  if (!landing) {
    if (route.kind === 'link') await openLink(route.payload);
    else if (route.kind === 'scenario') await openScenario(route);
    else await restoreOwn();
    if (isCourse(route)) await openCourse(route);
    update({ phase: 'ready' });
  }
  publish();
  performance.mark('cnisim:ready');
  window.addEventListener('pagehide', saveNow);
  window.addEventListener('hashchange', onHashChange);
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
  let opened: Awaited<ReturnType<typeof import('../scenarios').scenarioFileSession>>;
  try {
    opened = await (await import('../scenarios')).scenarioFileSession(route.name);
  } catch (e) {
    opened = `The scenario "${route.name}" could not be opened: ${(e as Error).message}`;
  }
  if (typeof opened === 'string') {
    notify('error', `${opened} Your own sandbox is open instead.`);
    history.replaceState(null, '', pageUrl(location));
    await restoreOwn();
    return;
  }
  update({ session: opened.session, source: 'link', selectedPod: null, selectedFile: null });
  if (opened.warning) notify('warning', opened.warning);
  if (route.step !== undefined) await seekToAsked(route.step, ADDRESS_STEP);
  else await seekTo(0);
}

function isCourse(r: Route): r is NonNullable<AppState['course']> {
  return r.kind === 'course' || r.kind === 'lesson' || r.kind === 'challenge';
}

/** Opens a course route (its code is a lazy chunk, src/ui/course). */
async function openCourse(route: NonNullable<AppState['course']>): Promise<void> {
  try {
    const m = await import('../course/open');
    await m.openCourseRoute(route);
  } catch (e) {
    notify('error', `The course could not be opened: ${(e as Error).message}`);
  }
}

let following = false;

function onHashChange(): void {
  if (jobRunning()) {
    // The user went elsewhere (Back, Forward, a link) during a long computation: a run, a step
    // or an action's replay is stopped (what it computed is kept), the opening of a sandbox is
    // let finish; then the address is followed. Ignored, the page would stay on a sandbox the
    // address no longer names.
    pause();
    stopJobOnLeave();
    if (!following) {
      following = true;
      void afterJob().then(() => {
        following = false;
        onHashChange();
      });
    }
    return;
  }
  const route = parseRoute(location.hash);
  if (isCourse(route)) {
    pause();
    void openCourse(route).then(publish);
    return;
  }
  if (get().course !== null) {
    // Leaving the course: back to the user's own sandbox.
    pause();
    update({ course: null });
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
  update({ phase: 'failed', loadError: e instanceof Error ? e.message : String(e) });
}
