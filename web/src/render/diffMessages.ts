import type { DiffRow, UnifiedDiff } from './unifiedDiff';

/**
 * What the page asks the diff worker: one file change, with `context` lines (Infinity: all),
 * its rows coloured as `lang` (a file extension; '' or an unknown one: not coloured); or the next
 * rows of request `id`, once it has read the last ones.
 */
export type DiffRequest =
  | {
      readonly kind: 'diff';
      readonly id: number;
      readonly oldText: string | null;
      readonly newText: string;
      readonly context: number;
      readonly lang: string;
    }
  | { readonly kind: 'more'; readonly id: number };

/**
 * A row's syntax colours, as offsets into its text: `marks` in pairs `[offset, class]`, where
 * class `k > 0` opens a span of `classes[k - 1]` (highlight.js's `hljs-keyword`, …; '' for none)
 * and `0` closes the span last opened. What lowlight's tree says, without the tree: a tree of
 * objects took the page ~25 ms at 25x CPU throttle to read per message of 100 rows (its
 * structured clone), an array of numbers is one object. `classes` is one array shared by every
 * row of a message (sent once). The page draws the same spans (coloursToPreact.ts).
 */
export interface Colours {
  readonly classes: readonly string[];
  readonly marks: readonly number[];
}

/** A diff row as the worker sends it: with its colours where it was highlighted. */
export interface ColouredRow extends DiffRow {
  /** Absent on a hunk, a row with word marks, or where no grammar coloured it. */
  readonly colours?: Colours;
}

/**
 * Rows the worker sends in one message at most: the page takes each message off its queue in
 * one task, and 4,500 rows in one were 0.2 s of one at 6x (tests/bench/agentDiffSlowPhone.ts).
 */
export const ROWS_PER_MESSAGE = 100;

/**
 * What the page knows of a change before its rows have all arrived: its counts, its number of
 * rows, whether lines are left out (diffGaps.ts), and whether the worker coloured the rows
 * (false: the language's grammar did not load in the worker, the page colours them as it would
 * without a worker).
 */
export interface DiffHead extends Omit<UnifiedDiff, 'rows'> {
  readonly total: number;
  readonly gaps: boolean;
  readonly coloured: boolean;
}

/**
 * The worker's answers to request `id`, in order: `start` with the {@link DiffHead} and the
 * first rows, then `rows` messages, each of at most {@link ROWS_PER_MESSAGE} rows and each sent
 * once the page asked for `more` (messages sent at once were all read in one task of the page,
 * as one message had been), then `done`; or `error` with why the rows could not be computed.
 * The page draws from `start` on: it need not read 4,000 rows to draw the first 120.
 */
export type DiffAnswer =
  | {
      readonly id: number;
      readonly kind: 'start';
      readonly head: DiffHead;
      readonly rows: readonly ColouredRow[];
    }
  | { readonly id: number; readonly kind: 'rows'; readonly rows: readonly ColouredRow[] }
  | { readonly id: number; readonly kind: 'done' }
  | { readonly id: number; readonly kind: 'error'; readonly error: string };
