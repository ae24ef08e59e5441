import type { ApprovalDecision, HostMessage } from '@webbridge/contract';
import type { MessageRow } from '../db/HostStore';
import type { ConversationTree } from './tree';

/**
 * Builds the projection's view of a message from its row and its place in the tree.
 * `decisions` are the conversation's answered approvals by id: a call and its result show
 * how theirs was answered.
 */
export function toHostMessage(
  row: MessageRow,
  tree: ConversationTree,
  decisions?: ReadonlyMap<string, ApprovalDecision>,
): HostMessage {
  const siblings = tree.siblingsOf(row.id);
  const message: HostMessage = {
    id: row.id,
    parentId: row.parent_id,
    role: row.role,
    text: row.text,
    status: row.status,
    createdAt: row.created_at,
    attachments: [...tree.attachmentsOf(row.id)],
    sibling: { index: Math.max(0, siblings.indexOf(row.id)), count: Math.max(1, siblings.length) },
  };
  // exactOptionalPropertyTypes: absent fields stay absent rather than `undefined`, so the wire
  // JSON and the bridge's equality checks see the same shape.
  if (row.model !== null) message.model = row.model;
  if (row.error !== null) message.error = row.error;
  if (row.tool_name !== null) {
    message.tool = { name: row.tool_name, args: row.tool_args ?? '{}' };
    if (row.approval_id !== null) {
      message.tool.approvalId = row.approval_id;
      const decided = decisions?.get(row.approval_id);
      if (decided !== undefined) message.tool.decided = decided;
    }
  }
  return message;
}
