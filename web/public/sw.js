// The service worker. It keeps the page's shell (built files, icons, the offline page) so the
// app starts fast and can be installed, and shows the offline page when the host does not
// answer a navigation. It never stores or answers API requests, the event stream or media:
// everything under /api/ goes to the network untouched.
//
// The build fills in BUILD and SHELL (web/src/pwa/shellPlugin.ts); a new build changes the
// bytes of this file, so the browser installs it and the old cache is deleted.
const BUILD = 'dev';
const SHELL = [];
const CACHE = `webbridge-shell-${BUILD}`;
const OFFLINE = '/offline.html';
const STATIC = [OFFLINE, '/offline.css', '/offline.js', '/manifest.webmanifest', '/icons/icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...STATIC, ...SHELL]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith('webbridge-shell-') && key !== CACHE)
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** Built files have a content hash in their name: a stored copy is always right. */
async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

/** The manifest, icons and offline files keep their names: the network's copy first. */
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw error;
  }
}

/** A page load: always the host's page; the offline page only when the host cannot be reached. */
async function navigate(request) {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match(OFFLINE)) ?? Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') event.respondWith(navigate(request));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(cacheFirst(request));
  else if (url.pathname.startsWith('/icons/') || STATIC.includes(url.pathname))
    event.respondWith(networkFirst(request));
});

// A notification the page showed through this worker (phones have no `new Notification`):
// a tap brings the page to the front.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows[0];
      return open ? open.focus() : self.clients.openWindow('/');
    }),
  );
});
