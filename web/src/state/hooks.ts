import type { Store, StoreState } from '@webbridge/client-sdk';
import { useEffect, useState } from 'preact/hooks';
import type { Observable } from './observable';

/**
 * The SDK store's state, re-rendering the component on every change.
 *
 * @example
 * ```tsx
 * const { snapshot, status } = useStoreState(session.store);
 * ```
 */
export function useStoreState(store: Store): StoreState {
  const [state, setState] = useState(store.getState);
  useEffect(() => {
    setState(store.getState());
    return store.subscribe((next) => setState(next));
  }, [store]);
  return state;
}

/** The current value of an {@link Observable}, re-rendering the component when it changes. */
export function useObservable<T>(source: Observable<T>): T {
  const [value, setValue] = useState(source.get);
  useEffect(() => {
    setValue(() => source.get());
    return source.subscribe((next) => setValue(() => next));
  }, [source]);
  return value;
}
