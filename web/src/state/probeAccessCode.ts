import { type BridgeClient, BridgeClientError } from '@webbridge/client-sdk';
import type { Snapshot } from './types';

/** Why a code was not accepted. */
export type ProbeFailure =
  | { readonly kind: 'wrong_code' }
  /** Too many wrong codes from this device: wait `retryAfterSeconds` (null when not said). */
  | { readonly kind: 'rate_limited'; readonly retryAfterSeconds: number | null }
  /** The host did not answer (stopped, or the network is down). */
  | { readonly kind: 'unreachable'; readonly detail: string };

/** The outcome of {@link probeAccessCode}. */
export type ProbeResult =
  | { readonly ok: true; readonly snapshot: Snapshot }
  | { readonly ok: false; readonly failure: ProbeFailure };

/**
 * Checks the client's access code by reading the state once (which also fills the client's
 * store), so the connection page can say "wrong code" or "wait N seconds" before the event
 * stream opens. `fetchState` is never retried, so one try costs one failure at most.
 *
 * @example
 * ```ts
 * const session = createSession({ baseUrl: location.origin, accessCode: code });
 * const result = await probeAccessCode(session.client);
 * if (!result.ok && result.failure.kind === 'wrong_code') showWrongCode();
 * ```
 */
export async function probeAccessCode(client: Pick<BridgeClient, 'fetchState'>): Promise<ProbeResult> {
  try {
    return { ok: true, snapshot: await client.fetchState() };
  } catch (error) {
    if (!(error instanceof BridgeClientError)) throw error;
    switch (error.code) {
      case 'unauthorized':
        return { ok: false, failure: { kind: 'wrong_code' } };
      case 'rate_limited':
        return { ok: false, failure: { kind: 'rate_limited', retryAfterSeconds: error.retryAfterSeconds } };
      default:
        return { ok: false, failure: { kind: 'unreachable', detail: error.detail } };
    }
  }
}
