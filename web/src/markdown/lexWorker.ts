import type { TokensList } from 'marked';
import { lexPart } from './lexMarkdown';

/** What the page asks the worker: one part of a reply to lex. */
export interface LexRequest {
  readonly source: string;
  readonly links: TokensList['links'];
}

// A worker of its own: a reply that makes the lexer slow (or overflow) costs this thread
// only, which the page ends at its deadline (see lexOffThread).
addEventListener('message', (event: MessageEvent<LexRequest>) => {
  try {
    postMessage(lexPart(event.data.source, event.data.links));
  } catch {
    postMessage(null);
  }
});
