import type { ConversationSummary, HostAttachment, HostMessage, Model } from '@webbridge/contract';
import { BUILTIN_AGENT, ProtocolError } from '@webbridge/contract';
import type { CompletedUpload, HostActionHandlers } from '../HostAdapter';
import { AttachmentFiles } from './AttachmentFiles';
import { createProjectionStore, type ProjectionStore } from './createProjectionStore';
import { emptyProjection } from './emptyProjection';

/** The actions {@link MemoryConversations} handles. */
export type ConversationActionName =
  | 'newConversation'
  | 'selectConversation'
  | 'renameConversation'
  | 'deleteConversation'
  | 'removeAttachment';

/** Options of {@link MemoryConversations}. */
export interface MemoryConversationsOptions {
  /** The one model the app answers with. */
  readonly model: Model;
  /** The first conversation's title. @default 'New conversation' */
  readonly title?: string;
}

/** What one conversation holds besides its line in the list. */
interface Content {
  readonly messages: HostMessage[];
  readonly pending: HostAttachment[];
  /** The id of the message being produced, if any. */
  readonly streaming: string | null;
}

const EMPTY: Content = { messages: [], pending: [], streaming: null };
const notFound = (what: string): never => {
  // The reference host's words, so an app built on these helpers answers as the host does.
  throw new ProtocolError('not_found', `There is no such ${what}.`);
};

/**
 * The conversations of an app that keeps them in memory (a bot, a tool, a game that wants a
 * chat on the phone), and the projection that shows them: the list, each conversation's
 * messages and pending uploads, which one is current, and the files behind the uploads. It
 * handles the conversation actions, `addAttachment` and `resolveMedia`, and keeps the
 * projection's rules: switching conversations moves the session identity (its
 * {@link ProjectionStore} counts it), and a change replaces only what changed (unchanged arrays
 * keep their identity). It has one project, `main`, and the model it is given.
 *
 * The app brings the replies: it reads `messages()` and `pending()`, builds new messages, and
 * hands the whole array back with `setMessages`, saying which message streams. All of it
 * runs inside `runOnMain`, like the handlers.
 *
 * An app that already stores its conversations (in SQLite, in its own model) does not need
 * this: it writes these handlers over its own storage, as the reference host does.
 *
 * @example
 * ```ts
 * const conversations = new MemoryConversations({ model: { id: 'bot', name: 'Bot', provider: 'me' } });
 * const adapter: HostAdapter = {
 *   readState: conversations.store.readState,
 *   subscribe: conversations.store.subscribe,
 *   actions: { ...conversations.actions, send, stop, ...theOthers },
 *   addAttachment: conversations.addAttachment,
 *   resolveMedia: conversations.resolveMedia,
 *   ...theRest,
 * };
 * ```
 */
export class MemoryConversations {
  private readonly contents = new Map<string, Content>();
  private readonly files = new AttachmentFiles();
  /** `HostAdapter.resolveMedia`: the file behind an attachment id. */
  readonly resolveMedia = this.files.resolveMedia;
  /** Handlers for the conversation actions, to spread into the adapter's `actions`. */
  readonly actions: Pick<HostActionHandlers, ConversationActionName>;

  /**
   * The projection: `readState` and `subscribe` for the adapter, `publish` for the groups the app
   * changes itself. It starts as {@link emptyProjection} with one empty conversation.
   */
  readonly store: ProjectionStore;

