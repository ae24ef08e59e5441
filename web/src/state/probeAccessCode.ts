import { BridgeClientError, createBridgeClient } from '@webbridge/client-sdk';
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
 * Checks an access code by reading the state once, so the connection page can say "wrong
 * code" or "wait N seconds" before anything else happens. The `Retry-After` header of a 429
 * is read from the response, which {@link BridgeClientError} does not carry.
 *
 * @example
 * ```ts
 * const result = await probeAccessCode(location.origin, code);
 * if (!result.ok && result.failure.kind === 'wrong_code') showWrongCode();
 * ```
 */
export async function probeAccessCode(
  baseUrl: string,
  code: string,
  fetchFn: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<ProbeResult> {
  let retryAfter: number | null = null;
  const recording: typeof fetch = async (input, init) => {
    const response = await fetchFn(input, init);
    if (response.status === 429) retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    return response;
  };
  const probe = createBridgeClient({ baseUrl, accessCode: code, fetch: recording, retries: 0 });
  try {
    return { ok: true, snapshot: await probe.fetchState() };
  } catch (error) {
    if (error instanceof BridgeClientError) {
      if (error.code === 'unauthorized') return { ok: false, failure: { kind: 'wrong_code' } };
      if (error.code === 'rate_limited') {
        return { ok: false, failure: { kind: 'rate_limited', retryAfterSeconds: retryAfter } };
      }
      return { ok: false, failure: { kind: 'unreachable', detail: error.detail } };
    }
    throw error;
  }
}

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
