import { type ComponentType, h, type VNode } from 'preact';
import { useEffect, useReducer } from 'preact/hooks';
import { whenIdle } from './whenIdle';

/** A component whose code is in its own chunk, and the call that fetches that chunk ahead. */
export type LazyComponent<P> = ((props: P) => VNode | null) & {
  /** Fetches the chunk now (once); resolves when it has loaded. */
  readonly preload: () => Promise<ComponentType<P>>;
};

/** Every lazy component made so far: fetched once the page has painted and gone idle. */
const pending: (() => Promise<unknown>)[] = [];
let scheduled = false;

/**
 * A component loaded from its own chunk the first time it is rendered, so that the entry
 * script (compiled and run before the first paint) does not carry screens the first paint
 * does not show: the find bar, the new-conversation sheet, the settings' fields, the pairing
 * page (issue 29: the slow phone's openings spend most of their time compiling and running
 * the entry). It renders nothing until its chunk has arrived, then the component. Every lazy
 * chunk is also fetched once the page has painted and gone idle, so that a person opening one
 * of these screens seldom waits for it; the service worker keeps them (web/src/sw).
 *
 * @example
 * ```ts
 * const FindBar = lazyComponent(() => import('./FindBar').then((m) => m.FindBar));
 * ```
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  let loaded: ComponentType<P> | null = null;
  const preload = () => {
    loading ??= load().then((component) => {
      loaded = component;
      return component;
    });
    return loading;
  };
  function Lazy(props: P): VNode | null {
    const [, arrived] = useReducer((n: number) => n + 1, 0);
    useEffect(() => {
      if (loaded) return;
      let live = true;
      void preload().then(() => live && arrived(0));
      return () => {
        live = false;
      };
    }, []);
    // preact's `h` types its props through Attributes; the props are the component's own.
    return loaded ? (h as (type: ComponentType<P>, props: P) => VNode)(loaded, props) : null;
  }
  pending.push(preload);
  scheduleIdlePreload();
  return Object.assign(Lazy, { preload });
}

/** After the first paint and an idle moment: the lazy chunks, one after another. */
function scheduleIdlePreload(): void {
  if (scheduled || typeof window === 'undefined') return;
  scheduled = true;
  // Not in a page that has gone (a test's DOM torn down while the chain still ran).
  const later = () =>
    typeof requestAnimationFrame === 'function' &&
    requestAnimationFrame(() =>
      whenIdle(() => {
        const next = pending.shift();
        if (!next) {
          scheduled = false;
          return;
        }
        void next()
          .catch(() => {})
          .finally(later);
      }, 3000),
    );
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
