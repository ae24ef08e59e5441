import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  ConversationSummary,
  Project,
  Settings,
  Tool as ToolView,
  Workspace,
} from '@webbridge/contract';
import { BUILTIN_AGENT } from '@webbridge/contract';
import type { StoredConversation } from '../db/ConversationTable';
import type { StoredProject } from '../db/ProjectTable';
import { isToolEnabled, type Tool } from './tools/Tool';

/** The title a conversation shows until its first message names it. */
const UNTITLED = 'New conversation';

/** A stored conversation as a line of the conversation list. */
export function toSummary(conversation: StoredConversation): ConversationSummary {
  return {
    id: conversation.id,
    title: conversation.title || UNTITLED,
    projectId: conversation.projectId,
    createdAt: conversation.createdAt,
    agentId: conversation.agentId ?? BUILTIN_AGENT,
    ...(conversation.agentUnavailable === null ? {} : { unavailable: conversation.agentUnavailable }),
  };
}

/** A folder as the projection shows it: its `file:` URI and its base name. */
export function toWorkspace(folder: string): Workspace {
  return { uri: pathToFileURL(folder).href, name: path.basename(folder) || folder };
}

/** A stored project as the projection shows it. */
export function toProject(project: StoredProject): Project {
  return {
    id: project.id,
    name: project.name,
    workspace: toWorkspace(project.workspacePath),
    createdAt: project.createdAt,
  };
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
