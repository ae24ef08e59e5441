/** Longest summary or title a push payload carries. */
const MAX_PUSH_TEXT = 120;

/**
 * A text cut for a notification: one line (control characters and line breaks become spaces),
 * at most {@link MAX_PUSH_TEXT} characters, cut with "…". A tool's summary names what it will do
 * ("Write 12 bytes to notes.md"); file contents never reach a summary.
 */
export function shortText(text: string, max = MAX_PUSH_TEXT): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const line = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join('')}…`;
}
