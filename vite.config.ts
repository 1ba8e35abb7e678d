import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * The built page's Content Security Policy: scripts only from the site itself (no inline
 * scripts, no eval), no plugins, no base or form targets. Styles may be inline: CodeMirror and
 * Mermaid add style elements at run time. Only in the build: the dev server injects an inline
 * preamble for React refresh.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function csp(): Plugin {
  return {
    name: 'cnisim-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(
          /(<meta charset="UTF-8" \/>)/,
          `$1\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`,
        ),
    },
  };
}

// Static site: relative asset URLs (`base: './'`) so the build works from any sub-path
// (GitHub Pages project sites, a file server directory, ...).
export default defineConfig({
  base: './',
  plugins: [react(), csp()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
  },
});
