import type { ApprovalDecision, HostMessage } from '@webbridge/contract';
import type { StoredMessage } from '../db/StoredMessage';
import type { ConversationTree } from './ConversationTree';

/**
 * Builds the projection's view of a stored message from it and its place in the tree.
 * `decisions` are the conversation's answered approvals by id: a call and its result show how
 * theirs was answered.
 */
export function toHostMessage(
  stored: StoredMessage,
  tree: Pick<ConversationTree, 'siblingsOf' | 'attachmentsOf'>,
  decisions?: ReadonlyMap<string, ApprovalDecision>,
): HostMessage {
  // Every other field (the optional ones, and any stored later) is the contract's already and
  // passes through; the fixed ones come first, in the order the wire has always had them.
  const { conversationId: _conversation, id, parentId, role, text, status, createdAt, ...optional } = stored;
  const siblings = tree.siblingsOf(id);
  const decided =
    optional.tool?.approvalId === undefined ? undefined : decisions?.get(optional.tool.approvalId);
  if (decided !== undefined && optional.tool !== undefined) optional.tool = { ...optional.tool, decided };
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
