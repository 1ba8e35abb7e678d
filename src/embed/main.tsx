/**
 * embed.html's entry: reads the parameters, starts the engine (a lazy chunk, as in the app) on
 * the chosen scenario and step, and answers the host page over postMessage (protocol.ts).
 */
import landingTrace from 'virtual:cnisim-landing-trace';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { loadEngine, loadLanding } from '../engine';
import { registerServiceWorker } from '../offline/register';
import { failedToLoad } from '../ui/app/boot';
import { openPreview } from '../ui/app/preview';
import { update } from '../ui/app/state';
import '../ui/app.css';
import './embed.css';
import { connectHost } from './host';
import { EmbedApp } from './EmbedApp';
import { parseParams, type Theme } from './protocol';
import { startEmbed, startEmbedLanding } from './start';
import { setEmbed } from './state';

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'auto') delete root.dataset['theme'];
  else root.dataset['theme'] = theme;
}

const { params, problems } = parseParams(location.search);
applyTheme(params.theme);
setEmbed({ views: params.views, scenario: params.scenario });
update({ source: 'embed' });

const container = document.getElementById('root');
if (container === null) throw new Error('cnisim: missing #root element in embed.html');

const host = connectHost(params.origin, applyTheme);
// The default sandbox opens with the landing's smaller engine (ui/landing.ts).
const onLanding = params.scenario === 'sandbox';
// Until the engine is in, the default sandbox steps through the landing's precomputed trace
// (ui/app/preview.ts).
if (onLanding)
  openPreview(landingTrace, {
    ...(params.level ? { level: params.level } : {}),
    // `step` as numbered on screen (seekTo): the cursor is one less.
    ...(params.step !== null ? { cursor: params.step - 1 } : {}),
  });

// The first screen in this task: "Step forward" is live at its end.
const root = createRoot(container);
flushSync(() =>
  root.render(
    <StrictMode>
      <EmbedApp />
    </StrictMode>,
  ),
);

// After it, the default sandbox's landing engine, then the whole engine (`ready` is posted to
// the host once it is there); another scenario fetches the whole engine at once.
const engine = onLanding
  ? loadLanding().then((landing) => {
      void startEmbedLanding(landing, params);
      return loadEngine();
    })
  : loadEngine();
engine
  .then((engine) => startEmbed(engine, params, problems))
  .then(
    (errors) => {
      performance.mark('cnisim:ready');
      host.ready();
      for (const e of errors) host.error(e);
    },
    (e: unknown) => {
      failedToLoad(e);
      host.error(e instanceof Error ? e.message : String(e));
    },
  );

// The same worker as the app's (sw.js next to embed.html): a workshop page's embeds work offline
// after the first visit.
registerServiceWorker();
