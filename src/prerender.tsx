/**
 * The app's first screen as HTML, rendered at build time (vite.config.ts, `prerender`) into
 * index.html's #root, so that the browser paints it before any script has run: the controls,
 * the tabs and the panes, with the landing's state and steps drawn from its precomputed trace
 * (ui/landing-trace.ts) and the controls disabled. main.tsx's first render replaces it with the
 * same screen, live.
 */
import landingTrace from 'virtual:cnisim-landing-trace';
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { App } from './ui/App';
import { openPreview } from './ui/app/preview';

export function renderFirstScreen(): string {
  openPreview(landingTrace, { live: false });
  return renderToStaticMarkup(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
