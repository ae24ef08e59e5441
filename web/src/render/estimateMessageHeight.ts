import type { Message } from '../state/types';
import { estimateAgentHeight } from './estimateAgentHeight';

/** A message's text line in CSS px (1rem at a line height of 1.5). */
const LINE = 24;
/**
 * What a message has besides its text, by role: the role line, the padding and, for the
 * person's own messages, the row with Edit (measured at 390 and 1280 px wide: 78–107 px for
 * a message of the person, 59–66 for a reply).
 */
const FRAME: { readonly [R in Message['role']]: number } = { user: 100, assistant: 60, tool: 60, system: 60 };
/** An attachment's row or thumbnail. */
const ATTACHMENT = 64;
/** Average advance of one character of the text, in CSS px. */
const CHAR = 7.5;
/** The list's side padding and a message's own, in CSS px. */
const INSET = 60;

const known = new WeakMap<Message, number>();

/**
 * A guess at a message's height before it was drawn, from its length and the width it has:
 * where the list places the messages it has not measured yet. A close guess keeps the scroll
 * bar honest and the view still as real heights replace guesses; it is never relied on.
 *
 * @example estimateMessageHeight({ ...message, role: 'user', text: 'ok' }, 390) // 124
 */
export function estimateMessageHeight(message: Message, width: number): number {
  const cached = known.get(message);
  if (cached !== undefined) return cached;
  const agent = estimateAgentHeight(message, FRAME[message.role]);
  if (agent !== undefined) {
    known.set(message, agent);
    return agent;
  }
  // The person's messages are bubbles of at most 85 % of the width.
  const textWidth = (Math.min(width, 768) - INSET) * (message.role === 'user' ? 0.85 : 1);
  const perLine = Math.max(16, Math.floor(textWidth / CHAR));
  let lines = 0;
  let from = 0;
  const text = message.text;
  for (;;) {
    const end = text.indexOf('\n', from);
    const length = (end < 0 ? text.length : end) - from;
    lines += Math.max(1, Math.ceil(length / perLine));
    if (end < 0) break;
    from = end + 1;
  }
  const height = FRAME[message.role] + lines * LINE + message.attachments.length * ATTACHMENT;
  known.set(message, height);
  return height;
}
