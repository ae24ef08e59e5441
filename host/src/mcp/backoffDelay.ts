/**
 * The pause before restart number `failures + 1` of a failed server: `initialMs`, doubling
 * with each failure in a row, at most `maxMs`.
 *
 * @example
 * ```ts
 * [0, 1, 2, 20].map((n) => backoffDelay(n, 1000, 300_000)); // [1000, 2000, 4000, 300000]
 * ```
 */
export function backoffDelay(failures: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.min(failures, 30));
}
