/**
 * The worker's global scope, typed as a service worker's (the WebWorker library types `self`
 * as any worker's).
 */
export const scope = self as unknown as ServiceWorkerGlobalScope;

/**
 * Where the app lives: `/`, or a base path (a proxy's or Tailscale Serve's mount point, from
 * `--public-url https://name/base`). The worker lives beside the page, so its own folder is the
 * app's; every URL the worker builds is under it.
 */
export const BASE = new URL('./', scope.location.href).pathname;
