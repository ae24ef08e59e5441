import { errorFromFailure } from './errorFromResponse';
import type { Store } from './store';

/**
 * Waits before an action that could not reach the host is sent again: `delayMs`, or less when
 * the event stream comes back (the store's status turns `live` from anything else: the host is
 * reachable again, so there is no reason to wait out the backoff). Rejects with an `aborted`
 * error when `signal` aborts.
 */
export function waitToRetry(store: Store, delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(errorFromFailure(signal.reason, signal));
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, delayMs);
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.status === 'live' && previous.status !== 'live') {
        done();
        resolve();
      }
    });
    const onAbort = () => {
      done();
      reject(errorFromFailure(signal?.reason, signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
