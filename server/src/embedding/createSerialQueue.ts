/**
 * A serial executor for `HostAdapter.runOnMain`, for an app that has no main thread of its own
 * (a plain Node process): each task starts after the previous one has settled and runs to its
 * end, since tasks never await. A throwing task rejects its own promise only; the queue goes on.
 *
 * An app that already has a main thread (Electron's main process, a phone app's JS runtime, an
 * actor) posts to it instead.
 *
 * @example
 * ```ts
 * const runOnMain = createSerialQueue();
 * const adapter: HostAdapter = { runOnMain, ...theRest };
 * ```
 */
export function createSerialQueue(): <T>(task: () => T) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => T): Promise<T> => {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
}
