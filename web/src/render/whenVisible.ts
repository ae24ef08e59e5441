/** What each watched element runs once it comes near the screen. */
const waiting = new Map<Element, () => void>();
let observer: IntersectionObserver | null = null;

function shared(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const task = waiting.get(entry.target);
        waiting.delete(entry.target);
        observer?.unobserve(entry.target);
        task?.();
      }
    },
    // A screen ahead, so what scrolls in is ready by the time it is seen.
    { rootMargin: '100% 0px' },
  );
  return observer;
}

/**
 * Runs `task` once, when `element` is within a screen of the viewport (at once where
 * IntersectionObserver is missing). One observer serves every element. Returns the function
 * that cancels it.
 *
 * @example
 * ```ts
 * useEffect(() => whenVisible(pre.current, highlightIt), [code]);
 * ```
 */
export function whenVisible(element: Element, task: () => void): () => void {
  if (typeof IntersectionObserver !== 'function') {
    task();
    return () => {};
  }
  waiting.set(element, task);
  shared().observe(element);
  return () => {
    if (waiting.delete(element)) observer?.unobserve(element);
  };
}