  constructor({ model, title = 'New conversation' }: MemoryConversationsOptions) {
    const first = { id: crypto.randomUUID(), title, projectId: 'main', createdAt: Date.now() };
    this.contents.set(first.id, EMPTY);
    this.store = createProjectionStore(emptyProjection({ conversation: first, model }));
    const state = this.store.readState;
    this.actions = {
      newConversation: ({ projectId = state().projectId, title, agentId }) => {
        if (projectId !== state().projectId) return notFound('project');
        // Such an app answers itself: there is no other agent to back a conversation.
        if (agentId !== undefined && agentId !== BUILTIN_AGENT) return notFound('agent');
        const summary = this.create(title);
        return this.show(summary.id, [...state().conversations.list, summary]);
      },
      selectConversation: ({ conversationId }) => this.show(conversationId),
      renameConversation: ({ conversationId, title }) => {
        this.content(conversationId);
        return this.show(
          state().conversationId,
          state().conversations.list.map((c) => (c.id === conversationId ? { ...c, title } : c)),
        );
      },
      deleteConversation: ({ conversationId }) => {
        const { messages, pending, streaming } = this.content(conversationId);
        // The reply is the app's work, which this cannot stop.
        if (streaming) throw new ProtocolError('not_applicable', 'A reply is streaming here: stop it first.');
        for (const { id } of [...pending, ...messages.flatMap((m) => m.attachments)]) this.files.delete(id);
        this.contents.delete(conversationId);
        const list = state().conversations.list.filter((c) => c.id !== conversationId);
        if (list.length === 0) list.push(this.create());
        this.show(this.contents.has(state().conversationId) ? state().conversationId : list[0]!.id, list);
        return { conversationId };
      },
      removeAttachment: ({ attachmentId }) => {
        const holder = [...this.contents].find(([, c]) => c.pending.some((p) => p.id === attachmentId));
        if (!holder) return notFound('attachment');
        const [id, content] = holder;
        this.contents.set(id, { ...content, pending: content.pending.filter((p) => p.id !== attachmentId) });
        this.files.delete(attachmentId);
        this.show();
        return { attachmentId };
      },
    };
  }

  /**
   * `HostAdapter.addAttachment`: the upload waits in the pending tray of the conversation it
   * names (default: the current one); an unknown one is `not_found` and the bridge deletes the file.
   */
  readonly addAttachment = (upload: CompletedUpload): HostAttachment => {
    const conversationId = upload.conversationId ?? this.store.readState().conversationId;
    const content = this.content(conversationId);
    const attachment = this.files.add(upload);
    this.contents.set(conversationId, { ...content, pending: [...content.pending, attachment] });
    this.show();
    return attachment;
  };

  /** A conversation's messages, root first; `not_found` for an unknown id. */
  messages(conversationId: string): readonly HostMessage[] {
    return this.content(conversationId).messages;
  }

  /** A conversation's pending uploads, waiting for the next message. */
  pending(conversationId: string): readonly HostAttachment[] {
    return this.content(conversationId).pending;
  }

  /**
   * Replaces a conversation's messages (keep the unchanged ones: the same objects) and says
   * which of them is streaming (`null`: none, the conversation is idle), then publishes. A pending
   * upload that now rides on a message leaves the tray.
   */
  setMessages(conversationId: string, messages: readonly HostMessage[], streaming: string | null): void {
    const { pending } = this.content(conversationId);
    const sent = new Set(messages.flatMap((m) => m.attachments.map((a) => a.id)));
    const left = pending.some((p) => sent.has(p.id)) ? pending.filter((p) => !sent.has(p.id)) : pending;
    this.contents.set(conversationId, { messages: [...messages], pending: left, streaming });
    this.show();
  }

  private create(title = 'New conversation'): ConversationSummary {
    const summary = {
      id: crypto.randomUUID(),
      title,
      projectId: this.store.readState().projectId,
      createdAt: Date.now(),
    };
    this.contents.set(summary.id, EMPTY);
    return summary;
  }

  private content(conversationId: string): Content {
    return this.contents.get(conversationId) ?? notFound('conversation');
  }

  /** Publishes a conversation (default: the current one) as the current one, with `list`. */
  private show(
    conversationId = this.store.readState().conversationId,
    list: ConversationSummary[] = this.store.readState().conversations.list,
  ): { conversationId: string } {
    const { messages, pending, streaming } = this.content(conversationId);
    const run = { state: streaming ? 'streaming' : 'idle', messageId: streaming } as const;
    this.store.publish({
      ...this.store.readState(),
      conversationId,
      conversations: { list, messages, pending, run },
    });
    return { conversationId };
  }
}
