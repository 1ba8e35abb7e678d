import { fetchLanding, onLanding, wholeEngine } from './ui/landing-fetch';
import landingTrace from 'virtual:cnisim-landing-trace';
import { StrictMode, startTransition, useEffect } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { loadEngine } from './engine';
import { App } from './ui/App';
import { framedByForeignPage } from './ui/framing';
import { startLanding } from './ui/landing';
import { failedToLoad, start } from './ui/app/boot';
import { yieldToPage } from './ui/app/jobs';
import { goLive, openPreview } from './ui/app/preview';
import { get, hydrateFrom } from './ui/app/state';
import './ui/app.css';
import { registerServiceWorker } from './offline/register';

const container = document.getElementById('root');
if (container === null) {
  throw new Error('cnisim: missing #root element in index.html');
}

/**
 * Inside another site's page (clickjacking, see ui/framing.ts): no live controls, no sandbox
 * read or saved, only a link to the app in its own tab. Documentation pages embed embed.html.
 */
function Framed() {
  return (
    <main className="framed">
      <h1>cnisim</h1>
      <p>
        This page is shown inside another site&apos;s page. To keep your sandbox and course progress
        safe, cnisim works only in its own tab here.
      </p>
      <p>
        <a href={location.href} target="_blank" rel="noopener noreferrer">
          Open cnisim in its own tab
        </a>
      </p>
    </main>
  );
}

/** Whether #root holds the build's first screen (src/prerender.tsx), not an empty page (the dev server). */
function prerendered(root: HTMLElement): boolean {
  return root.querySelector(':scope > header.site-header') !== null;
}

/**
 * A first render that did not match the prerendered screen: React has rendered the page anew
 * (as without hydration). Marked, so that e2e/hydration.spec.ts finds it, and reported.
 */
function hydrationFailed(error: unknown): void {
  performance.mark('cnisim:hydration-mismatch');
  console.error('cnisim: the first screen did not hydrate:', error);
}

/**
 * The prerendered screen is drawn without a layer per pane or scroller (app.css,
 * `static-screen`); once React has the page, after the next frame, the panes get them back
 * and scroll.
 */
function live(root: HTMLElement): void {
  requestAnimationFrame(() => setTimeout(() => root.classList.remove('static-screen'), 0));
}

let firstCommit: () => void = () => undefined;
/** Settles once React has committed the page's first render (see the non-landing branch). */
const committed = new Promise<void>((resolve) => (firstCommit = resolve));
function Committed() {
  useEffect(() => firstCommit(), []);
  return null;
}

if (framedByForeignPage(window)) {
  createRoot(container).render(<Framed />);
} else {
  // The simulation engine and the panels that read it are lazy chunks: they download while
  // React paints the first screen, and "Step forward" is enabled once the sandbox exists. On the
  // landing, the sandbox is made by the landing's smaller engine, and the whole engine follows.
  // On the landing, the panels' chunk follows the landing's engine rather than competing with it.
  const panels = () => void import('./ui/panels').catch(() => undefined);
  // Until the engine, the landing steps through its precomputed trace (ui/app/preview.ts).
  // index.html's first screen (src/prerender.tsx) is that landing, in the system theme, its
  // trace not yet live: the first render reads that state (`hydrateFrom`), matches the page's
  // nodes and hydrates them; React then renders the current state.
  const hydrates = onLanding && prerendered(container);
  if (onLanding) {
    openPreview(landingTrace, { live: false });
    if (hydrates) hydrateFrom({ ...get(), theme: 'system' });
    goLive();
  }
  // Elsewhere, the whole engine is requested in the next task (ui/landing-fetch.ts), and the
  // panels with it: requesting a chunk adds its modulepreload links, ~20 ms on a cold page.
  const whole = wholeEngine;
  if (whole) void yieldToPage().then(panels);
  const app = (
    <StrictMode>
      <App />
      <Committed />
    </StrictMode>
  );
  if (hydrates) {
    // The landing: React takes over the prerendered nodes rather than making and laying out a
    // second copy of the page. The header, the controls and the timeline synchronously, in this
    // task, and "Step forward" is live at its end; the panes and the dialogs (`HydratesLater`,
    // App.tsx) in the next tasks, or at once when they are used. (Hydrating in the next task
    // instead cut this task by ~90 ms, but "Step forward" came ~250 ms later: after a frame.)
    flushSync(() => {
      hydrateRoot(container, app, { onRecoverableError: hydrationFailed });
    });
  } else {
    // Anything else (a saved sandbox, a link, a course route, a chosen theme) differs from the
    // prerendered landing: it is replaced. Its first render runs as a transition, which React
    // renders in slices of a few milliseconds: in one task, a cold render of the whole page
    // took 160-220 ms (React's code not yet compiled) on top of the scripts' evaluation.
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
  // On the landing, its engine in the task after the first render's: its chunks (parsed on
  // another thread) would compete with the first paint and the render for the processor, and
  // requesting them (a `<link rel=modulepreload>` each) took 20 ms of that task on a cold page.
  // Elsewhere, the session is made once that render is committed: a store change during a
  // transition's render makes React render the whole page again, synchronously, in one task.
  const engine =
    whole?.then(async (m) => {
      await committed;
      return m;
    }) ??
    committed
      .then(yieldToPage)
      .then(() => fetchLanding()!)
      .then((landing) => {
        void startLanding(landing);
        panels();
        return loadEngine();
      });
  engine.then(start, failedToLoad);
  registerServiceWorker();
}
live(container);
