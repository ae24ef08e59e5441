/**
 * A byte count for people: `512 B`, `1.5 KB`, `12 MB`.
 *
 * @example
 * ```ts
 * formatSize(1536); // '1.5 KB'
 * ```
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
