import { whenIdle } from '../render/whenIdle';

/** The markdown renderer: marked, the token renderer, code blocks and math, in their own chunk. */
export type MarkdownModule = typeof import('./MarkdownView');

let loading: Promise<MarkdownModule> | null = null;
let loaded: MarkdownModule | null = null;

/**
 * Loads the renderer once. The connection page does not need it, so it is not part of the
 * initial JavaScript: it is requested in the first idle moment after the page has painted,
 * or as soon as a message asks, whichever comes first.
 */
export function loadMarkdown(): Promise<MarkdownModule> {
  loading ??= import('./MarkdownView').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

/** The renderer if it has loaded, else null. */
export function markdownIfLoaded(): MarkdownModule | null {
  return loaded;
}

/** Requests the renderer when the browser is next idle (after the first paint). */
export function preloadMarkdown(): void {
  if (!loading) whenIdle(() => void loadMarkdown(), 2000);
}
