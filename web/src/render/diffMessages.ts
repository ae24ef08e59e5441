import type { DiffRow, UnifiedDiff } from './unifiedDiff';

/**
 * What the page asks the diff worker: one file change, with `context` lines (Infinity: all); or
 * the next rows of request `id`, once it has read the last ones.
 */
export type DiffRequest =
  | {
      readonly kind: 'diff';
      readonly id: number;
      readonly oldText: string | null;
      readonly newText: string;
      readonly context: number;
    }
  | { readonly kind: 'more'; readonly id: number };

/**
 * Rows the worker sends in one message at most: the page takes each message off its queue in
 * one task, and 4,500 rows in one were 0.2 s of one at 6x (tests/bench/agentDiffSlowPhone.ts).
 */
export const ROWS_PER_MESSAGE = 100;

/**
 * The worker's answers to request `id`, in order: `rows` messages of at most
 * {@link ROWS_PER_MESSAGE} rows, each sent once the page asked for `more` (messages sent at once
 * were all read in one task of the page, as one message had been), then `done` with the counts;
 * or `error` with why the rows could not be computed.
 */
export type DiffAnswer =
  | { readonly id: number; readonly kind: 'rows'; readonly rows: readonly DiffRow[] }
  | ({ readonly id: number; readonly kind: 'done' } & Omit<UnifiedDiff, 'rows'>)
  | { readonly id: number; readonly kind: 'error'; readonly error: string };
