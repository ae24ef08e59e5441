import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type PartialKeys,
  type Rect,
  Virtualizer,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

/** Options of {@link useVirtualizer}: TanStack Virtual's, with an element that scrolls. */
export type UseVirtualizerOptions<S extends Element, I extends Element> = PartialKeys<
  VirtualizerOptions<S, I>,
  'observeElementRect' | 'observeElementOffset' | 'scrollToFn'
>;

/**
 * A scroller that has no size yet (not laid out: a test's DOM without layout, or a page
 * opened hidden) counts as one screen of the window, so the latest messages are drawn at
 * once instead of none.
 */
function observeRectOrScreen<S extends Element, I extends Element>(
  instance: Virtualizer<S, I>,
  cb: (rect: Rect) => void,
): (() => void) | undefined {
  return observeElementRect(instance, (rect) =>
    cb(rect.height > 0 ? rect : { width: rect.width || innerWidth, height: innerHeight || 800 }),
  );
}

/**
 * TanStack Virtual's virtualizer for a Preact component (what its React adapter does, without
 * preact/compat): created once, given the latest options on every render, and the component
 * renders again whenever the range or a measured size changes.
 *
 * @example
 * ```tsx
 * const list = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => 80 });
 * list.getVirtualItems().map((item) => <li key={item.key} data-index={item.index} ref={list.measureElement} />);
 * ```
 */
export function useVirtualizer<S extends Element, I extends Element>(
  options: UseVirtualizerOptions<S, I>,
): Virtualizer<S, I> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const resolved: VirtualizerOptions<S, I> = {
    observeElementRect: observeRectOrScreen,
    observeElementOffset,
    scrollToFn: elementScroll,
    ...options,
    onChange: (instance, sync) => {
      rerender(0);
      options.onChange?.(instance, sync);
    },
  };
  const [instance] = useState(() => new Virtualizer<S, I>(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), []);
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
