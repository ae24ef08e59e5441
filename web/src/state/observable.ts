/** A value that can be read, replaced and watched: the page's own small stores. */
export interface Observable<T> {
  get(): T;
  set(next: T): void;
  /** Calls `listener` after each change; returns the function that removes it. */
  subscribe(listener: (value: T) => void): () => void;
}

/**
 * Creates an {@link Observable}. Setting the same value (by identity) notifies nobody.
 *
 * @example
 * ```ts
 * const notice = observable<string | null>(null);
 * notice.subscribe((text) => console.log(text));
 * notice.set('Saved');
 * ```
 */
export function observable<T>(initial: T): Observable<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener(next);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
