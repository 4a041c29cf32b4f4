// wort's service worker: the app works on a brewery floor without network.
//
// * The app shell (index.html and every built file) is cached when the worker installs, so the
//   app opens offline, every page's code included. Built files are content-hashed: cache first.
// * Pages (navigations) go to the network first and fall back to the cached shell.
// * API reads (GET under /v1, and the sign-in check) go to the network first; the last answer is
//   kept and served when the network is gone, so the open brew session still shows. Writes are
//   never cached or replayed here: the app queues them itself, each with its Idempotency-Key.
// * Signing out, and sending writes that waited offline, clear the kept answers (the page posts
//   "clear-api"): they describe the server as it was before (src/offline/keptAnswers.ts).
//
// The build (vite.config.ts) replaces the placeholder below with the list of built files and a
// version; a new release is a new worker, which drops the previous release's caches.

const PRECACHE = self.__WORT_PRECACHE__;
const SHELL = `wort-shell-${PRECACHE.version}`;
const API = 'wort-api';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      await cache.addAll(['/', ...PRECACHE.files]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('wort-shell-') && name !== SHELL) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  // The page may wait for the copies to be gone (it passes a port for the answer).
  if (event.data === 'clear-api') event.waitUntil(caches.delete(API).then(() => event.ports[0]?.postMessage('cleared')));
});

function offlineJson() {
  return new Response(JSON.stringify({ error: 'Offline: the server could not be reached' }), {
    status: 503,
    headers: { 'Content-Type': 'application/json' },
  });
}

async function networkFirst(request, cacheName, fallback) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const cache = await caches.open(cacheName);
      await cache.put(request, response.clone());
    }
    return response;
  } catch {
    return (await caches.match(request, { cacheName })) ?? fallback();
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(async () => (await caches.match('/', { cacheName: SHELL })) ?? offlineJson()));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      (async () => {
        // Hashed files never change: a `Vary` of the server's (`Origin`: a module or a lazily
        // loaded stylesheet is fetched with one, the install's precache without) must not make
        // the cached copy miss offline.
        const hit = await caches.match(request, { ignoreVary: true });
        if (hit) return hit;
        const response = await fetch(request);
        if (response.ok) await (await caches.open(SHELL)).put(request, response.clone());
        return response;
      })(),
    );
    return;
  }
  // Streams (the assistant's answers) and the metrics are never kept.
  if (request.headers.get('Accept') === 'text/event-stream') return;
  if (url.pathname.startsWith('/v1/') || url.pathname === '/api/auth/get-session') {
    event.respondWith(networkFirst(request, API, offlineJson));
  }
});
