/** What {@link registerServiceWorker} uses of the browser (the window, or a test's stand-in). */
export interface WorkerEnvironment {
  readonly isSecureContext: boolean;
  readonly navigator: {
    readonly serviceWorker?: { register(url: string, options: { scope: string }): Promise<unknown> };
  };
  readonly document: { readonly readyState: string };
  addEventListener(type: 'load', listener: () => void, options: { once: true }): void;
}

/**
 * Registers the service worker (`/sw.js`, built from web/src/sw) after the page has loaded, so
 * it never competes with the first paint. Only in a production build and a secure context
 * (HTTPS, or loopback): over plain HTTP on a network the browser has no service worker, and the
 * page works without one. Returns whether it registered or will once the page has loaded.
 */
export function registerServiceWorker(env: WorkerEnvironment, production: boolean): boolean {
  const workers = env.navigator.serviceWorker;
  if (!production || !env.isSecureContext || !workers) return false;
  const register = () => {
    // Relative to the page: under a base path the worker and its scope live there too.
    workers.register('sw.js', { scope: './' }).catch(() => {
      // No worker (a private window, storage disabled): the page works the same without one.
    });
  };
  if (env.document.readyState === 'complete') register();
  else env.addEventListener('load', register, { once: true });
  return true;
}
