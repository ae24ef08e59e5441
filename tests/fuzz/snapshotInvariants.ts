import type { Action, Snapshot } from '@webbridge/contract';

/**
 * Rules every snapshot keeps whatever happened before it: an action applied half-way (a
 * conversation selected but not listed, a message whose parent is not the one before it on
 * the branch, a run streaming into a message that is not there) breaks one of them.
 */
export function snapshotViolations(s: Snapshot): string[] {
  const v: string[] = [];
  const current = s.conversations.list.find((c) => c.id === s.conversationId);
  if (!current) v.push(`the current conversation ${s.conversationId} is not in the list`);
  else if (current.projectId !== s.projectId)
    v.push(`the current conversation belongs to ${current.projectId}, the current project is ${s.projectId}`);
  if (!s.projects.list.some((p) => p.id === s.projectId))
    v.push(`the current project ${s.projectId} is not in the list`);
  const messages = s.conversations.messages;
  const ids = new Set(messages.map((m) => m.id));
  if (ids.size !== messages.length) v.push('a message id appears twice on the branch');
  messages.forEach((m, i) => {
    const parent = i === 0 ? null : (messages[i - 1]?.id ?? null);
    if (m.parentId !== parent) v.push(`message ${i} has parent ${m.parentId}, the branch says ${parent}`);
    if (m.sibling.index >= m.sibling.count)
      v.push(`message ${i} is sibling ${m.sibling.index} of ${m.sibling.count}`);
  });
  const run = s.conversations.run;
  if (run.state === 'streaming' && (run.messageId === null || !ids.has(run.messageId)))
    v.push(`streaming into ${run.messageId}, which is not on the branch`);
  const conversations = new Set(s.conversations.list.map((c) => c.id));
  for (const approval of s.approvals) {
    if (!conversations.has(approval.conversationId))
      v.push(`approval ${approval.id} for a deleted conversation`);
  }
  if (new Set(s.conversations.pending.map((a) => a.id)).size !== s.conversations.pending.length)
    v.push('a pending attachment appears twice');
  if (!s.models.list.some((m) => m.id === s.models.current))
    v.push(`the current model ${s.models.current} is not listed`);
  return v;
}

/** The parts of a snapshot an action could change (media ids are re-issued, so left out). */
export function comparable(s: Snapshot): string {
  return JSON.stringify(s, (key, value: unknown) => (key === 'media' ? undefined : value));
}

/**
 * That an applied action did all it says, seen in the state after it (and after its reply, if
 * any, has finished): what was selected is current, what was renamed has the name, what was
 * deleted is gone. Returns the violations.
 */
export function appliedViolations(
  action: Action,
  result: unknown,
  before: Snapshot,
  after: Snapshot,
): string[] {
  const v: string[] = [];
  const r = (result ?? {}) as Record<string, unknown>;
  const listed = (id: unknown) => after.conversations.list.some((c) => c.id === id);
  switch (action.action) {
    case 'send':
      if (
        !after.conversations.messages.some(
          (m) => m.id === r.messageId && m.role === 'user' && m.text === action.text,
        )
      )
        v.push('a sent message is not on the current branch');
      break;
    case 'newConversation':
      if (after.conversationId !== r.conversationId || !listed(r.conversationId))
        v.push('a new conversation is not the current one');
      if (after.sessionRevision <= before.sessionRevision)
        v.push('a new conversation did not advance sessionRevision');
      break;
    case 'selectConversation':
      if (after.conversationId !== action.conversationId) v.push('the selected conversation is not current');
      if (action.conversationId !== before.conversationId && after.sessionRevision <= before.sessionRevision)
        v.push('selecting another conversation did not advance sessionRevision');
      break;
    case 'selectProject':
      if (after.projectId !== r.projectId) v.push('the selected project is not current');
      break;
    case 'renameConversation':
      // The host trims titles (keeping an all-blank one as given).
      if (
        after.conversations.list.find((c) => c.id === action.conversationId)?.title !==
        (action.title.trim() || action.title)
      )
        v.push('a renamed conversation does not have its new title');
      break;
    case 'deleteConversation':
      if (listed(action.conversationId)) v.push('a deleted conversation is still listed');
      break;
    case 'updateSettings':
      // Against the result, not the request: the host normalises (autoApprove loses duplicates).
      if (JSON.stringify(after.settings) !== JSON.stringify(r.settings))
        v.push('the settings are not the ones answered');
      for (const key of Object.keys(action.settings)) {
        if (!(key in after.settings)) v.push(`setting ${key} is gone`);
      }
      break;
    case 'model':
      if (after.models.current !== action.modelId) v.push('the chosen model is not current');
      break;
    case 'removeAttachment':
      if (after.conversations.pending.some((a) => a.id === action.attachmentId))
        v.push('a removed attachment is still pending');
      break;
    case 'approve':
      if (after.approvals.some((a) => a.id === action.approvalId))
        v.push('a decided approval is still pending');
      break;
    case 'stop':
    case 'continue':
    case 'workspace':
    case 'branch':
    case 'editMessage':
    case 'regenerate':
    case 'refreshMedia':
    case 'pushStatus':
    case 'subscribePush':
    case 'unsubscribePush':
    case 'reportPresence':
    case 'agentMode':
    case 'agentOption':
    case 'agentSessions':
    case 'openAgentSession':
      break;
    default: {
      const never: never = action;
      throw new Error(`unknown action ${JSON.stringify(never)}`);
    }
  }
  return v;
}
