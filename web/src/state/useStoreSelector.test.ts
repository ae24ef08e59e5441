// @vitest-environment happy-dom
import { createStore, type StoreState, type WritableStore } from '@webbridge/client-sdk';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useStoreSelector } from './useStoreSelector';

/** Frames run only when the test draws one. */
function holdFrames() {
  const frames: (() => void)[] = [];
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
    frames.push(() => callback(performance.now()));
    return frames.length;
  });
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {});
  return () =>
    act(() => {
      for (const frame of frames.splice(0)) frame();
    });
}

const aTask = () => act(async () => await new Promise((r) => setTimeout(r, 0)));

describe('useStoreSelector', () => {
  let root: HTMLElement;
  let store: WritableStore;
  let renders: string[];

  /** Shows what `select` picks, and counts its renders. */
  const mount = (select: (state: StoreState) => unknown) => {
    function Shows() {
      const value = useStoreSelector(store, select);
      renders.push(JSON.stringify(value));
      return h('p', null, JSON.stringify(value));
    }
    return act(() => render(h(Shows, {}), root));
  };

  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
    store = createStore();
    renders = [];
  });
  afterEach(() => {
    render(null, root);
    root.remove();
    vi.restoreAllMocks();
  });

  it('re-renders a component only when the part it selects changes', async () => {
    const frame = holdFrames();
    await mount((state) => ({ status: state.status, reload: state.reloadRequired }));
    expect(renders).toHaveLength(1);
    // Changes to other parts: a new state each time, the same selection.
    store.setStatus('connecting', 5);
    store.putPending({
      actionId: 'a',
      action: { action: 'stop', sessionRevision: 1, conversationId: 'c', projectId: 'p' },
      since: 1,
      attempts: 1,
    });
    await frame();
    await aTask();
    expect(renders).toHaveLength(1);
    store.setStatus('live');
    await frame();
    expect(renders).toEqual(['{"status":"connecting","reload":false}', '{"status":"live","reload":false}']);
    expect(root.textContent).toBe('{"status":"live","reload":false}');
  });

  it('renders the changes of several tasks within one frame once, with the latest state', async () => {
    const frame = holdFrames();
    await mount((state) => state.lastCurrentAt);
    for (const at of [1, 2, 3]) {
      store.setStatus('reconnecting', at);
      await aTask(); // stream events arrive in separate network reads
    }
    expect(renders).toEqual(['null']);
    await frame();
    expect(renders).toEqual(['null', '3']);
  });

  it('renders on a hidden page, where no frame comes', async () => {
    holdFrames(); // never drawn
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    await mount((state) => state.status);
    store.setStatus('live');
    await aTask();
    expect(renders).toEqual(['"connecting"', '"live"']);
    expect(root.textContent).toBe('"live"');
  });

  it('shows a change made between its first render and its subscription', async () => {
    holdFrames();
    function Shows() {
      const status = useStoreSelector(store, (state) => state.status);
      renders.push(status);
      return null;
    }
    await act(() => {
      render(h(Shows, {}), root);
      // Before effects run: the subscription is not there yet.
      store.setStatus('offline');
    });
    expect(renders.at(-1)).toBe('offline');
  });
});
