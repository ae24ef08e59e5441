import { useEffect, useState } from 'preact/hooks';
import type { Observable } from './observable';

/** The current value of an {@link Observable}, re-rendering the component when it changes. */
export function useObservable<T>(source: Observable<T>): T {
  const [value, setValue] = useState(source.get);
  useEffect(() => {
    setValue(() => source.get());
    return source.subscribe((next) => setValue(() => next));
  }, [source]);
  return value;
}
