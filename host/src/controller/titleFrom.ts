import type { AttachmentRow } from '../db/HostStore';

/** Longest automatic title taken from a conversation's first message. */
const TITLE_LENGTH = 60;

/**
 * The automatic title of a conversation, from its first message: the text on one line, or the
 * attachments' names when the message is only files, cut with an ellipsis to fit a sidebar.
 */
export function titleFrom(text: string, attachments: readonly AttachmentRow[]): string {
  const line = text.replace(/\s+/g, ' ').trim() || attachments.map((a) => a.name).join(', ');
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}
