import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type HostAttachment, ProtocolError } from '@webbridge/contract';
import type { AttachmentTable, StoredAttachment } from '../db/AttachmentTable';
import { newId } from '../ids';
import { toHostAttachment } from './ConversationTree';
import { notApplicable, notFound } from './errors';

/** Most files one conversation can hold waiting for a send. */
export const MAX_PENDING_FILES = 32;
/** Most bytes of files waiting for a send, all conversations together: the disk is the phone's. */
export const MAX_PENDING_BYTES = 1024 * 1024 * 1024;

/** A file behind an attachment. */
export interface AttachmentFile {
  readonly path: string;
  readonly name: string;
  readonly type: string;
  readonly size: number;
}

/**
 * Attachments and their files. An upload stays in the bridge's upload folder; it is pending
 * (no message) until a send takes it, and its file goes when it is removed or its
 * conversation is deleted. The host writes files of its own there too (large tool results).
 */
export class Attachments {
  private readonly table: AttachmentTable;
  private readonly uploadDir: string;

  /** `uploadDir` is the bridge's upload folder (`<dataDir>/uploads`). */
  constructor(table: AttachmentTable, uploadDir: string) {
    this.table = table;
    this.uploadDir = uploadDir;
  }

  /**
   * Records an uploaded file as pending in a conversation, within the quotas: a runaway
   * client cannot keep the host's disk filled with files nobody sends (413, and the bridge
   * deletes the file; uploads still arriving are bounded by the upload limit each).
   */
  add(conversationId: string, file: AttachmentFile): HostAttachment {
    if (this.table.pending(conversationId).length >= MAX_PENDING_FILES) {
      throw new ProtocolError(
        'payload_too_large',
        `${MAX_PENDING_FILES} files are already waiting to be sent here. Send or remove some first.`,
      );
    }
    if (this.table.pendingBytes() + file.size > MAX_PENDING_BYTES) {
      throw new ProtocolError(
        'payload_too_large',
        'The files waiting to be sent take all the room this host allows. Send or remove some first.',
      );
    }
    const row: StoredAttachment = {
      id: newId(),
      conversationId,
      messageId: null,
      name: file.name,
      type: file.type,
      size: file.size,
      path: file.path,
      createdAt: Date.now(),
    };
    this.table.insert(row);
    return toHostAttachment(row);
  }

  /**
   * Stores text the host produced (a large tool result) as a file in the upload folder and
   * attaches it to a message at once. The caller adds the returned attachment to the tree.
   */
  addText(conversationId: string, messageId: string, name: string, text: string): HostAttachment {
    return this.addFile(conversationId, messageId, name, 'text/plain', text);
  }

  /**
   * Stores content the host produced (a file a tool returned: an image, a resource) and
   * attaches it to a message at once, as {@link addText} does.
   */
  addFile(
    conversationId: string,
    messageId: string,
    name: string,
    type: string,
    data: string | Uint8Array,
  ): HostAttachment {
    fs.mkdirSync(this.uploadDir, { recursive: true, mode: 0o700 });
    // Named like the bridge names uploads: random, so no name says what is inside.
    const file = path.join(this.uploadDir, randomBytes(16).toString('base64url'));
    fs.writeFileSync(file, data, { mode: 0o600, flag: 'wx' });
    const row: StoredAttachment = {
      id: newId(),
      conversationId,
      messageId,
      name,
      type,
      size: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength,
      path: file,
      createdAt: Date.now(),
    };
    try {
      this.table.insert(row);
    } catch (error) {
      removeFile(file);
      throw error;
    }
    return toHostAttachment(row);
  }

  /** The pending attachments a send takes: the given ids (all pending), or every pending one. */
  pick(conversationId: string, ids: readonly string[] | undefined): StoredAttachment[] {
    const pending = this.table.pending(conversationId);
    if (ids === undefined) return pending;
    const byId = new Map(pending.map((row) => [row.id, row]));
    return [...new Set(ids)].map((id) => {
      const row = byId.get(id);
      if (!row) throw notFound('pending attachment');
      return row;
    });
  }

  /** The attachments of one message. */
  ofMessage(conversationId: string, messageId: string): StoredAttachment[] {
    return this.table.ofConversation(conversationId).filter((row) => row.messageId === messageId);
  }

  /** Removes a pending attachment and its file. */
  remove(attachmentId: string): void {
    const row = this.table.get(attachmentId);
    if (!row) throw notFound('attachment');
    if (row.messageId !== null) throw notApplicable('The attachment has been sent already.');
    this.table.delete(attachmentId);
    removeFile(row.path);
  }

  /** The files of a conversation, to delete once its rows are gone. */
  filesOf(conversationId: string): string[] {
    return [...new Set(this.table.ofConversation(conversationId).map((row) => row.path))];
  }

  /** Deletes files (best effort). */
  removeFiles(files: readonly string[]): void {
    for (const file of files) removeFile(file);
  }

  /** The file of an attachment, if its row and its file both exist. */
  file(attachmentId: string): AttachmentFile | undefined {
    const row = this.table.get(attachmentId);
    if (!row) return undefined;
    try {
      const stat = fs.statSync(row.path);
      return stat.isFile() ? { path: row.path, name: row.name, type: row.type, size: stat.size } : undefined;
    } catch {
      return undefined;
    }
  }
}

function removeFile(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Not removable (a folder, permissions): the row is gone either way and nothing points at it.
  }
}
