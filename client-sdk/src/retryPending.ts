import type { Action } from '@webbridge/contract';
import { BridgeClientError } from './BridgeClientError';
import type { WritableStore } from './store';
import { waitToRetry } from './waitToRetry';

/** How an action that cannot reach the host is sent again (see `BridgeClientOptions`). */
export interface RetryPolicy {
  /** How many times it is sent again after a network failure. */
  readonly retries: number;
  /** The first backoff; it doubles with every retry, up to 30 s. */
  readonly retryDelayMs: number;
  /** How long after its first send it may still be sent again. */
  readonly pendingForMs: number;
}

/**
 * Sends `action` with `post` and returns the host's answer. While the host cannot be reached (a
 * `network` error, never a refusal) the action waits in the store's `pendingActions` and is
 * sent again, with the same `actionId` so the host applies it at most once, after a backoff or
 * as soon as the event stream is live again; it leaves the store when answered, refused or
 * given up. Rejects with the last error when the policy's retries or time run out, or with an
 * `aborted` error when `signal` aborts.
 */
export async function retryPending<R>(
  store: WritableStore,
  action: Action & { readonly actionId: string },
  post: () => Promise<R>,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
): Promise<R> {
  const { actionId } = action;
  // The window for retries starts at the first send, not at its failure: the host remembers
  // an actionId for ACTION_ID_TTL_MS from when it first received it (never before the first
  // send), and a first POST can hang for minutes before it fails. Measured from its failure,
  // a late retry could reach a host that had forgotten the id and apply it twice.
  const firstSent = Date.now();
  let since: number | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        return await post();
      } catch (error) {
        if (!(error instanceof BridgeClientError) || error.code !== 'network') throw error;
        since ??= firstSent;
        if (attempt >= policy.retries || Date.now() - firstSent >= policy.pendingForMs) throw error;
        store.putPending({ actionId, action, since, attempts: attempt + 1 });
        await waitToRetry(store, Math.min(30_000, policy.retryDelayMs * 2 ** attempt), signal);
      }
    }
  } finally {
    if (since !== undefined) store.removePending(actionId);
  }
}
