import { findable } from './findInMessages';
import { fold } from './fold';

/** The names of the highlights, styled by `::highlight(find-match)` and `::highlight(find-current)`. */
const MATCH = 'find-match';
const CURRENT = 'find-current';
/** Where the Custom Highlight API is missing: an outline around the message instead. */
const FALLBACK = 'find-fallback';

/** Options of {@link highlightMatches}. */
export interface HighlightOptions {
  /**
   * How long to wait for the message to be drawn (a windowed list draws it a frame or more
   * after it was asked to reveal it), in milliseconds.
   * @default 1000
   */
  readonly waitMs?: number;
}

/** The folded text of a message's bodies, with where each folded character came from. */
interface Folded {
  readonly text: string;
  readonly node: Text[];
  readonly start: number[];
  readonly end: number[];
}

/**
 * Highlights every place `query` occurs in the message `messageId` inside `scroller` (the
 * list's scrolling element) once it is in the DOM, the `current`-th of them (from 0, as
 * counted in the message's text) as the current one, scrolled into view if the message is
 * taller than the screen. Case, accents and white space are folded as find folds them. Uses
 * the CSS Custom Highlight API, which leaves the DOM alone, or an outline class on the
 * message where the API is missing. The highlight follows the message when it is drawn again
 * (a stand-in replaced by the full message, a reply that grows). Returns the function that
 * takes every highlight away.
 *
 * @example const clear = highlightMatches(list, 'm42', 'zurich', 0); … clear();
 */
export function highlightMatches(
  scroller: Element,
  messageId: string,
  query: string,
  current: number,
  { waitMs = 1000 }: HighlightOptions = {},
): () => void {
  const selector = `[data-message-id="${CSS.escape(messageId)}"]`;
  const needle = findable(query).trim();
  let shown: Element | null = null;
  let frame = 0;
  let observer: MutationObserver | undefined;

  const apply = (message: Element, scroll: boolean) => {
    if (shown && shown !== message) shown.classList.remove(FALLBACK);
    shown = message;
    const ranges = needle === '' ? [] : rangesOf(foldedBodies(message), needle);
    const mark = ranges[Math.min(current, ranges.length - 1)];
    if (supportsHighlights()) {
      CSS.highlights.set(MATCH, new Highlight(...ranges.filter((range) => range !== mark)));
      if (mark) CSS.highlights.set(CURRENT, new Highlight(mark));
      else CSS.highlights.delete(CURRENT);
    } else message.classList.add(FALLBACK);
    if (scroll && mark) bringIntoView(scroller, mark);
  };

  const waitUntil = performance.now() + waitMs;
  const look = () => {
    const message = scroller.querySelector(selector);
    if (!message) {
      if (performance.now() < waitUntil) frame = requestAnimationFrame(look);
      return;
    }
    apply(message, true);
    // Drawn again: the stand-in replaced by the full message, markdown arriving, a reply
    // growing. Mutations elsewhere in the list (a streamed word in another message) are
    // passed over at the cost of a `contains` per record.
    observer = new MutationObserver((records) => {
      const now = shown?.isConnected ? shown : scroller.querySelector(selector);
      if (!now) return;
      if (now !== shown || records.some((record) => now.contains(record.target))) apply(now, false);
    });
    observer.observe(scroller, { childList: true, subtree: true, characterData: true });
  };
  look();

  return () => {
    cancelAnimationFrame(frame);
    observer?.disconnect();
    shown?.classList.remove(FALLBACK);
    if (supportsHighlights()) {
      CSS.highlights.delete(MATCH);
      CSS.highlights.delete(CURRENT);
    }
  };
}

function supportsHighlights(): boolean {
  return typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight === 'function';
}

/**
 * The text a person reads in the message's bodies (not its role, time or buttons, which are
 * not part of its text), folded one character at a time so a match maps back to the DOM.
 */
function foldedBodies(message: Element): Folded {
  const folded: Folded = { text: '', node: [], start: [], end: [] };
  let text = '';
  for (const body of message.querySelectorAll('.body')) {
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      let offset = 0;
      for (const char of node.data) {
        const next = offset + char.length;
        let piece = fold(char);
        if (/^\s+$/u.test(piece)) piece = text.endsWith(' ') ? '' : ' ';
        for (let i = 0; i < piece.length; i++) {
          folded.node.push(node);
          folded.start.push(offset);
          folded.end.push(next);
        }
        text += piece;
        offset = next;
      }
    }
  }
  return { ...folded, text };
}

/** The DOM ranges of every non-overlapping occurrence of `needle` in the folded text. */
function rangesOf(folded: Folded, needle: string): Range[] {
  const ranges: Range[] = [];
  for (
    let at = folded.text.indexOf(needle);
    at !== -1;
    at = folded.text.indexOf(needle, at + needle.length)
  ) {
    const last = at + needle.length - 1;
    const startNode = folded.node[at];
    const endNode = folded.node[last];
    if (!startNode || !endNode) continue;
    const range = document.createRange();
    range.setStart(startNode, folded.start[at] ?? 0);
    range.setEnd(endNode, folded.end[last] ?? 0);
    ranges.push(range);
  }
  return ranges;
}

/** Scrolls the list so that the current match is in view, when the reveal left it out (a tall message). */
function bringIntoView(scroller: Element, range: Range): void {
  const box = range.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  if (box.height === 0 || (box.top >= view.top && box.bottom <= view.bottom)) return;
  scroller.scrollTop += box.top - view.top - (view.height - box.height) / 2;
}
