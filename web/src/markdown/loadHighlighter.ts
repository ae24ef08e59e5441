/** The highlighting module, loaded once, on demand (its own chunk: ~50 KiB gzip). */
export type Highlighter = typeof import('./highlight');

let loading: Promise<Highlighter> | null = null;

/** Loads the highlighter (lowlight and its grammars) the first time a finished code block asks. */
export function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('./highlight');
  return loading;
}
