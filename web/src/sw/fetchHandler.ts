import { BASE, scope } from './scope';
import { OFFLINE, SHELL_CACHE, STATIC } from './shellCache';

/** Built files have a content hash in their name: a stored copy is always right. */
async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(SHELL_CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

/** The manifest, icons and offline files keep their names: the network's copy first. */
async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(SHELL_CACHE);
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
async function navigate(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match(OFFLINE)) ?? Response.error();
  }
}

/**
 * Answers the shell's files: built files from the cache, the manifest, icons and offline files
 * from the network first, navigations from the network with the offline page as fallback. It
 * never stores or answers API requests, the event stream or media: everything under /api/ goes
 * to the network untouched (they carry the access code's authority and must not outlive a
 * rotation in a cache).
 */
export function onFetch(event: FetchEvent): void {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.location.origin || url.pathname.startsWith(`${BASE}api/`)) return;
  if (request.mode === 'navigate') event.respondWith(navigate(request));
  else if (url.pathname.startsWith(`${BASE}assets/`)) event.respondWith(cacheFirst(request));
  else if (url.pathname.startsWith(`${BASE}icons/`) || STATIC.includes(url.pathname))
    event.respondWith(networkFirst(request));
}
