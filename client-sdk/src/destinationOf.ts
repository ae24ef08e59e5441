import { type ConversationSummary, identityOf, type SessionIdentity } from '@webbridge/contract';

/**
 * A place a send can land: the session identity a send carries, and the conversation's title
 * to name it to the person. A send made with it (the `to` option of a session-sensitive action) is bound to
 * it: it lands there or, if the host has moved on, nowhere (409).
 */
export interface Destination extends SessionIdentity {
  /** The conversation's title from the list ('' when the list does not have it). */
  readonly title: string;
}

/**
 * Where a send made from `snapshot` would land: its identity and the title of its conversation.
 * A UI that names a destination to the person should send with that same object.
 *
 * @example
 * ```ts
 * const shown = destinationOf(store.getState().snapshot!);
 * if (confirm(`Send to “${shown.title}”?`)) await client.send(text, [], { to: shown });
 * ```
 */
export function destinationOf(snapshot: StateWithList): Destination {
  const title = snapshot.conversations.list.find((c) => c.id === snapshot.conversationId)?.title ?? '';
  return { ...identityOf(snapshot), title };
}

/** What {@link destinationOf} reads: a snapshot, or a host's projection. */
type StateWithList = SessionIdentity & {
  readonly conversations: { readonly list: readonly ConversationSummary[] };
};
