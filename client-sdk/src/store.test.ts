import { describe, expect, it } from 'vitest';
import { createStore, type StoreState } from './store';
import { delta, message, snapshot, snapshotEvent } from './testing/fixtures';

describe('createStore', () => {
  it('notifies listeners with the new and previous state until they unsubscribe', () => {
    const store = createStore();
    const calls: [StoreState, StoreState][] = [];
    const unsubscribe = store.subscribe((state, previous) => calls.push([state, previous]));
    const before = store.getState();
    store.apply(snapshotEvent(1, snapshot([message('a')])));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[1]).toBe(before);
    expect(calls[0]?.[0]).toBe(store.getState());
    expect(store.getState().sync?.seq).toBe(1);
    unsubscribe();
    store.setStatus('live');
    expect(calls).toHaveLength(1);
    expect(store.getState().status).toBe('live');
  });

  it('on resync drops the cursor but keeps the snapshot on screen', () => {
    const store = createStore();
    store.apply(snapshotEvent(1, snapshot([message('a')])));
    const shown = store.getState().snapshot;
    expect(store.apply(delta(7)).kind).toBe('resync');
    expect(store.getState().sync).toBeNull();
    expect(store.getState().snapshot).toBe(shown);
  });

  it('does not notify when nothing changes', () => {
    const store = createStore();
    let calls = 0;
    store.subscribe(() => calls++);
    store.setStatus('connecting');
    store.dropSync();
    expect(calls).toBe(0);
    store.requireReload();
    store.requireReload();
    expect(calls).toBe(1);
    expect(store.getState().reloadRequired).toBe(true);
  });
});
