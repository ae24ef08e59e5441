import type { Colours } from './diffMessages';
import type { HastNode } from './hastToPreact';

/**
 * A highlighted hast tree (lowlight's output) of a row's text as {@link Colours}: where each span
 * opens and closes, and its class names, entered in `classes` (a table shared by the rows of one
 * message, so each name is sent once). Numbers, not a tree: the cheapest for a page to read off a
 * worker's message. The page draws them with coloursToPreact.ts, the same elements as
 * hastToPreact.ts draws from the tree.
 *
 * @example
 * ```ts
 * const classes: string[] = [];
 * const colours = hastToColours(lowlight.highlight('ts', line), classes);
 * ```
 */
export function hastToColours(tree: HastNode, classes: string[]): Colours {
  const marks: number[] = [];
  const walk = (node: HastNode, at: number): number => {
    if (node.type === 'text') return at + (node.value ?? '').length;
    const element = node.type === 'element';
    if (element) {
      const className = node.properties?.className;
      const name = Array.isArray(className) ? className.join(' ') : '';
      let index = classes.indexOf(name);
      if (index < 0) index = classes.push(name) - 1;
      marks.push(at, index + 1);
    }
    let end = at;
    for (const child of node.children ?? []) end = walk(child, end);
    if (element) marks.push(end, 0);
    return end;
  };
  walk(tree, 0);
  return { classes, marks };
}
