import type { Projection, RunStatus, SessionIdentity, Settings } from '@webbridge/contract';
import type { HostStore } from '../db/HostStore';
import type { ModelInfo } from '../models/ModelProvider';
import { toHostAttachment } from './ConversationTree';
import type { MessageRepository } from './MessageRepository';
import { toProject, toSummary, toToolView, toWorkspace } from './projectionParts';
import type { Selection } from './Selection';
import type { Tool } from './tools/Tool';
import type { ToolServerView } from './tools/ToolSource';

/** Everything a projection is built from. */
export interface ProjectionSources {
  /** The stored lists: conversations, pending attachments, projects, approvals. */
  readonly store: Pick<HostStore, 'conversations' | 'attachments' | 'projects' | 'approvals'>;
  readonly selection: Selection;
  readonly messages: MessageRepository;
  readonly identity: SessionIdentity;
  /** The reply streaming in the current conversation, if any. */
  readonly streamingMessageId: string | undefined;
  readonly roots: readonly string[];
  readonly models: readonly ModelInfo[];
  readonly tools: readonly Tool[];
  /** The MCP servers' status; absent when the host has none configured. */
  readonly servers?: readonly ToolServerView[];
  readonly settings: Settings;
  /** The agents and the current conversation's agent session. */
  readonly agents: NonNullable<Projection['agents']>;
}

/**
 * Builds a complete, fresh projection. The caller passes it through `share` against the
 * previous one, so the fresh objects of unchanged parts are dropped again.
 */
export function buildProjection(sources: ProjectionSources): Projection {
  const { store, selection, identity } = sources;
  const approvals = store.approvals.pending();
  const decisions = store.approvals.decisionsOf(identity.conversationId);
  return {
    ...identity,
    conversations: {
      list: store.conversations.all().map(toSummary),
      messages: sources.messages.shown(selection.leafId, decisions),
      pending: store.attachments.pending(identity.conversationId).map(toHostAttachment),
      run: runStatus(identity.conversationId, sources.streamingMessageId, approvals),
    },
    projects: { list: store.projects.all().map(toProject), roots: sources.roots.map(toWorkspace) },
    models: { current: selection.modelId, list: [...sources.models] },
    // Rebuilt each time; `share` keeps the previous object while nothing in it changed.
    tools: {
      list: sources.tools.map((tool) => toToolView(tool, sources.settings)),
      ...(sources.servers === undefined ? {} : { servers: [...sources.servers] }),
    },
    approvals,
    settings: sources.settings,
    agents: sources.agents,
  };
}

function runStatus(
  conversationId: string,
  streaming: string | undefined,
  approvals: Projection['approvals'],
): RunStatus {
  if (streaming !== undefined) return { state: 'streaming', messageId: streaming };
  const waiting = approvals.find((approval) => approval.conversationId === conversationId);
  if (waiting) return { state: 'waiting_approval', messageId: waiting.messageId };
  return { state: 'idle', messageId: null };
}
