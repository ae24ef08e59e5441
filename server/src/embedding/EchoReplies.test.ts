import { describe, expect, it } from 'vitest';
import { codeOf } from './codeOf.testing';
import { createSerialQueue } from './createSerialQueue';
import { EchoReplies } from './EchoReplies';
import { MemoryConversations } from './MemoryConversations';

function setup() {
  const conversations = new MemoryConversations({ model: { id: 'echo', name: 'Echo', provider: 'test' } });
  const runOnMain = createSerialQueue();
  const replies = new EchoReplies(conversations, runOnMain, 1);
  const current = () => conversations.store.readState().conversations;
  return { replies, current };
}

const guard = { sessionRevision: 0, conversationId: 'c', projectId: 'main' };

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(check()).toBe(true);
}

describe('EchoReplies', () => {
  it('echoes a sent text word by word, then completes and goes idle', async () => {
    const { replies, current } = setup();
    const lengths = new Set<number>();
    replies.actions.send({ action: 'send', text: 'one two three', ...guard });
    expect(current().run.state).toBe('streaming');
    await until(() => {
      lengths.add(current().messages.at(-1)!.text.length);
      return current().run.state === 'idle';
    });
    expect(current().messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ['user', 'one two three', 'complete'],
      ['assistant', 'one two three', 'complete'],
    ]);
    expect(lengths.size).toBeGreaterThanOrEqual(2);
  });

  it('refuses a second send while one streams, and stops the reply', async () => {
    const { replies, current } = setup();
    replies.actions.send({ action: 'send', text: 'w '.repeat(200), ...guard });
    expect(codeOf(() => replies.actions.send({ action: 'send', text: 'again', ...guard }))).toBe(
      'not_applicable',
    );
    expect(replies.actions.stop({ action: 'stop', ...guard })).toEqual({ stopped: true });
    expect(current().messages.at(-1)?.status).toBe('stopped');
    expect(current().run.state).toBe('idle');
    expect(replies.actions.stop({ action: 'stop', ...guard })).toEqual({ stopped: false });
  });
});
