import type { Projection } from '@webbridge/contract';

/** The state half of a `HostAdapter`, kept by {@link createProjectionStore}. */
export interface ProjectionStore {
  /** The current projection: `HostAdapter.readState`. */
  readonly readState: () => Projection;
  /** `HostAdapter.subscribe`: `listener` runs after every `publish`. Returns the unsubscribe function. */
  readonly subscribe: (listener: () => void) => () => void;
  /**
   * Makes `next` the current projection and calls every listener, synchronously. Build `next`
   * from the current one (`{ ...store.readState(), conversations }`) so that unchanged parts keep
   * their identity: the bridge diffs by reference. Call it inside `runOnMain`.
   *
   * The session identity moves here: when `next` names another conversation or project than
   * the current projection, its `sessionRevision` becomes the next one (unless it already
   * carries a higher one), so a send made against the old destination is refused (409). A
   * change of destination the ids do not show (a branch switch, an edit) is the app's to count.
   */
  readonly publish: (next: Projection) => void;
}

/**
 * Holds an embedding app's projection and its listeners, and keeps the `sessionRevision` rule
 * of the contract. Spread it into the adapter for `readState` and `subscribe`.
 *
 * @example
 * ```ts
 * const store = createProjectionStore(emptyProjection({ conversation, model }));
 * const adapter: HostAdapter = { readState: store.readState, subscribe: store.subscribe, ...theRest };
 * store.publish({ ...store.readState(), settings }); // every subscriber hears of it
 * ```
 */
export function createProjectionStore(initial: Projection): ProjectionStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    readState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    publish(next) {
      const moved = next.conversationId !== state.conversationId || next.projectId !== state.projectId;
      const sessionRevision = Math.max(next.sessionRevision, state.sessionRevision + (moved ? 1 : 0));
      state = sessionRevision === next.sessionRevision ? next : { ...next, sessionRevision };
      // A copy: a listener that unsubscribes (or subscribes) while being called does not skip another.
      for (const listener of [...listeners]) listener();
    },
  };
}
