import type { ActionResultOf, HostAttachment } from '@webbridge/contract';
import type { ConversationTable } from '../db/ConversationTable';
import type { AttachmentFile, Attachments } from './Attachments';
import type { ControllerSteps } from './ControllerSteps';
import { notFound } from './errors';
import type { Selection } from './Selection';

/** What {@link AttachmentActions} works with. */
export interface AttachmentActionsDeps {
  readonly store: { readonly conversations: Pick<ConversationTable, 'get'> };
  readonly selection: Pick<Selection, 'conversationId'>;
  readonly attachments: Pick<Attachments, 'add' | 'remove' | 'file'>;
  readonly steps: Pick<ControllerSteps, 'refresh'>;
}

/**
 * Files the person picked before a send: record an upload as pending, remove it, and find the
 * file behind an attachment for the media route. The storage itself is `Attachments`.
 */
export class AttachmentActions {
  private readonly store: AttachmentActionsDeps['store'];
  private readonly selection: AttachmentActionsDeps['selection'];
  private readonly attachments: AttachmentActionsDeps['attachments'];
  private readonly steps: AttachmentActionsDeps['steps'];

  constructor(deps: AttachmentActionsDeps) {
    this.store = deps.store;
    this.selection = deps.selection;
    this.attachments = deps.attachments;
    this.steps = deps.steps;
  }

  /**
   * Records an uploaded file as a pending attachment of `conversationId` (the conversation the
   * person was looking at when they picked it), or of the current conversation.
   */
  add(file: AttachmentFile, conversationId?: string): HostAttachment {
    const current = this.selection.conversationId;
    const target = conversationId ?? current;
    if (!this.store.conversations.get(target)) throw notFound('conversation');
    const attachment = this.attachments.add(target, file);
    // Another conversation's pending list is not in the projection: nothing to publish.
    if (target === current) this.steps.refresh();
    return attachment;
  }

  /** Removes a pending attachment and its file. */
  remove(attachmentId: string): ActionResultOf<'removeAttachment'> {
    this.attachments.remove(attachmentId);
    this.steps.refresh();
    return { attachmentId };
  }

  /** The file of an attachment, if its row and its file both exist. */
  file(attachmentId: string): AttachmentFile | undefined {
    return this.attachments.file(attachmentId);
  }
}
