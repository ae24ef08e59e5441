const FENCE = /^(`{3,}|~{3,})/;
const MARKER = /^(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))/;

/**
 * The most containers (block quotes, list items) any line of `text` opens, outside fenced
 * code: one per `>` or list marker at the line's start, plus one per two columns of indentation
 * before a marker (how nested lists are written). A linear scan, so the page can refuse a reply
 * nested too deeply before the recursive parser ever sees it.
 *
 * @example
 * ```ts
 * lineNesting('> - a\n>   > b'); // 3
 * ```
 */
export function lineNesting(text: string): number {
  let deepest = 0;
  let fence: string | null = null;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    let at = start;
    let depth = 0;
    let indent = 0;
    for (;;) {
      const before = at;
      while (at < end && (text[at] === ' ' || text[at] === '\t')) at++;
      if (depth === 0) indent = at - before;
      const marker = MARKER.exec(text.slice(at, Math.min(end, at + 11)));
      if (!marker) break;
      depth++;
      at += marker[0].length;
    }
    const opener = FENCE.exec(text.slice(at, Math.min(end, at + 64)))?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = null;
    } else {
      if (opener) fence = opener;
      if (depth > 0) deepest = Math.max(deepest, depth + Math.floor(indent / 2));
    }
    if (newline < 0) break;
    start = newline + 1;
  }
  return deepest;
}
