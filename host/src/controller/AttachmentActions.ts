import type { ActionResultOf, HostAttachment } from '@webbridge/contract';
import type { AttachmentFile } from './Attachments';
import type { ControllerCore } from './ControllerCore';
import { notFound } from './errors';

/**
 * Files the person picked before a send: record an upload as pending, remove it, and find the
 * file behind an attachment for the media route. The storage itself is `Attachments`.
 */
export class AttachmentActions {
  private readonly core: ControllerCore;

  constructor(core: ControllerCore) {
    this.core = core;
  }

  /**
   * Records an uploaded file as a pending attachment of `conversationId` (the conversation the
   * person was looking at when they picked it), or of the current conversation.
   */
  add(file: AttachmentFile, conversationId?: string): HostAttachment {
    const { core } = this;
    const target = conversationId ?? core.selection.conversationId;
    if (!core.store.conversation(target)) throw notFound('conversation');
    const attachment = core.attachments.add(target, file);
    // Another conversation's pending list is not in the projection: nothing to publish.
    if (target === core.selection.conversationId) core.refresh();
    return attachment;
  }

  /** Removes a pending attachment and its file. */
  remove(attachmentId: string): ActionResultOf<'removeAttachment'> {
    this.core.attachments.remove(attachmentId);
    this.core.refresh();
    return { attachmentId };
  }

  /** The file of an attachment, if its row and its file both exist. */
  file(attachmentId: string): AttachmentFile | undefined {
    return this.core.attachments.file(attachmentId);
  }
}
