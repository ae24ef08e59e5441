import type { Projection, RunStatus, SessionIdentity, Settings } from '@webbridge/contract';
import type { HostStore } from '../db/HostStore';
import type { ModelInfo } from '../models/ModelProvider';
import { toApproval, toProject, toSummary, toToolView, toWorkspace } from './projection';
import type { Selection } from './Selection';
import { toHostMessage } from './toHostMessage';
import { BUILTIN_TOOLS } from './tools/builtinTools';
import { toHostAttachment } from './tree';

/** Everything a projection is built from. */
export interface ProjectionSources {
  readonly store: HostStore;
  readonly selection: Selection;
  readonly identity: SessionIdentity;
  /** The reply streaming in the current conversation, if any. */
  readonly streamingMessageId: string | undefined;
  readonly roots: readonly string[];
  readonly models: readonly ModelInfo[];
  readonly settings: Settings;
}

/** Never changes, so it is built once and keeps its identity forever. */
const TOOLS_GROUP: Projection['tools'] = { list: BUILTIN_TOOLS.map(toToolView) };

/**
 * Builds a complete, fresh projection. The caller passes it through `share` against the
 * previous one, so the fresh objects of unchanged parts are dropped again.
 */
export function buildProjection(sources: ProjectionSources): Projection {
  const { store, selection, identity } = sources;
  const approvals = store.pendingApprovals().map(toApproval);
  return {
    ...identity,
    conversations: {
      list: store.conversations().map(toSummary),
      messages: selection.path().map((row) => toHostMessage(row, selection.tree)),
      pending: store.pendingAttachments(identity.conversationId).map(toHostAttachment),
      run: runStatus(identity.conversationId, sources.streamingMessageId, approvals),
    },
    projects: { list: store.projects().map(toProject), roots: sources.roots.map(toWorkspace) },
    models: { current: selection.modelId, list: [...sources.models] },
    tools: TOOLS_GROUP,
    approvals,
    settings: sources.settings,
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
