import type { Message } from '@webbridge/contract';
import type { MockStore } from './mockStore';

/** An empty streaming assistant reply to `user`. */
export function mockReplyTo(store: MockStore, user: Message): Message {
  return store.message('assistant', '', 'streaming', {
    parentId: user.id,
    model: store.state().models.current,
  });
}

/** The text the mock assistant answers `user` with: an echo. */
export function mockEchoOf(user: Message): string {
  return user.text.trim() === '/switch'
    ? 'OK: your next send will find the host in another conversation.'
    : user.text || `Received ${user.attachments.map((a) => a.name).join(', ')}`;
}

/**
 * Streams `reply` towards `target` word by word as appends, then completes it; a `/tool name
 * {json}` target asks for an approval instead.
 */
export function streamMockReply(store: MockStore, reply: Message, target: string, wordDelay: number): void {
  store.cancel();
  const tool = /^\/tool\s+(\S+)\s*([\s\S]*)$/.exec(target.trim());
  if (tool && reply.text === '') {
    store.schedule(() => {
      const approvalId = store.nextId('apr');
      const args = tool[2]?.trim() || '{}';
      const name = tool[1] ?? 'tool';
      store.delta({
        put: [{ ...reply, status: 'waiting', tool: { name, args, approvalId } }],
        approvals: [
          ...store.state().approvals,
          {
            id: approvalId,
            tool: name,
            summary: `${name} ${args}`,
            args,
            conversationId: store.state().conversationId,
            messageId: reply.id,
            createdAt: Date.now(),
          },
        ],
        run: { state: 'waiting_approval', messageId: reply.id },
      });
    }, wordDelay * 3);
    return;
  }
  const words = target.slice(reply.text.length).match(/\S+\s*|\s+/g) ?? [];
  const step = () => {
    const current = store.messages().find((m) => m.id === reply.id);
    if (!current) return;
    const word = words.shift();
    if (word === undefined) {
      store.delta({ put: [{ ...current, status: 'complete' }], run: { state: 'idle', messageId: null } });
      return;
    }
    store.delta({ ap: [[reply.id, current.text.length, word]] });
    store.schedule(step, wordDelay);
  };
  store.schedule(step, wordDelay);
}
