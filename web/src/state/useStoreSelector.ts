import type { Store, StoreState } from '@webbridge/client-sdk';
import { useEffect, useReducer, useRef } from 'preact/hooks';
import { createFrameBatch, type FrameBatch } from '../render/frameBatch';
import { shallowEqual } from './shallowEqual';

/** One batch for the whole page: every component's check runs in the same frame, one render. */
let pageBatch: FrameBatch | undefined;

/**
 * The part of the store's state a component shows, re-rendering it only when that part
 * changed (by `equal`, a shallow compare by default). The store keeps unchanged parts of the
 * state by identity, so a streamed word changes the message list and nothing a sidebar or a
 * composer selects. Changes are checked at most once per animation frame (see
 * {@link createFrameBatch}): several stream events within a frame cause one render; a hidden
 * page is checked at once.
 *
 * `select` may be a new function on every render; it should be cheap and pure.
 *
 * @example
 * ```tsx
 * const status = useStoreSelector(session.store, (state) => state.status);
 * const { run, approvals } = useStoreSelector(session.store, (state) => ({
 *   run: state.snapshot?.conversations.run,
 *   approvals: state.snapshot?.approvals,
 * }));
 * ```
 */
export function useStoreSelector<T>(
  store: Store,
  select: (state: StoreState) => T,
  equal: (a: T, b: T) => boolean = shallowEqual,
): T {
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const chosen = useRef({ select, equal });
  chosen.current = { select, equal };
  const shown = useRef<{ value: T } | null>(null);
  const fresh = select(store.getState());
  // An equal selection keeps its identity, so what is passed on from it stays the same too.
  const value = shown.current !== null && equal(shown.current.value, fresh) ? shown.current.value : fresh;
  shown.current = { value };

  useEffect(() => {
    const check = () => {
      const next = chosen.current.select(store.getState());
      if (shown.current === null || !chosen.current.equal(shown.current.value, next)) rerender(undefined);
    };
    pageBatch ??= createFrameBatch();
    const batch = pageBatch;
    const unsubscribe = store.subscribe(() => batch.schedule(check));
    // A change between this render and the subscription would otherwise wait for the next one.
    check();
    return () => {
      unsubscribe();
      batch.cancel(check);
    };
  }, [store]);
  return value;
}
