import type { Approval } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/testController';
import { HostStore } from './HostStore';
import { openDatabase } from './openDatabase';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const close of cleanup.splice(0)) close();
});

/** A store with a built-in conversation `c` and an agent's conversation `a`, a message in each. */
function setUp() {
  const store = new HostStore(openDatabase(tempDir()));
  cleanup.push(() => store.close());
  store.projects.insert({ id: 'p', name: 'P', workspacePath: '/tmp', createdAt: 0 });
  for (const [id, agentId] of [
    ['c', null],
    ['a', 'opencode'],
  ] as const) {
    store.conversations.insert({
      id,
      projectId: 'p',
      title: '',
      createdAt: 0,
      currentLeafId: null,
      modelId: null,
      agentId,
      agentSessionId: null,
      agentUnavailable: null,
    });
    store.messages.insert({
      id: `m-${id}`,
      conversationId: id,
      parentId: null,
      role: 'assistant',
      text: '',
      status: 'waiting',
      createdAt: 0,
    });
  }
  return store;
}

const asked = (id: string, conversationId: string, extra: Partial<Approval> = {}): Approval => ({
  id,
  tool: 'write_file',
  summary: 'Write a.md',
  args: '{"path":"a.md"}',
  conversationId,
  messageId: `m-${conversationId}`,
  createdAt: 5,
  ...extra,
});

describe('ApprovalTable', () => {
  it("keeps an agent's options and the diffs, and shows a pending approval as the contract's approval", () => {
    const store = setUp();
    const options: Approval['options'] = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }];
    const diffs: Approval['diffs'] = [{ path: '/tmp/a.md', oldText: null, newText: 'hi' }];
    store.approvals.insertPending(asked('q', 'a', { options, diffs }));
    store.approvals.insertPending(asked('t', 'c'));
    expect(store.approvals.pending()).toEqual([asked('q', 'a', { options, diffs }), asked('t', 'c')]);
    expect(store.approvals.get('q')).toEqual({ ...asked('q', 'a', { options, diffs }), status: 'pending' });
    // A host tool's call has no options: that is how an answer tells the two apart.
    expect(store.approvals.get('t')).not.toHaveProperty('options');
  });

  it('records who answered, and shows it as the decision', () => {
    const store = setUp();
    store.approvals.insertPending(asked('t', 'c'));
    store.approvals.decide('t', 'denied', { kind: 'device', name: 'Pixel 7', deviceId: 'd1' }, 42);
    const decided = { decision: 'deny', by: { kind: 'device', name: 'Pixel 7' }, at: 42 };
    expect(store.approvals.get('t')).toMatchObject({ status: 'denied', decided });
    expect(store.approvals.pending()).toEqual([]);
    expect(store.approvals.decisionsOf('c')).toEqual(new Map([['t', decided]]));
  });

  it('shows an approval answered before deciders were recorded as the host’s, at its creation', () => {
    const store = setUp();
    store.approvals.insertPending(asked('t', 'c'));
    store.db.prepare(`UPDATE approvals SET status = 'allowed' WHERE id = 't'`).run();
    expect(store.approvals.get('t')?.decided).toEqual({ decision: 'allow', by: { kind: 'host' }, at: 5 });
  });

  it('cancels one approval, or every pending question of an agent (a restart), never a host tool’s call', () => {
    const store = setUp();
    store.approvals.insertPending(asked('q', 'a', { options: [] }));
    store.approvals.insertPending(asked('t', 'c'));
    expect(store.approvals.cancelAgentQuestions()).toBe(1);
    expect(store.approvals.get('q')).toMatchObject({ status: 'cancelled' });
    expect(store.approvals.get('q')).not.toHaveProperty('decided');
    store.approvals.cancel('t');
    expect(store.approvals.get('t')?.status).toBe('cancelled');
    expect(store.approvals.decisionsOf('c').size).toBe(0);
  });
});
