/* global self, caches, URL, fetch */
/* cnisim's service worker: after the first visit, the app, the embed page and every lesson
   (all in the build's files) work offline, as workshop rooms need. Generated at build time
   (vite.config.ts fills in the file list and the build's version); no third-party requests. */
const VERSION = '__VERSION__';
const FILES = /* __FILES__ */ [];
const CACHE = `cnisim-${VERSION}`;
const base = new URL('./', self.location.href);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(FILES.map((f) => new URL(f, base).href)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('cnisim-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // Pages are cached without their query (embed.html?step=...); the hash never reaches us.
      // ignoreVary: servers send `Vary: Origin`, and module scripts carry an Origin header that
      // the install's requests did not.
      const hit = await cache.match(req, {
        ignoreSearch: req.mode === 'navigate',
        ignoreVary: true,
      });
      if (hit) return hit;
      try {
        return await fetch(req);
      } catch (e) {
        if (req.mode === 'navigate') {
          const page = await cache.match(new URL('index.html', base).href, { ignoreVary: true });
          if (page) return page;
        }
        throw e;
      }
    })(),
  );
});
