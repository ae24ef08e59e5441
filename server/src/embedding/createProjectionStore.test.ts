import { aConversationSummary } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { createProjectionStore } from './createProjectionStore';
import { emptyProjection } from './emptyProjection';

const conversation = aConversationSummary({ projectId: 'main' });
const model = { id: 'echo', name: 'Echo', provider: 'test' };

describe('createProjectionStore', () => {
  it('tells every listener of each publish, until it unsubscribes', () => {
    const store = createProjectionStore(emptyProjection({ conversation, model }));
    const heard: string[] = [];
    const stopA = store.subscribe(() => heard.push(`a:${store.readState().settings.theme}`));
    store.subscribe(() => heard.push(`b:${store.readState().settings.theme}`));
    store.publish({ ...store.readState(), settings: { ...store.readState().settings, theme: 'dark' } });
    stopA();
    store.publish({ ...store.readState(), settings: { ...store.readState().settings, theme: 'light' } });
    expect(heard).toEqual(['a:dark', 'b:dark', 'b:light']);
  });

  it('keeps the sessionRevision while the destination stays, and moves it when it changes', () => {
    const store = createProjectionStore(emptyProjection({ conversation, model }));
    const first = store.readState();
    store.publish({ ...first, models: { ...first.models } });
    expect(store.readState().sessionRevision).toBe(0);
    store.publish({ ...store.readState(), conversationId: 'c2' });
    expect(store.readState().sessionRevision).toBe(1);
    store.publish({ ...store.readState(), projectId: 'other' });
    expect(store.readState().sessionRevision).toBe(2);
    // An app that counts itself (a branch switch) keeps its higher number.
    store.publish({ ...store.readState(), sessionRevision: 7 });
    expect(store.readState().sessionRevision).toBe(7);
    expect(store.readState().instanceId).toBe(first.instanceId);
  });

  it('stores the very object it was given when it changes nothing in it', () => {
    const store = createProjectionStore(emptyProjection({ conversation, model }));
    const next = { ...store.readState() };
    store.publish(next);
    expect(store.readState()).toBe(next);
  });
});
