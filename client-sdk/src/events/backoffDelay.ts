/** Reconnection delays: exponential growth with full jitter. */
export interface BackoffOptions {
  /**
   * Upper bound of the first delay, in milliseconds.
   * @default 500
   */
  readonly baseMs?: number;
  /**
   * Largest delay, in milliseconds.
   * @default 30000
   */
  readonly maxMs?: number;
}

/**
 * The delay before reconnection attempt `attempt` (0-based): a uniformly random value in
 * `[0, min(maxMs, baseMs · 2^attempt))` ("full jitter"), so that many clients dropped at the
 * same moment do not come back at the same moment.
 *
 * @example
 * ```ts
 * backoffDelay(0); // somewhere in [0, 500)
 * backoffDelay(6, { maxMs: 10_000 }); // somewhere in [0, 10000)
 * ```
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}, random = Math.random): number {
  const base = options.baseMs ?? 500;
  const max = options.maxMs ?? 30_000;
  // The exponent is capped so that 2^attempt stays a finite number however long the outage.
  const ceiling = Math.min(max, base * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}
