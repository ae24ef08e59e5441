/** The diff module (jsdiff and the rows built from it), loaded once, on demand (its own chunk). */
export type DiffModule = typeof import('./unifiedDiff');

let loading: Promise<DiffModule> | null = null;

/** Loads the diff module the first time a file change is drawn: a page without one never does. */
export function loadDiff(): Promise<DiffModule> {
  loading ??= import('./unifiedDiff');
  return loading;
}
