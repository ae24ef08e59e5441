import { type ComponentChildren, h } from 'preact';
import type { Colours } from './diffMessages';

/** A span being filled: its class and what is inside so far. */
interface Open {
  readonly className: string | undefined;
  readonly inside: ComponentChildren[];
}

/**
 * Draws a diff row's `text` with its {@link Colours} (computed in the diff worker) as Preact
 * elements: spans with class names and text nodes, nothing else, so code cannot become markup.
 * The same elements as hastToPreact.ts draws from the tree they were made from.
 */
export function coloursToPreact(text: string, { classes, marks }: Colours): ComponentChildren {
  const top: ComponentChildren[] = [];
  const open: Open[] = [];
  let at = 0;
  const here = () => open.at(-1)?.inside ?? top;
  for (let i = 0; i + 1 < marks.length; i += 2) {
    const offset = marks[i] ?? at;
    const kind = marks[i + 1] ?? 0;
    if (offset > at) here().push(text.slice(at, offset));
    at = Math.max(at, offset);
    if (kind > 0) {
      const name = classes[kind - 1];
      open.push({ className: name === '' ? undefined : name, inside: [] });
      continue;
    }
    const closed = open.pop();
    if (closed) here().push(h('span', { class: closed.className }, closed.inside));
  }
  if (at < text.length) top.push(text.slice(at));
  return top;
}
