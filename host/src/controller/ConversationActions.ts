import type { ActionResultOf } from '@webbridge/contract';
import type { ControllerCore } from './ControllerCore';
import { notApplicable, notFound } from './errors';

/**
 * The actions on conversations as a whole: create, select, rename, delete, and choose the
 * current conversation's model. Each throws `ProtocolError` (`not_found`, `not_applicable`) when
 * it does not apply, and publishes the new projection when it does.
 */
export class ConversationActions {
  private readonly core: ControllerCore;

  constructor(core: ControllerCore) {
    this.core = core;
  }

  /** Creates a conversation (in the given or the current project) and makes it current. */
  newConversation(projectId?: string, title?: string): ActionResultOf<'newConversation'> {
    const { core } = this;
    const project = projectId ?? core.selection.projectId;
    if (!core.store.project(project)) throw notFound('project');
    const row = core.selection.createConversation(project, title?.trim() ?? '');
    core.moveTo(row.id);
    return { conversationId: row.id };
  }

  /** Makes another conversation current. */
  selectConversation(conversationId: string): ActionResultOf<'selectConversation'> {
    const { core } = this;
    if (!core.store.conversation(conversationId)) throw notFound('conversation');
    // Selecting the current one again must not bump the session revision and refuse clients.
    if (conversationId !== core.selection.conversationId) core.moveTo(conversationId);
    return { conversationId };
  }

  /** Renames a conversation. */
  renameConversation(conversationId: string, title: string): ActionResultOf<'renameConversation'> {
    const { core } = this;
    if (!core.store.conversation(conversationId)) throw notFound('conversation');
    core.store.setConversationTitle(conversationId, title.trim() || title);
    core.refresh();
    return { conversationId };
  }

  /**
   * Deletes a conversation with its messages, approvals and attachment files. Deleting the
   * current one selects the project's newest other conversation, or a new one.
   */
  deleteConversation(conversationId: string): ActionResultOf<'deleteConversation'> {
    const { core } = this;
    const row = core.store.conversation(conversationId);
    if (!row) throw notFound('conversation');
    core.runner.stop(conversationId);
    const files = core.attachments.filesOf(conversationId);
    core.store.deleteConversation(conversationId);
    core.attachments.removeFiles(files);
    if (conversationId === core.selection.conversationId) {
      const next =
        core.store.latestConversation(row.project_id) ??
        core.selection.createConversation(row.project_id, '');
      core.moveTo(next.id);
    } else {
      core.refresh();
    }
    return { conversationId };
  }

  /** Chooses the model for the current conversation and the next ones. */
  setModel(modelId: string): ActionResultOf<'model'> {
    const { core } = this;
    if (!core.registry.has(modelId)) throw notApplicable(`There is no model "${modelId}".`);
    core.selection.setModel(modelId);
    // Only the current model changed: a patch, not a rebuild of every group from the store.
    core.publisher.patch((p) =>
      p.models.current === modelId ? p : { ...p, models: { ...p.models, current: modelId } },
    );
    return { modelId };
  }
}
