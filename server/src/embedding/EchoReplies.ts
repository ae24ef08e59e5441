import { type HostAttachment, type HostMessage, ProtocolError } from '@webbridge/contract';
import type { HostActionHandlers } from '../HostAdapter';
import type { MemoryConversations } from './MemoryConversations';

type Reply = { readonly conversationId: string; readonly messageId: string };
type Draft = Pick<HostMessage, 'role' | 'text' | 'status' | 'parentId'> & { attachments?: HostAttachment[] };
const ONLY_CHILD = { index: 0, count: 1 };

/** A new message of the conversation's one thread: no branches, so it is its parent's only child. */
function message(draft: Draft): HostMessage {
  return { attachments: [], ...draft, id: crypto.randomUUID(), createdAt: Date.now(), sibling: ONLY_CHILD };
}

/**
 * `send` and `stop` for an app whose replies echo the user's text word by word, over
 * {@link MemoryConversations}: the smallest model there is, for a demo, a test, or the web
 * client's dev mocks. The handlers run as `runOnMain` tasks and never await; the echo runs
 * outside them and hands each word back as a task of its own, so a `stop` is never stuck
 * behind it. One reply streams at a time. An app with a real model writes these two handlers
 * over its own model the same way.
 *
 * @example
 * ```ts
 * const replies = new EchoReplies(conversations, runOnMain, 40);
 * actions: { ...chatOnlyActions(store), ...conversations.actions, ...replies.actions },
 * ```
 */
export class EchoReplies {
  private reply: Reply | undefined;
  /** The `send` and `stop` handlers, to spread into the adapter's `actions`. */
  readonly actions: Pick<HostActionHandlers, 'send' | 'stop'>;

  constructor(
    private readonly conversations: MemoryConversations,
    private readonly runOnMain: <T>(task: () => T) => Promise<T>,
    /** The pause before each word. */
    private readonly wordDelayMs = 40,
  ) {
    const state = conversations.store.readState;
    this.actions = {
      // No identity check here: the bridge made it in this same task, and answers 409 if it moved.
      send: (a) => {
        if (this.reply)
          throw new ProtocolError('not_applicable', 'A reply is still streaming: stop it first.');
        const { conversationId } = state();
        const pending = conversations.pending(conversationId);
        const attachments = pending.filter((p) => a.attachmentIds?.includes(p.id) ?? true);
        const messages = conversations.messages(conversationId);
        const parentId = messages.at(-1)?.id ?? null;
        const user = message({ role: 'user', text: a.text, status: 'complete', parentId, attachments });
        const answer = message({ role: 'assistant', text: '', status: 'streaming', parentId: user.id });
        const reply = { conversationId, messageId: answer.id };
        this.reply = reply;
        // The uploads that go with the message leave the conversation's pending tray.
        conversations.setMessages(conversationId, [...messages, user, answer], answer.id);
        void this.echo(reply, a.text.split(/(?<=\s)(?=\S)/));
        return { conversationId, messageId: user.id, replyId: answer.id };
      },
      stop: () => {
        if (this.reply?.conversationId !== state().conversationId) return { stopped: false };
        this.update(this.reply, { status: 'stopped' });
        return { stopped: true };
      },
    };
  }

  /** Drops the reply that streams, if any: its remaining words are never written. */
  close(): void {
    this.reply = undefined;
  }

  /** Changes the reply (its conversation's last message); returns whether it is still streaming. */
  private update(r: Reply, fields: Partial<HostMessage>): boolean {
    const messages = this.conversations.messages(r.conversationId);
    const updated = messages.map((m) => (m.id === r.messageId ? { ...m, ...fields } : m));
    this.reply = updated.at(-1)?.status === 'streaming' ? r : undefined;
    this.conversations.setMessages(r.conversationId, updated, this.reply?.messageId ?? null);
    return this.reply === r;
  }

  private async echo(r: Reply, words: string[]): Promise<void> {
    for (let i = 1; i <= words.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, this.wordDelayMs));
      const text = words.slice(0, i).join('');
      const status = i < words.length ? 'streaming' : 'complete';
      // A `stop` queued before this task has ended the reply: then this word and the rest are dropped.
      const goesOn = await this.runOnMain(() => this.reply === r && this.update(r, { text, status }));
      if (!goesOn) return;
    }
  }
}
