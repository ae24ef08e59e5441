/**
 * Registers the service worker (web/public/sw.js) after the page has loaded, so it never
 * competes with the first paint. Only in a secure context (HTTPS, or loopback): over plain
 * HTTP on a network the browser has no service worker, and the page works without one.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !window.isSecureContext || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // No worker (a private window, storage disabled): the page works the same without one.
    });
  };
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}

registerServiceWorker();
