/** The units a "how long ago" is said in, with their length in seconds, largest first. */
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

const cache = new Map<string, Intl.RelativeTimeFormat>();

/**
 * How long ago `then` was, in the language's words ("5 seconds ago", "vor 2 Minuten",
 * "منذ ٣ دقائق"), rounded down to the largest whole unit; under a second is "now".
 *
 * @example relativeTime('en', Date.now() - 90_000) // "1 minute ago"
 */
export function relativeTime(language: string, then: number, now = Date.now()): string {
  let format = cache.get(language);
  if (format === undefined) {
    format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
    cache.set(language, format);
  }
  const seconds = Math.max(0, Math.floor((now - then) / 1000));
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return format.format(0, 'second');
}
