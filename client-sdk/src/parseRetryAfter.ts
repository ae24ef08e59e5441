/**
 * Seconds to wait from a `Retry-After` header value: delta-seconds (`"30"`) or an HTTP date
 * (rounded up, never negative). `null` when absent or not understood.
 *
 * @example
 * ```ts
 * parseRetryAfter('30'); // 30
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:58 GMT')); // 2
 * ```
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // A bare number that is not delta-seconds (negative, fractional) is not an HTTP date either;
  // Date.parse would read "-5" as a year.
  if (!/[a-z]/i.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
