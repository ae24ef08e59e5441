/** Tool results larger than this (UTF-8 bytes) are stored as an attachment of the result. */
const LARGE_RESULT_BYTES = 16 * 1024;
/** Characters of a large result kept in the message as its preview. */
const PREVIEW_CHARS = 2 * 1024;
/** Ends the preview of a result whose whole text is attached. */
const FULL_OUTPUT_NOTE = '(full output attached)';

/**
 * The text a message shows for a tool result: the result itself, or, past
 * {@link LARGE_RESULT_BYTES}, its first lines followed by {@link FULL_OUTPUT_NOTE}. The whole
 * result then goes to a file, so the conversation (and every snapshot of it) stays small.
 *
 * @example
 * ```ts
 * shownResult('short'); // { text: 'short', large: false }
 * shownResult(huge);    // { text: 'first lines…\n… (full output attached)', large: true }
 * ```
 */
export function shownResult(text: string): { readonly text: string; readonly large: boolean } {
  if (Buffer.byteLength(text) <= LARGE_RESULT_BYTES) return { text, large: false };
  let preview = text.slice(0, PREVIEW_CHARS);
  // End on a whole line when one ends reasonably late, so the preview does not stop mid-word.
  const newline = preview.lastIndexOf('\n');
  if (newline > PREVIEW_CHARS / 2) preview = preview.slice(0, newline);
  return { text: `${preview}\n… ${FULL_OUTPUT_NOTE}`, large: true };
}
