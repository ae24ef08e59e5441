import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConversationSummary, HostAttachment, HostMessage } from '@webbridge/contract';
import { CONNECTION_STRINGS, PROTOCOL_VERSION } from '@webbridge/contract';
import type { HostAdapter } from '@webbridge/server';
import {
  AttachmentFiles,
  BridgeError,
  chatOnlyActions,
  createProjectionStore,
  createSerialQueue,
  emptyProjection,
} from '@webbridge/server';

type Chat = { messages: HostMessage[]; pending: HostAttachment[] };
const fail = (code: 'not_found' | 'not_applicable', detail: string): never => {
  throw new BridgeError(code, detail);
};
/** A new message of the conversation's one thread: no branches, so no message has siblings. */
const message = (fields: Pick<HostMessage, 'role' | 'text' | 'status' | 'parentId' | 'attachments'>) => {
  const identity = { id: randomUUID(), createdAt: Date.now() };
  return { ...fields, ...identity, sibling: { index: 0, count: 1 } };
};

/**
 * An app's own controller, in memory, behind `HostAdapter`: each reply echoes the user's text word
 * by word. Handlers run as `runOnMain` tasks and never await; the echo runs outside them and hands
 * each word back as a task of its own, so a `stop` is never stuck behind it.
 */
export function createEchoHost(wordDelayMs = 40) {
  const chats = new Map<string, Chat>();
  const files = new AttachmentFiles();
  const runOnMain = createSerialQueue();
  let reply: { chatId: string; messageId: string } | undefined; // one reply streams at a time
  function newChat(title = 'New conversation'): ConversationSummary {
    const id = randomUUID();
    chats.set(id, { messages: [], pending: [] });
    return { id, title, projectId: 'main', createdAt: Date.now() };
  }
  const model = { id: 'echo', name: 'Echo', provider: 'in-memory' };
  const store = createProjectionStore(emptyProjection({ conversation: newChat('Echo'), model }));
  const state = store.readState;
  const chat = (id = state().conversationId) => chats.get(id) ?? fail('not_found', 'No such conversation.');

  /** Shows a conversation (default: the current one) as it is now; the rest keeps its identity. */
  function publish(conversationId = state().conversationId, list = state().conversations.list) {
    const { messages, pending } = chat(conversationId);
    const messageId = reply?.chatId === conversationId ? reply.messageId : null;
    const run = { state: messageId ? 'streaming' : 'idle', messageId } as const;
    store.publish({ ...state(), conversationId, conversations: { list, messages, pending, run } });
    return { conversationId };
  }
  /** Changes the reply, the last message of its conversation; the messages before it stay as they are. */
  function updateReply(r: NonNullable<typeof reply>, change: (m: HostMessage) => Partial<HostMessage>) {
    const c = chat(r.chatId);
    c.messages = c.messages.map((m) => (m.id === r.messageId ? { ...m, ...change(m) } : m));
    if (c.messages.at(-1)!.status !== 'streaming') reply = undefined;
    publish();
  }
  async function echo(r: NonNullable<typeof reply>, words: string[]) {
    for (const [i, word] of words.entries()) {
      await sleep(wordDelayMs);
      const status = i < words.length - 1 ? 'streaming' : 'complete';
      // A `stop` that ran before this task ended the reply: then the word is dropped, and the rest.
      const added = await runOnMain(
        () => reply === r && updateReply(r, (m) => ({ text: m.text + word, status })),
      );
      if (added === false) return;
    }
  }

  return {
    readState: state,
    subscribe: store.subscribe,
    runOnMain,
    actions: {
      // Settings, renaming, the one model and project, and refusals of what an echo does not do.
      ...chatOnlyActions(store),
      send(a) {
        if (reply) fail('not_applicable', 'A reply is still streaming: stop it first.');
        const c = chat();
        const attachments = c.pending.filter((p) => a.attachmentIds?.includes(p.id) ?? true);
        const parentId = c.messages.at(-1)?.id ?? null;
        const user = message({ role: 'user', text: a.text, status: 'complete', parentId, attachments });
        const answer = message({
          role: 'assistant',
          text: '',
          status: 'streaming',
          parentId: user.id,
          attachments: [],
        });
        c.messages = [...c.messages, user, answer];
        c.pending = c.pending.filter((p) => !attachments.includes(p));
        reply = { chatId: state().conversationId, messageId: answer.id };
        void echo(reply, a.text.split(/(?<=\s)(?=\S)/));
        publish();
        return { conversationId: reply.chatId, messageId: user.id, replyId: answer.id };
      },
      stop() {
        if (reply?.chatId !== state().conversationId) return { stopped: false };
        updateReply(reply, () => ({ status: 'stopped' }));
        return { stopped: true };
      },
      newConversation(a) {
        if ((a.projectId ?? 'main') !== 'main') return fail('not_found', 'No such project.');
        const summary = newChat(a.title);
        return publish(summary.id, [...state().conversations.list, summary]);
      },
      selectConversation: (a) => publish(a.conversationId),
      deleteConversation({ conversationId }) {
        const { messages, pending } = chat(conversationId);
        if (reply?.chatId === conversationId) reply = undefined;
        for (const { id } of [...pending, ...messages.flatMap((m) => m.attachments)]) files.delete(id);
        chats.delete(conversationId);
        const list = state().conversations.list.filter((s) => s.id !== conversationId);
        if (list.length === 0) list.push(newChat());
        publish(chats.has(state().conversationId) ? state().conversationId : list[0]!.id, list);
        return { conversationId };
      },
      removeAttachment({ attachmentId }) {
        const c = [...chats.values()].find((x) => x.pending.some((p) => p.id === attachmentId));
        if (!c) return fail('not_found', 'No such attachment.');
        c.pending = c.pending.filter((p) => p.id !== attachmentId);
        files.delete(attachmentId);
        publish();
        return { attachmentId };
      },
    },
    addAttachment(upload) {
      const c = chat(upload.conversationId);
      const attachment = files.add(upload);
      c.pending = [...c.pending, attachment];
      publish();
      return attachment;
    },
    resolveMedia: files.resolveMedia,
    // This app reads no folders, so no workspace URI from a browser is ever authorised (403).
    authoriseWorkspace: () => undefined,
    locale: () => ({ language: 'en', strings: CONNECTION_STRINGS, protocol: PROTOCOL_VERSION }),
    close: () => (reply = undefined),
  } satisfies HostAdapter & { close(): void };
}
