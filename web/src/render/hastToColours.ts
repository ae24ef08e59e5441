import type { Colours } from './diffMessages';
import type { HastNode } from './hastToPreact';

/**
 * A highlighted hast tree (lowlight's output) as {@link Colours}: its text and its spans' class
 * names, nothing else, in arrays a worker can post (a tree of objects costs the page more to read
 * and names what it does not draw). The page draws it with coloursToPreact.ts, the same elements
 * as hastToPreact.ts draws from the tree.
 *
 * @example
 * ```ts
 * const colours = hastToColours(lowlight.highlight('ts', line));
 * ```
 */
export function hastToColours(node: HastNode): Colours {
  const out: Colours[number][] = [];
  add(node, out);
  return out;
}

function add(node: HastNode, out: Colours[number][]): void {
  if (node.type === 'text') {
    out.push(node.value ?? '');
    return;
  }
  if (node.type !== 'element') {
    for (const child of node.children ?? []) add(child, out);
    return;
  }
  const className = node.properties?.className;
  out.push([
    Array.isArray(className) ? className.join(' ') : '',
    hastToColours({ type: 'root', children: node.children ?? [] }),
  ]);
}
