import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  Approval,
  ConversationSummary,
  Project,
  Settings,
  Tool as ToolView,
  Workspace,
} from '@webbridge/contract';
import { BUILTIN_AGENT } from '@webbridge/contract';
import type { ApprovalRow, ConversationRow, ProjectRow } from '../db/HostStore';
import { isToolEnabled, type Tool } from './tools/Tool';

/** The title a conversation shows until its first message names it. */
const UNTITLED = 'New conversation';

/** A conversation row as a line of the conversation list. */
export function toSummary(row: ConversationRow): ConversationSummary {
  return {
    id: row.id,
    title: row.title || UNTITLED,
    projectId: row.project_id,
    createdAt: row.created_at,
    agentId: row.agent_id ?? BUILTIN_AGENT,
    ...(row.agent_unavailable == null ? {} : { unavailable: row.agent_unavailable }),
  };
}

/** A folder as the projection shows it: its `file:` URI and its base name. */
export function toWorkspace(folder: string): Workspace {
  return { uri: pathToFileURL(folder).href, name: path.basename(folder) || folder };
}

/** A project row as the projection shows it. */
export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    workspace: toWorkspace(row.workspace_path),
    createdAt: row.created_at,
  };
}

/** A pending approval row as the projection shows it. */
export function toApproval(row: ApprovalRow): Approval {
  const approval: Approval = {
    id: row.id,
    tool: row.tool,
    summary: row.summary,
    args: row.args,
    conversationId: row.conversation_id,
    messageId: row.message_id,
    createdAt: row.created_at,
  };
  // Written by the host only (AgentTurns, ToolCalls): `{ options?, diffs? }` of the contract's shapes.
  if (row.details == null) return approval;
  const details = JSON.parse(row.details) as Pick<Approval, 'options' | 'diffs'>;
  if (details.options !== undefined) approval.options = details.options;
  if (details.diffs !== undefined) approval.diffs = details.diffs;
  return approval;
}

/** A tool as the projection lists it under the given settings. */
export function toToolView(tool: Tool, settings: Settings): ToolView {
  return {
    name: tool.name,
    description: tool.description,
    needsApproval: tool.needsApproval,
    enabled: isToolEnabled(tool, settings),
    ...(tool.server === undefined ? {} : { server: tool.server }),
  };
}
