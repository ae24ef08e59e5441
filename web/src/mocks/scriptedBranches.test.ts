import { identityOf, type Projection } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBridge, type MockBridge } from './createMockBridge';

const open: MockBridge[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((bridge) => bridge.close()));
});

function mockBridge(): MockBridge {
  const bridge = createMockBridge({ accessCode: 'any', wordDelayMs: 1 });
  open.push(bridge);
  return bridge;
}

/** Posts an action with the current identity; the status and the result or the problem's code. */
async function act(bridge: MockBridge, action: Record<string, unknown>) {
  const body = JSON.stringify({ ...action, ...identityOf(bridge.state()) });
  const response = await bridge.fetch(
    new Request('http://mock.test/api/action', {
      method: 'POST',
      headers: { Authorization: 'Bearer any', 'Content-Type': 'application/json' },
      body,
    }),
  );
  const json = (await response.json()) as { result?: Record<string, string>; code?: string };
  return { status: response.status, result: json.result ?? {}, code: json.code };
}

/** Resolves once no reply streams. */
async function idle(bridge: MockBridge): Promise<void> {
  await expect.poll(() => bridge.state().conversations.run.state).toBe('idle');
}

/** The branch shown: each message's id, text and place among its siblings. */
const shown = (state: Projection) =>
  state.conversations.messages.map((m) => [m.id, m.text, `${m.sibling.index + 1}/${m.sibling.count}`]);

describe('scriptedBranches: edit, regenerate and branch on the mock host, as the reference host does', () => {
  it('an edit is a new sibling of the user message, answered by the echo, and a new session revision', async () => {
    const bridge = mockBridge();
    const before = bridge.state().sessionRevision;
    const edited = await act(bridge, { action: 'editMessage', messageId: 'm1', text: 'Show me branches' });
    expect(edited.status).toBe(200);
    expect(bridge.state().conversations.run).toEqual({
      state: 'streaming',
      messageId: edited.result.replyId,
    });
    expect(bridge.state().sessionRevision).toBe(before + 1);
    await idle(bridge);
    expect(shown(bridge.state())).toEqual([
      [edited.result.messageId, 'Show me branches', '2/2'],
      [edited.result.replyId, 'Show me branches', '1/1'],
    ]);
    expect(bridge.state().conversations.messages[1]?.parentId).toBe(edited.result.messageId);
  });

  it('a branch switch shows the sibling’s newest deepest leaf, and back', async () => {
    const bridge = mockBridge();
    const edited = await act(bridge, { action: 'editMessage', messageId: 'm1', text: 'Other' });
    await idle(bridge);
    const revision = bridge.state().sessionRevision;
    expect(
      (await act(bridge, { action: 'branch', messageId: edited.result.messageId, index: 0 })).result,
    ).toEqual({
      messageId: 'm1',
    });
    expect(shown(bridge.state()).map(([id, , place]) => [id, place])).toEqual([
      ['m1', '1/2'],
      ['m2', '1/1'],
    ]);
    expect(bridge.state().sessionRevision).toBe(revision + 1);
    // The id switched away from still names the fork; the same branch again changes nothing.
    await act(bridge, { action: 'branch', messageId: edited.result.messageId, index: 0 });
    expect(bridge.state().sessionRevision).toBe(revision + 1);
    await act(bridge, { action: 'branch', messageId: 'm1', index: 1 });
    expect(shown(bridge.state()).map(([id]) => id)).toEqual([edited.result.messageId, edited.result.replyId]);
  });

  it('regenerate adds a reply beside the last one, echoing the message it answers', async () => {
    const bridge = mockBridge();
    const again = await act(bridge, { action: 'regenerate' });
    expect(again.status).toBe(200);
    await idle(bridge);
    expect(shown(bridge.state())).toEqual([
      ['m1', 'What can you show me?', '1/1'],
      [again.result.replyId, 'What can you show me?', '2/2'],
    ]);
    const first = await act(bridge, { action: 'branch', messageId: again.result.replyId, index: 0 });
    expect(first.result).toEqual({ messageId: 'm2' });
    expect(bridge.state().conversations.messages.at(-1)?.sibling).toEqual({ index: 0, count: 2 });
  });

  it('refuses as the reference host does: unknown ids, wrong roles, no such sibling, a streaming reply, a waiting approval', async () => {
    const bridge = mockBridge();
    const refusal = async (action: Record<string, unknown>) => {
      const { status, code } = await act(bridge, action);
      return `${status} ${code}`;
    };
    expect(await refusal({ action: 'branch', messageId: 'nope', index: 0 })).toBe('404 not_found');
    expect(await refusal({ action: 'branch', messageId: 'm1', index: 1 })).toBe('422 not_applicable');
    expect(await refusal({ action: 'editMessage', messageId: 'nope', text: 'x' })).toBe('404 not_found');
    expect(await refusal({ action: 'editMessage', messageId: 'm2', text: 'x' })).toBe('422 not_applicable');
    expect(await refusal({ action: 'editMessage', messageId: 'm1', text: '  ' })).toBe('422 not_applicable');
    expect(await refusal({ action: 'regenerate', messageId: 'nope' })).toBe('404 not_found');
    expect(await refusal({ action: 'regenerate', messageId: 'm1' })).toBe('422 not_applicable');
    await act(bridge, { action: 'send', text: 'word '.repeat(40) });
    expect(await refusal({ action: 'regenerate' })).toBe('422 not_applicable');
    await idle(bridge);
    await act(bridge, { action: 'send', text: '/approve' });
    expect(await refusal({ action: 'editMessage', messageId: 'm1', text: 'x' })).toBe('422 not_applicable');
    expect(shown(bridge.state()).map(([, , place]) => place)).toEqual(Array(6).fill('1/1'));
  });
});
