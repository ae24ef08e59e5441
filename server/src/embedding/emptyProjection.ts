import type { ConversationSummary, Model, Projection } from '@webbridge/contract';

const NO_WORKSPACE = { uri: 'file:///', name: 'none' };

/** Options of {@link emptyProjection}. */
export interface EmptyProjectionOptions {
  /** The conversation shown first. It has no messages yet. */
  readonly conversation: ConversationSummary;
  /** The one model the app answers with; it is the current one. */
  readonly model: Model;
}

/**
 * The first projection of an app that only chats: one empty conversation in one project (named
 * `Main`, id `conversation.projectId`, no workspace root authorised), one model (the current one),
 * no tools, no approvals, default settings (system theme, nothing auto-approved, no commands, no
 * system prompt), a fresh `instanceId` (a new one per run, as the contract asks) and
 * `sessionRevision` 0. The app replaces the parts it has as it goes.
 *
 * @example
 * ```ts
 * const conversation = { id: crypto.randomUUID(), title: 'Chat', projectId: 'main', createdAt: Date.now() };
 * const store = createProjectionStore(emptyProjection({ conversation, model: { id: 'echo', name: 'Echo', provider: 'me' } }));
 * ```
 */
export function emptyProjection({ conversation, model }: EmptyProjectionOptions): Projection {
  // The contract gives every project a workspace; with no roots, none is usable.
  const project = { id: conversation.projectId, name: 'Main', workspace: NO_WORKSPACE, createdAt: 0 };
  return {
    instanceId: crypto.randomUUID(),
    sessionRevision: 0,
    conversationId: conversation.id,
    projectId: project.id,
    conversations: {
      list: [conversation],
      messages: [],
      pending: [],
      run: { state: 'idle', messageId: null },
    },
    projects: { list: [project], roots: [] },
    models: { current: model.id, list: [model] },
    tools: { list: [] },
    approvals: [],
    settings: { theme: 'system', autoApprove: [], allowCommands: false, systemPrompt: '' },
  };
}
