/**
 * Runs `task` when the browser is idle (after it has painted and handled input), or after
 * `timeoutMs` at the latest; setTimeout where requestIdleCallback is missing (Safari).
 * Returns the function that cancels it.
 *
 * @example
 * ```ts
 * useEffect(() => whenIdle(() => renderMore()), [rendered]);
 * ```
 */
export function whenIdle(task: () => void, timeoutMs = 100): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, 16);
  return () => clearTimeout(id);
}
