import { type ComponentChildren, h } from 'preact';

/** The part of a hast tree (lowlight's output) that highlighting produces. */
export interface HastNode {
  readonly type: string;
  readonly value?: string;
  readonly tagName?: string;
  readonly properties?: { readonly className?: unknown };
  readonly children?: readonly HastNode[];
}

/**
 * Turns a highlighted hast tree into Preact elements: spans with class names and text nodes,
 * nothing else (no HTML string, no attribute but `class`), so code cannot become markup.
 *
 * @example
 * ```ts
 * const children = hastToPreact(lowlight.highlight('ts', code));
 * ```
 */
export function hastToPreact(node: HastNode): ComponentChildren {
  if (node.type === 'text') return node.value ?? '';
  const children = (node.children ?? []).map(hastToPreact);
  if (node.type !== 'element') return children;
  const className = node.properties?.className;
  return h('span', { class: Array.isArray(className) ? className.join(' ') : undefined }, children);
}
