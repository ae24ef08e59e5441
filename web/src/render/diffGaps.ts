import type { DiffRow } from './unifiedDiff';

/** How many lines `text` has (a last line without its newline counts). */
function lineCount(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return text === '' || text.endsWith('\n') ? lines : lines + 1;
}

/**
 * Whether a collapsed diff's `rows` leave lines of `newText` out: a gap between two hunks, or
 * unchanged lines after the last one (the card then offers "show the whole file"). Computed where
 * the rows are (the diff worker, or the page without one), so the page need not hold every row
 * to know it.
 */
export function diffGaps(rows: readonly DiffRow[], newText: string): boolean {
  if (rows.some((row) => row.kind === 'hunk')) return true;
  const fileLines = lineCount(newText);
  return (
    fileLines > 0 &&
    !rows.some((row) => (row.kind === 'same' || row.kind === 'add') && row.line === fileLines)
  );
}
