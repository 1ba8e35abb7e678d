/**
 * embed.html's first script: a classic script in <head> (dist/embed-gate.js, built and linked by
 * vite.config.ts), so it runs before the first paint, whereas the page's module script runs
 * after the document is parsed. The page's #root holds the default sandbox's first screen,
 * rendered at build time (prerender.tsx); this script applies the `theme` parameter and, when
 * the parameters show something else, marks the page so that embed.css hides that screen until
 * main.tsx renders the right one: no wrong content is ever painted.
 */
import { parseParams, prerenderFits } from './protocol';

const { params, problems } = parseParams(location.search);
const root = document.documentElement;
if (params.theme !== 'auto') root.dataset['theme'] = params.theme;
if (!prerenderFits(params, problems)) root.dataset['prerender'] = 'stale';
