/**
 * The app's first screen as HTML, rendered at build time (vite.config.ts, `prerender`) into
 * index.html's #root, so that the browser paints it before any script has run: the controls,
 * the tabs and the panes, with the views "Loading the simulation…". main.tsx's first render
 * replaces it with the same screen, live.
 */
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { App } from './ui/App';

export function renderFirstScreen(): string {
  return renderToStaticMarkup(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
