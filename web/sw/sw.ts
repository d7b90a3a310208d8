// sw.ts -- the page's service worker (dist/sw.js, docs/web.md "Offline"):
// after one visit the app opens and plays with no network.  Hand-written,
// about 80 lines, rather than Workbox: the page is one shell (index.html)
// and a fixed list of files known at build time, so all it needs is a
// precache, a cache-first fetch and an update that waits its turn.
//
// tools/offline.mjs writes the list and the version in at build time:
// PRECACHE is every file of web/dist the page can ask for (the shell, its
// hashed modules and stylesheet, the three decks, the engine: scopa.wasm,
// its loader and worker, the manifest, the SVG icon), VERSION a hash of their
// contents, so any change makes a new sw.js and the browser installs it.
//
// What must stay true:
//   - nothing of the server's goes through the cache: /ws, /api/...,
//     /healthz go to the network (the page asks /healthz to learn whether
//     a server is there);
//   - a navigation gets the cached shell of this version, so the page and
//     its modules always come from one build (any address: /, /t/LOCAL,
//     /?leaderboard; a static file server has no /t/... of its own);
//   - a new version installs beside the old one and takes over only when
//     the page says so ("skipWaiting", main.ts: at home, never during a
//     game); then the old caches go.

const scope = self as unknown as ServiceWorkerGlobalScope;

const VERSION = '__VERSION__';
const PRECACHE: string[] = ['__PRECACHE__'];
const CACHE = `scopa-${VERSION}`;
const SHELL = '/index.html';

function server(path: string): boolean {
  return path === '/ws' || path === '/healthz' || path.startsWith('/api/');
}

scope.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' })))),
  );
});

scope.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('scopa-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => scope.clients.claim()),
  );
});

scope.addEventListener('message', (event) => {
  if (event.data === 'skipWaiting') void scope.skipWaiting();
});

async function cached(request: Request, key: string): Promise<Response> {
  const hit = await caches.match(key, { cacheName: CACHE });
  return hit ?? fetch(request);
}

scope.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== scope.location.origin || server(url.pathname))
    return; // the network, as without a service worker
  if (request.mode === 'navigate') {
    event.respondWith(cached(request, SHELL));
    return;
  }
  event.respondWith(cached(request, url.pathname));
});
