import type { Message } from '../state/types';

/** A message's text line in CSS px (1rem at a line height of 1.5). */
const LINE = 24;
/** What a message has besides its text: the role line and the padding. */
const FRAME = 52;
/** A reply's row of actions (copy, branch, retry). */
const ACTIONS = 36;
/** An attachment's row or thumbnail. */
const ATTACHMENT = 64;
/** Average advance of one character of the text, in CSS px. */
const CHAR = 8;

const known = new WeakMap<Message, number>();

/**
 * A guess at a message's height before it was drawn, from its length and the width it has:
 * where the list places the messages it has not measured yet. A close guess keeps the scroll
 * bar honest and the view still as real heights replace guesses; it is never relied on.
 *
 * @example estimateMessageHeight(message, 390) // 124
 */
export function estimateMessageHeight(message: Message, width: number): number {
  const perLine = Math.max(16, Math.floor((Math.min(width, 768) - 40) / CHAR));
  const cached = known.get(message);
  if (cached !== undefined) return cached;
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
  const height =
    FRAME +
    lines * LINE +
    (message.role === 'assistant' ? ACTIONS : 0) +
    message.attachments.length * ATTACHMENT;
  known.set(message, height);
  return height;
}
