// First: starts fetching the landing's engine before React is evaluated.
import { landingEngine } from './ui/landing-fetch';
import landingTrace from 'virtual:cnisim-landing-trace';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { loadEngine } from './engine';
import { App } from './ui/App';
import { framedByForeignPage } from './ui/framing';
import { startLanding } from './ui/landing';
import { failedToLoad, start } from './ui/app/boot';
import { openPreview } from './ui/app/preview';
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

if (framedByForeignPage(window)) {
  createRoot(container).render(<Framed />);
} else {
  // The simulation engine and the panels that read it are lazy chunks: they download while
  // React paints the first screen, and "Step forward" is enabled once the sandbox exists. On the
  // landing, the sandbox is made by the landing's smaller engine, and the whole engine follows.
  // On the landing, the panels' chunk follows the landing's engine rather than competing with it.
  const panels = () => void import('./ui/panels').catch(() => undefined);
  // Until then, the landing steps through its precomputed trace (ui/app/preview.ts).
  if (landingEngine) openPreview(landingTrace);
  const engine = landingEngine
    ? landingEngine.then((landing) => {
        startLanding(landing);
        panels();
        return loadEngine();
      })
    : (panels(), loadEngine());

  // The first screen is rendered now, in this task, so that the browser paints it before the
  // engine's code (arriving meanwhile) is evaluated: a concurrent render would yield to it.
  const root = createRoot(container);
  flushSync(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
  engine.then(start, failedToLoad);
  registerServiceWorker();
}
