import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createServer, defineConfig, type Plugin, type ViteDevServer } from 'vite';

/**
 * The built page's Content Security Policy: scripts only from the site itself (no inline
 * scripts, no eval), no plugins, no base or form targets. Styles may be inline: CodeMirror adds
 * style elements at run time. Only in the build: the dev server injects an inline
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

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * `<cni-sim>` (src/element) built in library mode after the app, as one classic script next to
 * embed.html: dist/cni-sim.js. Part of every `vite build`, so the e2e tests find it.
 */
function element(): Plugin {
  let outDir = 'dist';
  return {
    name: 'cnisim-element',
    apply: 'build',
    configResolved(c) {
      outDir = c.build.outDir;
    },
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir,
          emptyOutDir: false,
          sourcemap: false,
          copyPublicDir: false,
          lib: {
            entry: here('./src/element/cni-sim.ts'),
            formats: ['iife'],
            name: 'CniSim',
            fileName: () => 'cni-sim.js',
          },
        },
      });
    },
  };
}

/**
 * The service worker (src/offline/sw-template.js) with the build's file list, so that a first
 * visit caches the whole app (every lesson, every lazy view) for offline use.
 */
function serviceWorker(): Plugin {
  let publicDir = '';
  return {
    name: 'cnisim-sw',
    apply: 'build',
    enforce: 'post',
    configResolved(c) {
      publicDir = c.publicDir;
    },
    generateBundle(_options, bundle) {
      // The bundle and the files of public/ (the icons and the manifest: an installed app
      // opened offline shows its icon).
      const copied = publicDir
        ? readdirSync(publicDir, { recursive: true, withFileTypes: true })
            .filter((d) => d.isFile())
            .map((d) => relative(publicDir, `${d.parentPath}/${d.name}`).split('\\').join('/'))
        : [];
      const files = [...Object.keys(bundle), ...copied].sort();
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
      const source = readFileSync(here('./src/offline/sw-template.js'), 'utf8')
        .replace("'__VERSION__'", JSON.stringify(version))
        .replace('/* __FILES__ */ []', JSON.stringify(['./', ...files]));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

const LANDING_TRACE = 'virtual:cnisim-landing-trace';

/** A Vite server that only loads modules for Node (the prerender, the landing's trace). */
function ssrServer(plugins: Plugin[] = []): Promise<ViteDevServer> {
  return createServer({
    configFile: false,
    root: here('.'),
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins,
  });
}

/** The landing's trace of this build, computed once (the app's and the prerender's builds share it). */
let landingTraceSource: Promise<string> | null = null;

/**
 * `virtual:cnisim-landing-trace`: the landing's precomputed trace (src/ui/landing-trace.ts),
 * computed by the engine when the app is built or served (src/ui/landing-trace-build.ts), so
 * that nothing generated is committed and it is always this engine's. About 7 KiB gzip, in the
 * first screen's chunk; src/ui/landing-trace.test.ts checks it against the engine step by step.
 */
function landingTrace(): Plugin {
  let dev: ViteDevServer | null = null;
  const compute = async (server: ViteDevServer) => {
    const m = (await server.ssrLoadModule('/src/ui/landing-trace-build.ts')) as {
      buildLandingTrace(): Promise<unknown>;
    };
    // As an object literal: smaller in gzip than the JSON.parse of a string.
    return `export default ${JSON.stringify(await m.buildLandingTrace())};`;
  };
  return {
    name: 'cnisim-landing-trace',
    configureServer(server) {
      dev = server;
    },
    resolveId: (id) => (id === LANDING_TRACE ? `\0${LANDING_TRACE}` : null),
    load(id) {
      if (id !== `\0${LANDING_TRACE}`) return null;
      // The dev server computes it anew on each load (the engine may have changed); a build
      // once, with the prerender's server if it asks first.
      if (dev && !dev.config.server.middlewareMode) return compute(dev);
      landingTraceSource ??= dev
        ? compute(dev)
        : ssrServer().then(async (server) => {
            try {
              return await compute(server);
            } finally {
              await server.close();
            }
          });
      return landingTraceSource;
    },
  };
}

/**
 * index.html with the app's first screen already in #root (src/prerender.tsx), and embed.html
 * with the default sandbox's (src/embed/prerender.tsx), rendered with Vite's SSR loader at
 * build time: the first paint does not wait for a script. embed.html's other parameters show
 * something else: its gate script hides that screen before the first paint (`embedGate`).
 */
function prerender(): Plugin {
  return {
    name: 'cnisim-prerender',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      async handler(html, ctx) {
        const embed = ctx.filename.endsWith('embed.html');
        if (!embed && !ctx.filename.endsWith('index.html')) return html;
        const server = await ssrServer([landingTrace()]);
        try {
          const screen = embed
            ? `<div class="prerendered">${(
                (await server.ssrLoadModule('/src/embed/prerender.tsx')) as {
                  renderEmbedFirstScreen(): string;
                }
              ).renderEmbedFirstScreen()}</div>`
            : (
                (await server.ssrLoadModule('/src/prerender.tsx')) as {
                  renderFirstScreen(): string;
                }
              ).renderFirstScreen();
          const root = '<div id="root"></div>';
          if (!html.includes(root))
            throw new Error(`prerender: ${ctx.filename} has no empty #root`);
          // `static-screen`: the first frame draws the page as one layer (app.css); main.tsx
          // takes the class off once React has the page.
          const attrs = embed ? '' : ' class="static-screen"';
          return html.replace(root, `<div id="root"${attrs}>${screen}</div>`);
        } finally {
          await server.close();
        }
      },
    },
  };
}

/**
 * The page's stylesheets, then `also`, moved before its module script: what the first paint
 * waits for is requested before the module script and its dozen modulepreloads, which would
 * otherwise take the browser's six connections to the server first.
 */
function placeFirst(html: string, also = ''): string {
  const sheets = html.match(/[ \t]*<link rel="stylesheet"[^>]*>\n?/g) ?? [];
  const rest = sheets.reduce((h, l) => h.replace(l, ''), html);
  const at = rest.search(/<script type="module"/);
  if (at < 0) throw new Error('placeFirst: the page has no module script');
  const first = [...sheets.map((l) => l.trim()), ...(also ? [also] : [])];
  return `${rest.slice(0, at)}${first.join('\n    ')}\n    ${rest.slice(at)}`;
}

/** index.html's stylesheets before its scripts (`placeFirst`; embed.html's: `embedGate`). */
function cssFirst(): Plugin {
  return {
    name: 'cnisim-css-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => (ctx.filename.endsWith('embed.html') ? html : placeFirst(html)),
    },
  };
}

const EMBED_GATE = 'embed-gate.js';

/**
 * embed.html's gate (src/embed/gate.ts): a classic script in its <head>, dist/embed-gate.js,
 * which runs before the first paint and hides the prerendered default screen when the page's
 * parameters show something else (and applies the theme). A file of the bundle, so that the
 * service worker caches it with the rest.
 */
function embedGate(): Plugin {
  return {
    name: 'cnisim-embed-gate',
    apply: 'build',
    async generateBundle() {
      const out = await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          write: false,
          sourcemap: false,
          copyPublicDir: false,
          lib: {
            entry: here('./src/embed/gate.ts'),
            formats: ['iife'],
            name: 'CniSimEmbedGate',
            fileName: () => EMBED_GATE,
          },
        },
      });
      const outputs = (Array.isArray(out) ? out : [out]) as { output: { code?: string }[] }[];
      const code = outputs[0]?.output[0]?.code;
      if (!code) throw new Error('embed gate: no output');
      this.emitFile({ type: 'asset', fileName: EMBED_GATE, source: code });
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) =>
        ctx.filename.endsWith('embed.html')
          ? placeFirst(html, `<script src="./${EMBED_GATE}"></script>`)
          : html,
    },
  };
}

// Static site: relative asset URLs (`base: './'`) so the build works from any sub-path
// (GitHub Pages project sites, a file server directory, ...).
export default defineConfig({
  base: './',
  plugins: [
    react(),
    csp(),
    landingTrace(),
    prerender(),
    embedGate(),
    cssFirst(),
    element(),
    serviceWorker(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      // The app, and embed.html (minimal chrome for iframes and <cni-sim>).
      input: { main: here('./index.html'), embed: here('./embed.html') },
      output: {
        // The landing's precomputed trace is data: a chunk of its own (in the first screen,
        // beside the code; e2e/size.spec.ts weighs the two apart).
        codeSplitting: { groups: [{ name: 'precomputed-trace', test: /cnisim-landing-trace/ }] },
      },
    },
  },
});
