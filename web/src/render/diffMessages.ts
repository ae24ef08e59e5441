import type { UnifiedDiff } from './unifiedDiff';

/** What the page asks the diff worker: one file change, with `context` lines (Infinity: all). */
export interface DiffRequest {
  readonly id: number;
  readonly oldText: string | null;
  readonly newText: string;
  readonly context: number;
}

/** The worker's answer to request `id`: the rows, or why they could not be computed. */
export type DiffAnswer =
  | { readonly id: number; readonly diff: UnifiedDiff; readonly error?: undefined }
  | { readonly id: number; readonly error: string; readonly diff?: undefined };
