import { Component, type ComponentChildren, type FunctionComponent, h } from 'preact';

/**
 * Wraps a function component so it re-renders only when a prop changes identity (a shallow
 * compare), like `memo` from preact/compat without pulling compat into the bundle. Streaming
 * appends replace only the growing message, so the other messages skip their render.
 *
 * @example
 * ```ts
 * export const Row = pure(function Row({ item }: { item: Item }) { … });
 * ```
 */
export function pure<P extends object>(render: FunctionComponent<P>): FunctionComponent<P> {
  class Pure extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      const prev = this.props as Record<string, unknown>;
      const nextProps = next as Record<string, unknown>;
      for (const key in nextProps) if (key !== 'children' && prev[key] !== nextProps[key]) return true;
      for (const key in prev) if (!(key in nextProps)) return true;
      return prev.children !== nextProps.children;
    }
    override render(props: P): ComponentChildren {
      return h(render, props);
    }
  }
  (Pure as unknown as { displayName: string }).displayName = `pure(${render.name})`;
  return Pure as unknown as FunctionComponent<P>;
}
