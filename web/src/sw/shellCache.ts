import { BASE, scope } from './scope';

// Filled in by the build (build/serviceWorkerPlugin.ts): a hash of the build's files, and the
// files the first paint needs. A new build changes the worker's bytes, so the browser installs
// it and the old cache is deleted.
declare const __WORKER_BUILD__: string;
declare const __WORKER_SHELL__: readonly string[];

const PREFIX = 'webbridge-shell-';

/** The cache of this build's shell. */
export const SHELL_CACHE = `${PREFIX}${__WORKER_BUILD__}`;

/** The page shown when a navigation finds no host. */
export const OFFLINE = `${BASE}offline.html`;

/** The files that keep their names (the network's copy first). */
export const STATIC: readonly string[] = [
  OFFLINE,
  `${BASE}offline.css`,
  `${BASE}offline.js`,
  `${BASE}manifest.webmanifest`,
  `${BASE}icons/icon-192.png`,
];

/** Caches an older worker kept that this one does not read (its push strings, issue 19). */
const RETIRED = ['webbridge-push-strings'];

/** Install: stores the shell, then takes over without waiting for old pages to close. */
export function onInstall(event: ExtendableEvent): void {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll([...STATIC, ...__WORKER_SHELL__]))
      .then(() => scope.skipWaiting()),
  );
}

/** Activate: deletes the shells of older builds, then controls the open pages. */
export function onActivate(event: ExtendableEvent): void {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => (key.startsWith(PREFIX) && key !== SHELL_CACHE) || RETIRED.includes(key))
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => scope.clients.claim()),
  );
}
