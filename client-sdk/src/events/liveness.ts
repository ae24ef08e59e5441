/** The longest delay a timer takes; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * How long after its last byte a stream with heartbeat interval `heartbeatMs` stops being
 * `live`: the interval (the server sends a heartbeat when a stream has been idle that long)
 * plus a grace of half an interval, at most 5 s, for a late server timer and the network.
 * 15 s heartbeats: 20 s; 3 s heartbeats: 4.5 s. The connection then checks its stream at once.
 *
 * @example
 * ```ts
 * staleAfterMs(15_000); // 20000
 * ```
 */
export function staleAfterMs(heartbeatMs: number): number {
  return Math.min(MAX_TIMER_MS, heartbeatMs + Math.min(heartbeatMs / 2, 5_000));
}

/**
 * How long a stream may stay silent before it is torn down even though no fresh stream could
 * replace it: two intervals, plus slack (a quarter interval, at most 5 s).
 */
export function deadAfterMs(heartbeatMs: number): number {
  return Math.min(MAX_TIMER_MS, 2 * heartbeatMs + Math.min(heartbeatMs / 4, 5_000));
}
