import { aConversationSummary } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { chatOnlyActions } from './chatOnlyActions';
import { codeOf } from './codeOf.testing';
import { createProjectionStore } from './createProjectionStore';
import { emptyProjection } from './emptyProjection';

const conversation = aConversationSummary({ projectId: 'main' });
const model = { id: 'echo', name: 'Echo', provider: 'test' };
const guard = { sessionRevision: 0, conversationId: 'c1', projectId: 'main' };

function setup() {
  const store = createProjectionStore(emptyProjection({ conversation, model }));
  return { store, actions: chatOnlyActions(store) };
}

describe('chatOnlyActions', () => {
  it('merges settings into the projection and publishes them', () => {
    const { store, actions } = setup();
    let heard = 0;
    store.subscribe(() => heard++);
    const { settings } = actions.updateSettings({ action: 'updateSettings', settings: { theme: 'dark' } });
    expect(settings).toEqual({ ...emptyProjection({ conversation, model }).settings, theme: 'dark' });
    expect(store.readState().settings).toEqual(settings);
    expect(heard).toBe(1);
  });

  it('accepts the listed model and the current project, and nothing else', () => {
    const { store, actions } = setup();
    const before = store.readState();
    expect(actions.model({ action: 'model', modelId: 'echo', ...guard })).toEqual({ modelId: 'echo' });
    expect(store.readState()).toBe(before); // nothing changed, nothing published
    expect(codeOf(() => actions.model({ action: 'model', modelId: 'gpt', ...guard }))).toBe('not_found');
    expect(actions.selectProject({ action: 'selectProject', projectId: 'main' })).toEqual({
      projectId: 'main',
    });
    expect(codeOf(() => actions.selectProject({ action: 'selectProject', projectId: 'other' }))).toBe(
      'not_found',
    );
  });

  it('has no approval to give, and refuses what needs tools, branches or folders (422)', () => {
    const { actions } = setup();
    expect(codeOf(() => actions.approve({ action: 'approve', approvalId: 'a1', decision: 'allow' }))).toBe(
      'not_found',
    );
    const refused = [
      () => actions.workspace({ action: 'workspace', uri: 'file:///tmp', ...guard }),
      () => actions.continue({ action: 'continue', ...guard }),
      () => actions.branch({ action: 'branch', messageId: 'm1', index: 0, ...guard }),
      () => actions.editMessage({ action: 'editMessage', messageId: 'm1', text: 'x', ...guard }),
      () => actions.regenerate({ action: 'regenerate', messageId: 'm1', ...guard }),
    ];
    expect(refused.map(codeOf)).toEqual(Array(5).fill('not_applicable'));
  });
});
