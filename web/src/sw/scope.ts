/**
 * The worker's global scope, typed as a service worker's (the WebWorker library types `self`
 * as any worker's).
 */
export const scope = self as unknown as ServiceWorkerGlobalScope;
