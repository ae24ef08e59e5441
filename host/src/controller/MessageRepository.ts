import type { ApprovalDecision, HostAttachment, HostMessage } from '@webbridge/contract';
import type { StoredAttachment } from '../db/AttachmentTable';
import type { MessageTable } from '../db/MessageTable';
import type { MessageChange, NewMessage, StoredMessage } from '../db/StoredMessage';
import { newId } from '../ids';
import { ConversationTree } from './ConversationTree';
import { notFound } from './errors';
import { toHostMessage } from './toHostMessage';

/** What callers may ask of the cached tree; only the repository changes it. */
export type TreeView = Pick<
  ConversationTree,
  | 'conversationId'
  | 'get'
  | 'siblingsOf'
  | 'childrenOf'
  | 'path'
  | 'newestDeepestLeaf'
  | 'defaultLeaf'
  | 'attachmentsOf'
>;

/**
 * The one owner of the host's messages: it writes them to SQLite (through {@link MessageTable},
 * which keeps the SQL row to itself), keeps the open conversation in memory as a
 * {@link ConversationTree} in step with those writes, and turns them into the contract's
 * messages. A write to another conversation (a reply finishing in the background) goes to
 * SQLite only.
 */
export class MessageRepository {
  private readonly table: MessageTable;
  private readonly attachmentsOf: (conversationId: string) => readonly StoredAttachment[];
  private cache = new ConversationTree('', [], []);

  /** `attachmentsOf` reads a conversation's attachment rows when its tree is loaded. */
  constructor(table: MessageTable, attachmentsOf: (conversationId: string) => readonly StoredAttachment[]) {
    this.table = table;
    this.attachmentsOf = attachmentsOf;
  }

  /** Loads a conversation into memory, in place of the one held before. */
  open(conversationId: string): TreeView {
    this.cache = new ConversationTree(
      conversationId,
      this.table.ofConversation(conversationId),
      this.attachmentsOf(conversationId),
    );
    return this.cache;
  }

  /** The open conversation's tree. */
  get tree(): TreeView {
    return this.cache;
  }

  /** A message of any conversation. */
  get(id: string): StoredMessage | undefined {
    return this.cache.get(id) ?? this.table.get(id);
  }

  /** The messages from the root to `leafId` in the open conversation, root first. */
  path(leafId: string | null): StoredMessage[] {
    return this.cache.path(leafId);
  }

  /**
   * The open conversation's branch ending at `leafId`, as the projection shows it, each tool
   * call and result with how its approval was answered (`decisions`, by approval id).
   */
  shown(leafId: string | null, decisions?: ReadonlyMap<string, ApprovalDecision>): HostMessage[] {
    const tree = this.cache;
    return tree.path(leafId).map((message) => toHostMessage(message, tree, decisions));
  }

  /** Stores a new message, last among its siblings, and returns it. */
  add(draft: NewMessage): StoredMessage {
    const { conversationId, parentId, role, text, status, ...optional } = draft;
    // The order of the fields read back from SQLite, so a message looks the same either way.
    const message: StoredMessage = {
      id: newId(),
      conversationId,
      parentId,
      role,
      text,
      status,
      createdAt: Date.now(),
      ...optional,
    };
    this.table.insert(message);
    if (message.conversationId === this.cache.conversationId) this.cache.add(message);
    return message;
  }

  /** Changes a stored message and returns it as it now is. */
  change(conversationId: string, id: string, change: MessageChange): StoredMessage {
    this.table.change(id, change);
    if (conversationId === this.cache.conversationId && this.cache.get(id)) {
      return this.cache.change(id, change);
    }
    const message = this.table.get(id);
    if (!message) throw notFound('message');
    return message;
  }

  /** Appends streamed text. Returns whether the message is in the open conversation. */
  appendText(conversationId: string, id: string, text: string): boolean {
    this.table.appendText(id, text);
    if (conversationId !== this.cache.conversationId) return false;
    return this.cache.appendText(id, text) !== undefined;
  }

  /** Shows attachments already recorded for a message on the tree, when it is the open conversation's. */
  attach(conversationId: string, messageId: string, attachments: readonly HostAttachment[]): void {
    if (conversationId === this.cache.conversationId) this.cache.attach(messageId, attachments);
  }

  /** Turns replies interrupted by a previous crash into stopped ones. Returns how many. */
  stopInterrupted(): number {
    return this.table.stopInterrupted();
  }
}
