import type { HostMessage, ProjectionDelta } from '@webbridge/contract';

/** The message changes of a delta: what the resume ring keeps per projection. */
export type MessageChanges = Pick<ProjectionDelta, 'cut' | 'put' | 'set' | 'ap' | 'add'>;

/**
 * Applies the message changes of a delta to `messages` in place, in the contract's order
 * (`cut`, `put`, `set`, `ap`, `add`). The array belongs to the caller (the resume ring's own
 * copy); message objects are never modified, a changed one is replaced by a new object. The
 * changes come from the server's own diff, so they always fit: a change naming an unknown id is
 * a bug, and throws rather than rebuilding a wrong projection.
 */
export function replayMessages(messages: HostMessage[], changes: MessageChanges): void {
  if (changes.cut !== undefined) messages.length = Math.min(messages.length, changes.cut);
  for (const message of changes.put ?? []) messages[indexOf(messages, message.id)] = message;
  for (const [id, fields] of changes.set ?? []) {
    const index = indexOf(messages, id);
    messages[index] = { ...messages[index]!, ...fields, id } as HostMessage;
  }
  for (const [id, , text] of changes.ap ?? []) {
    const index = indexOf(messages, id);
    const message = messages[index]!;
    messages[index] = { ...message, text: message.text + text };
  }
  // A loop, not push(...add): spreading a very long array overflows the call stack.
  for (const message of changes.add ?? []) messages.push(message);
}

/** Searches from the end: the changes of a streaming reply touch the last messages. */
function indexOf(messages: readonly HostMessage[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.id === id) return i;
  throw new Error(`resume ring: no message ${id} to replay onto`);
}
