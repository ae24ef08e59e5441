import { type ComponentChildren, h } from 'preact';
import type { Colours } from './diffMessages';

/**
 * Draws a diff row's {@link Colours} (computed in the diff worker) as Preact elements: spans with
 * class names and text nodes, nothing else, so code cannot become markup. The same elements as
 * hastToPreact.ts draws from the tree they were made from.
 */
export function coloursToPreact(colours: Colours): ComponentChildren {
  return colours.map((part) =>
    typeof part === 'string'
      ? part
      : h('span', { class: part[0] === '' ? undefined : part[0] }, coloursToPreact(part[1])),
  );
}
