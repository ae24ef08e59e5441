import { whenIdle } from '../render/whenIdle';
import { DEVICE_KEY } from '../state/deviceCredential';

/** The markdown renderer: marked, the token renderer, code blocks and math, in their own chunk. */
export type MarkdownModule = typeof import('./MarkdownView');

let loading: Promise<MarkdownModule> | null = null;
let loaded: MarkdownModule | null = null;

/**
 * Loads the renderer once. The connection page does not need it, so it is not part of the
 * initial JavaScript (see {@link preloadMarkdown} for when it is fetched); a message that
 * renders before it has arrived asks for it too.
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

/**
 * Requests the renderer ahead of need. A page opened with a code or pairing link (in the fragment),
 * or by a paired browser, goes straight to the conversation: the renderer is fetched at once,
 * beside the state. The connection page alone does not need it: it is fetched once that page
 * has loaded, painted and gone idle, so it never competes with the first paint.
 */
export function preloadMarkdown(): void {
  if (loading) return;
  if (opensConversation()) {
    void loadMarkdown();
    return;
  }
  const later = () => requestAnimationFrame(() => whenIdle(() => void loadMarkdown(), 2000));
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

function opensConversation(): boolean {
  if (/(?:^#|&)(?:code|pair)=/.test(location.hash)) return true;
  try {
    return localStorage.getItem(DEVICE_KEY) !== null;
  } catch {
    return false;
  }
}
