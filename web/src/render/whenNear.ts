/** One observer per scrolling element, each with the tasks of the elements it watches. */
const observers = new WeakMap<Element, { observer: IntersectionObserver; tasks: Map<Element, () => void> }>();

function observerOf(root: Element) {
  let entry = observers.get(root);
  if (!entry) {
    const tasks = new Map<Element, () => void>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const { isIntersecting, target } of entries) {
          if (!isIntersecting) continue;
          const task = tasks.get(target);
          tasks.delete(target);
          observer.unobserve(target);
          task?.();
        }
      },
      // A screen above and below: what scrolls in is drawn before it is seen.
      { root, rootMargin: '100% 0px' },
    );
    entry = { observer, tasks };
    observers.set(root, entry);
  }
  return entry;
}

/**
 * Runs `task` once, when `element` comes within a screen of what `root` (the element that
 * scrolls it) shows; at once without IntersectionObserver. Unlike an observer of the viewport,
 * whose margin stops at every scrolling ancestor's edge, this one sees ahead inside the
 * scrolling element. Returns the function that cancels it.
 *
 * @example
 * ```ts
 * useEffect(() => whenNear(li.current, li.current.closest('.messages'), drawInFull), []);
 * ```
 */
export function whenNear(element: Element, root: Element | null, task: () => void): () => void {
  if (typeof IntersectionObserver !== 'function' || !root) {
    task();
    return () => {};
  }
  const { observer, tasks } = observerOf(root);
  tasks.set(element, task);
  observer.observe(element);
  return () => {
    if (tasks.delete(element)) observer.unobserve(element);
  };
}
