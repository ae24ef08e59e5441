/**
 * Keeps the worker alive for `work`. A synthetic event (one a test dispatches) cannot be
 * extended, and says so by throwing; the work runs all the same.
 */
export function keepAlive<T>(event: ExtendableEvent, work: Promise<T>): Promise<T> {
  try {
    event.waitUntil(work);
  } catch {
    // Not dispatched by the browser.
  }
  return work;
}
