import type { ProjectionDelta } from './events';

/**
 * The append rule: a delta that is exactly one text append to the message the run is producing
 * goes out as an append frame (`[base, text]`, about 30 bytes of framing for a streamed word);
 * anything else as a full delta. Returns the text to send as an append, or undefined.
 * Clients undo it in their reducer: an append goes to `run.messageId` at the current length.
 *
 * @example
 * ```ts
 * const text = loneAppend(delta, next.conversations.run.messageId);
 * const event = text === undefined ? { kind: 'delta', seq, base, ...delta } : { kind: 'append', seq, base, text };
 * ```
 */
export function loneAppend(
  delta: Pick<ProjectionDelta, 'ap'> & object,
  runMessageId: string | null,
): string | undefined {
  const only = delta.ap?.length === 1 && Object.keys(delta).length === 1 ? delta.ap[0] : undefined;
  return only !== undefined && only[0] === runMessageId ? only[2] : undefined;
}
