/**
 * The app's first screen as HTML, rendered at build time (vite.config.ts, `prerender`) into
 * index.html's #root, so that the browser paints it before any script has run: the controls,
 * the tabs and the panes, with the landing's state and steps drawn from its precomputed trace
 * (ui/landing-trace.ts) and the controls disabled. With React's hydration markers
 * (`renderToString`): on the landing, main.tsx hydrates it (keeps these nodes) rather than
 * replacing it, then makes its controls live.
 */
import landingTrace from 'virtual:cnisim-landing-trace';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './ui/App';
import { openPreview } from './ui/app/preview';

export function renderFirstScreen(): string {
  openPreview(landingTrace, { live: false });
  return renderToString(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
