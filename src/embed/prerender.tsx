/**
 * embed.html's first screen as HTML, rendered at build time (vite.config.ts, `prerender`) into
 * its #root, so that the browser paints it before any script has run: the default sandbox (no
 * parameters) at the landing's start, drawn from its precomputed trace (ui/landing-trace.ts),
 * the controls disabled. For other parameters, gate.ts hides it before the first paint
 * (`prerenderFits`). main.tsx's first render replaces it with the live embed.
 */
import landingTrace from 'virtual:cnisim-landing-trace';
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { openPreview } from '../ui/app/preview';
import { update } from '../ui/app/state';
import { EmbedApp } from './EmbedApp';

export function renderEmbedFirstScreen(): string {
  update({ source: 'embed' });
  openPreview(landingTrace, { live: false });
  return renderToStaticMarkup(
    <StrictMode>
      <EmbedApp />
    </StrictMode>,
  );
}
