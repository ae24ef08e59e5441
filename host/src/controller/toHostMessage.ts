import type { HostMessage } from '@webbridge/contract';
import type { StoredMessage } from '../db/StoredMessage';
import type { ConversationTree } from './tree';

/** Builds the projection's view of a stored message from it and its place in the tree. */
export function toHostMessage(
  stored: StoredMessage,
  tree: Pick<ConversationTree, 'siblingsOf' | 'attachmentsOf'>,
): HostMessage {
  // Every other field (the optional ones, and any stored later) is the contract's already and
  // passes through; the fixed ones come first, in the order the wire has always had them.
  const { conversationId: _conversation, id, parentId, role, text, status, createdAt, ...optional } = stored;
  const siblings = tree.siblingsOf(id);
  return {
    id,
    parentId,
    role,
    text,
    status,
    createdAt,
    attachments: [...tree.attachmentsOf(id)],
    sibling: { index: Math.max(0, siblings.indexOf(id)), count: Math.max(1, siblings.length) },
    ...optional,
  };
}
