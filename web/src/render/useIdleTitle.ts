import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { whenIdle } from './whenIdle';

/**
 * A tooltip the first paint does not need (a date), written on the element once the page is
 * idle, and again, when idle, whenever `deps` change (another language). The first date or
 * number formatted on a page makes its Intl formatter, which costs the locale's data (~0.1 s
 * of a slow phone's opening each, issue 29). Written on the element, not rendered: the
 * component does not render again for it (a streamed word renders only the message list).
 *
 * @example
 * ```tsx
 * const role = useIdleTitle<HTMLSpanElement>(() => format.dateTime(createdAt), [format, createdAt]);
 * return <span ref={role}>You</span>;
 * ```
 */
export function useIdleTitle<E extends Element>(make: () => string, deps: readonly unknown[]): RefObject<E> {
  const element = useRef<E>(null);
  useEffect(
    () =>
      whenIdle(() => {
        element.current?.setAttribute('title', make());
      }, 1000),
    deps,
  );
  return element;
}
