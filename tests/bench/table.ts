/** Prints rows as an aligned text table under a title (what every benchmark outputs). */
export function printTable(title: string, rows: readonly Record<string, string | number>[]): void {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: string | number | undefined) =>
    value === undefined ? '' : typeof value === 'number' ? format(value) : value;
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((row) => cell(row[c]).length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padStart(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`\n${title}`);
  console.log(line(columns));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(columns.map((c) => cell(row[c]))));
}

function format(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100
    ? value.toFixed(0)
    : Math.abs(value) >= 1
      ? value.toFixed(2)
      : value.toFixed(3);
}

/** The value at quantile `q` (0..1) of `values`, by nearest rank. */
export function quantile(values: ArrayLike<number>, q: number): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Resident set size of a process in KiB, from /proc/<pid>/status. */
export async function rssKiB(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]);
}

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** CPU time (user + system) a process has used, in milliseconds, from /proc/<pid>/stat. */
export async function cpuMs(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks * 10;
}
