import type { StoredAttachment } from '../db/AttachmentTable';

/** Longest automatic title taken from a conversation's first message. */
const TITLE_LENGTH = 60;

/**
 * The automatic title of a conversation, from its first message: its first line of text without
 * markdown markup, or the attachments' names when the message is only files, cut with an
 * ellipsis to fit a sidebar.
 */
export function titleFrom(text: string, attachments: readonly StoredAttachment[]): string {
  const firstLine = text.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('```')) ?? '';
  const plain = firstLine
    .replace(/^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+\.\s+)/, '')
    .replace(/[*`~]+/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const line = plain || attachments.map((a) => a.name).join(', ');
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}
