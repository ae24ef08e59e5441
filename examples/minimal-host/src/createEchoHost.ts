import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HostAttachment, HostMessage } from '@webbridge/contract';
import { CONNECTION_STRINGS, PROTOCOL_VERSION } from '@webbridge/contract';
import type { HostAdapter } from '@webbridge/server';
import { BridgeError, chatOnlyActions, createSerialQueue, MemoryConversations } from '@webbridge/server';

type Reply = { conversationId: string; messageId: string };
type Draft = Pick<HostMessage, 'role' | 'text' | 'status' | 'parentId'> & { attachments?: HostAttachment[] };
const ONLY_CHILD = { index: 0, count: 1 };

/** A new message of the conversation's one thread: no branches, so it is its parent's only child. */
function message(draft: Draft): HostMessage {
  return { attachments: [], ...draft, id: randomUUID(), createdAt: Date.now(), sibling: ONLY_CHILD };
}

/**
 * An app's own controller, in memory, behind `HostAdapter`: each reply echoes the user's text word
 * by word. Handlers run as `runOnMain` tasks and never await; the echo runs outside them and hands
 * each word back as a task of its own, so a `stop` is never stuck behind it.
 */
export function createEchoHost(wordDelayMs = 40) {
  const model = { id: 'echo', name: 'Echo', provider: 'in-memory' };
  const conversations = new MemoryConversations({ title: 'Echo', model });
  const { store } = conversations;
  const runOnMain = createSerialQueue();
  let reply: Reply | undefined; // one reply streams at a time

  /** Changes the reply (its conversation's last message); returns whether it is still streaming. */
  function updateReply(r: Reply, fields: Partial<HostMessage>) {
    const messages = conversations.messages(r.conversationId);
    const updated = messages.map((m) => (m.id === r.messageId ? { ...m, ...fields } : m));
    reply = updated.at(-1)!.status === 'streaming' ? r : undefined;
    conversations.setMessages(r.conversationId, updated, reply?.messageId ?? null);
    return reply === r;
  }
  async function echo(r: Reply, words: string[]) {
    for (let i = 1; i <= words.length; i++) {
      await sleep(wordDelayMs);
      const text = words.slice(0, i).join('');
      const status = i < words.length ? 'streaming' : 'complete';
      // A `stop` queued before this task has ended the reply: then this word and the rest are dropped.
      const goesOn = await runOnMain(() => reply === r && updateReply(r, { text, status }));
      if (!goesOn) return;
    }
  }

  return {
    readState: store.readState,
    subscribe: store.subscribe,
    runOnMain,
    actions: {
      // From the helpers: settings, the one model and project, 422 for what an echo lacks; conversations.
      ...chatOnlyActions(store),
      ...conversations.actions,
      // No identity check here: the bridge made it in this same task, and answers 409 if it moved.
      send(a) {
        if (reply) throw new BridgeError('not_applicable', 'A reply is still streaming: stop it first.');
        const { conversationId } = store.readState();
        const pending = conversations.pending(conversationId);
        const attachments = pending.filter((p) => a.attachmentIds?.includes(p.id) ?? true);
        const messages = conversations.messages(conversationId);
        const parentId = messages.at(-1)?.id ?? null;
        const user = message({ role: 'user', text: a.text, status: 'complete', parentId, attachments });
        const answer = message({ role: 'assistant', text: '', status: 'streaming', parentId: user.id });
        reply = { conversationId, messageId: answer.id };
        // The uploads that go with the message leave the conversation's pending tray.
        conversations.setMessages(conversationId, [...messages, user, answer], answer.id);
        void echo(reply, a.text.split(/(?<=\s)(?=\S)/));
        return { conversationId, messageId: user.id, replyId: answer.id };
      },
      stop() {
        if (reply?.conversationId !== store.readState().conversationId) return { stopped: false };
        updateReply(reply, { status: 'stopped' });
        return { stopped: true };
      },
    },
    addAttachment: conversations.addAttachment,
    resolveMedia: conversations.resolveMedia,
    // This app reads no folders, so no workspace URI from a browser is ever authorised (403).
    authoriseWorkspace: () => undefined,
    locale: () => ({ language: 'en', strings: CONNECTION_STRINGS, protocol: PROTOCOL_VERSION }),
    close: () => (reply = undefined),
  } satisfies HostAdapter & { close(): void };
}
