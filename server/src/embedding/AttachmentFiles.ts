import { rmSync } from 'node:fs';
import type { HostAttachment } from '@webbridge/contract';
import type { CompletedUpload, MediaFile } from '../HostAdapter';

/**
 * The uploaded files of an app that keeps its attachments in memory, by attachment id: what
 * `addAttachment` records, what `resolveMedia` answers and what removing an attachment deletes.
 * The app keeps the attachments themselves (pending, or on a message) in its own state.
 *
 * @example
 * ```ts
 * const files = new AttachmentFiles();
 * const adapter: HostAdapter = {
 *   addAttachment: (upload) => addPending(upload.conversationId, files.add(upload)),
 *   resolveMedia: files.resolveMedia,
 *   ...theRest,
 * };
 * ```
 */
export class AttachmentFiles {
  private readonly files = new Map<string, MediaFile>();

  /** Takes over a completed upload's file under a new attachment id; returns the attachment. */
  add(upload: CompletedUpload): HostAttachment {
    const attachment = { id: crypto.randomUUID(), name: upload.name, type: upload.type, size: upload.size };
    this.files.set(attachment.id, {
      path: upload.path,
      name: upload.name,
      type: upload.type,
      size: upload.size,
    });
    return attachment;
  }

  /** `HostAdapter.resolveMedia`: the file behind an attachment id, or undefined. Bound, so it can be passed on. */
  readonly resolveMedia = (attachmentId: string): MediaFile | undefined => this.files.get(attachmentId);

  /** Forgets an attachment and deletes its file (if it is still there). */
  delete(attachmentId: string): void {
    const file = this.files.get(attachmentId);
    this.files.delete(attachmentId);
    if (file) rmSync(file.path, { force: true });
  }
}
