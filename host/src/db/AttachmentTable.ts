import type { HostAttachment } from '@webbridge/contract';
import type { Database } from 'better-sqlite3';
import type { GroupCommit } from './GroupCommit';

/**
 * An attachment as the host keeps it: the contract's attachment, the conversation it belongs to,
 * the message that took it (null while it waits for the next send) and its file.
 */
export type StoredAttachment = HostAttachment & {
  readonly conversationId: string;
  /** Null while the attachment waits for the next send. */
  readonly messageId: string | null;
  /** The file in the upload folder. Never shown to a browser. */
  readonly path: string;
  readonly createdAt: number;
};

/** A row of `attachments` as SQLite holds it. Nothing outside this file sees it. */
interface AttachmentRow {
  readonly id: string;
  readonly conversation_id: string;
  readonly message_id: string | null;
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly path: string;
  readonly created_at: number;
}

/** The `attachments` table: reads and writes {@link StoredAttachment}s. Writes join the turn's group commit. */
export class AttachmentTable {
  private readonly group: GroupCommit;
  private readonly s: ReturnType<typeof prepare>;

  constructor(db: Database, group: GroupCommit) {
    this.group = group;
    this.s = prepare(db);
  }

  /** A conversation's attachments, sent or pending, oldest first. */
  ofConversation(conversationId: string): StoredAttachment[] {
    return (this.s.ofConversation.all(conversationId) as AttachmentRow[]).map(fromRow);
  }

  /** A conversation's attachments waiting for the next send, oldest first. */
  pending(conversationId: string): StoredAttachment[] {
    return (this.s.pending.all(conversationId) as AttachmentRow[]).map(fromRow);
  }

  /** Bytes of every attachment not sent yet, in all conversations. */
  pendingBytes(): number {
    return (this.s.pendingBytes.get() as { bytes: number }).bytes;
  }

  /** An attachment of any conversation. */
  get(id: string): StoredAttachment | undefined {
    const row = this.s.get.get(id) as AttachmentRow | undefined;
    return row && fromRow(row);
  }

  /** Records an attachment (pending when `messageId` is null). */
  insert(attachment: StoredAttachment): void {
    this.group.beforeWrite();
    this.s.insert.run({
      id: attachment.id,
      conversation_id: attachment.conversationId,
      message_id: attachment.messageId,
      name: attachment.name,
      type: attachment.type,
      size: attachment.size,
      path: attachment.path,
      created_at: attachment.createdAt,
    } satisfies AttachmentRow);
  }

  /** Gives a pending attachment to the message that took it. */
  attachToMessage(id: string, messageId: string): void {
    this.group.beforeWrite();
    this.s.attachToMessage.run(messageId, id);
  }

  /** Forgets an attachment (its file is the caller's to remove). */
  delete(id: string): void {
    this.group.beforeWrite();
    this.s.delete.run(id);
  }
}

function fromRow(row: AttachmentRow): StoredAttachment {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    size: row.size,
    conversationId: row.conversation_id,
    messageId: row.message_id,
    path: row.path,
    createdAt: row.created_at,
  };
}

function prepare(db: Database) {
  return {
    ofConversation: db.prepare(
      'SELECT * FROM attachments WHERE conversation_id = ? ORDER BY created_at, rowid',
    ),
    pending: db.prepare(
      'SELECT * FROM attachments WHERE conversation_id = ? AND message_id IS NULL ORDER BY created_at, rowid',
    ),
    pendingBytes: db.prepare(
      'SELECT COALESCE(SUM(size), 0) AS bytes FROM attachments WHERE message_id IS NULL',
    ),
    get: db.prepare('SELECT * FROM attachments WHERE id = ?'),
    insert: db.prepare(
      `INSERT INTO attachments (id, conversation_id, message_id, name, type, size, path, created_at)
       VALUES (@id, @conversation_id, @message_id, @name, @type, @size, @path, @created_at)`,
    ),
    attachToMessage: db.prepare('UPDATE attachments SET message_id = ? WHERE id = ?'),
    delete: db.prepare('DELETE FROM attachments WHERE id = ?'),
  };
}
