import { type ActionResultOf, BUILTIN_AGENT } from '@webbridge/contract';
import type { ConversationTable } from '../db/ConversationTable';
import type { ProjectTable } from '../db/ProjectTable';
import type { ModelRegistry } from '../models/ModelRegistry';
import type { AgentSessions } from './AgentSessions';
import type { Attachments } from './Attachments';
import type { ControllerSteps } from './ControllerSteps';
import { notApplicable, notFound } from './errors';
import type { ProjectionPublisher } from './ProjectionPublisher';
import type { ReplyRunner } from './ReplyRunner';
import type { Selection } from './Selection';
import { withModels } from './withModels';

/** What {@link ConversationActions} works with. */
export interface ConversationActionsDeps {
  readonly store: {
    readonly projects: Pick<ProjectTable, 'get'>;
    readonly conversations: Pick<ConversationTable, 'get' | 'latestOf' | 'setTitle' | 'delete'>;
  };
  readonly selection: Pick<Selection, 'projectId' | 'conversationId' | 'createConversation' | 'setModel'>;
  readonly attachments: Pick<Attachments, 'filesOf' | 'removeFiles'>;
  readonly runner: Pick<ReplyRunner, 'stop'>;
  readonly registry: Pick<ModelRegistry, 'has'>;
  readonly publisher: Pick<ProjectionPublisher, 'patch'>;
  readonly steps: Pick<ControllerSteps, 'moveTo' | 'refresh'>;
  readonly agentSessions: Pick<AgentSessions, 'has' | 'forget' | 'warm'>;
}

/**
 * The actions on conversations as a whole: create, select, rename, delete, and choose the
 * current conversation's model. Each throws `ProtocolError` (`not_found`, `not_applicable`) when
 * it does not apply, and publishes the new projection when it does.
 */
export class ConversationActions {
  private readonly store: ConversationActionsDeps['store'];
  private readonly selection: ConversationActionsDeps['selection'];
  private readonly attachments: ConversationActionsDeps['attachments'];
  private readonly runner: ConversationActionsDeps['runner'];
  private readonly registry: ConversationActionsDeps['registry'];
  private readonly publisher: ConversationActionsDeps['publisher'];
  private readonly steps: ConversationActionsDeps['steps'];
  private readonly agentSessions: ConversationActionsDeps['agentSessions'];

  constructor(deps: ConversationActionsDeps) {
    this.agentSessions = deps.agentSessions;
    this.store = deps.store;
    this.selection = deps.selection;
    this.attachments = deps.attachments;
    this.runner = deps.runner;
    this.registry = deps.registry;
    this.publisher = deps.publisher;
    this.steps = deps.steps;
  }

  /**
   * Creates a conversation (in the given or the current project) backed by an agent (default:
   * the built-in loop) and makes it current. An ACP agent's session is opened on the first send.
   */
  newConversation(projectId?: string, title?: string, agentId?: string): ActionResultOf<'newConversation'> {
    const project = projectId ?? this.selection.projectId;
    if (!this.store.projects.get(project)) throw notFound('project');
    const agent = agentId === undefined || agentId === BUILTIN_AGENT ? undefined : agentId;
    if (agent !== undefined && !this.agentSessions.has(agent)) throw notFound('agent');
    const row = this.selection.createConversation(project, title?.trim() ?? '', agent);
    this.steps.moveTo(row.id);
    if (agent !== undefined) this.agentSessions.warm(row.id);
    return { conversationId: row.id };
  }

  /**
   * Makes another conversation current. An agent's conversation has its session opened now (after
   * a restart: `session/load`), so its modes and settings show before the next send.
   */
  selectConversation(conversationId: string): ActionResultOf<'selectConversation'> {
    const conversation = this.store.conversations.get(conversationId);
    if (!conversation) throw notFound('conversation');
    // Selecting the current one again must not bump the session revision and refuse clients.
    if (conversationId !== this.selection.conversationId) this.steps.moveTo(conversationId);
    if (conversation.agentId != null && conversation.agentUnavailable == null) {
      this.agentSessions.warm(conversationId);
    }
    return { conversationId };
  }

  /** Renames a conversation. */
  renameConversation(conversationId: string, title: string): ActionResultOf<'renameConversation'> {
    if (!this.store.conversations.get(conversationId)) throw notFound('conversation');
    this.store.conversations.setTitle(conversationId, title.trim() || title);
    this.steps.refresh();
    return { conversationId };
  }

  /**
   * Deletes a conversation with its messages, approvals and attachment files. Deleting the
   * current one selects the project's newest other conversation, or a new one.
   */
  deleteConversation(conversationId: string): ActionResultOf<'deleteConversation'> {
    const { store, selection, attachments } = this;
    const row = store.conversations.get(conversationId);
    if (!row) throw notFound('conversation');
    this.runner.stop(conversationId);
    this.agentSessions.forget(conversationId);
    const files = attachments.filesOf(conversationId);
    store.conversations.delete(conversationId);
    attachments.removeFiles(files);
    if (conversationId === selection.conversationId) {
      const next =
        store.conversations.latestOf(row.projectId) ?? selection.createConversation(row.projectId, '');
      this.steps.moveTo(next.id);
    } else {
      this.steps.refresh();
    }
    return { conversationId };
  }

  /** Chooses the model for the current conversation and the next ones. */
  setModel(modelId: string): ActionResultOf<'model'> {
    if (!this.registry.has(modelId)) throw notApplicable(`There is no model "${modelId}".`);
    this.selection.setModel(modelId);
    // Only the current model changed: a patch, not a rebuild of every group from the store.
    this.publisher.patch((p) =>
      p.models.current === modelId ? p : withModels(p, { ...p.models, current: modelId }),
    );
    return { modelId };
  }
}
