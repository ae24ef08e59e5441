import type { ConversationRow, HostStore } from '../db/HostStore';
import type { StoredMessage } from '../db/StoredMessage';
import { newId } from '../ids';
import { notFound } from './errors';
import type { MessageRepository } from './MessageRepository';

const KV_CONVERSATION = 'current_conversation';
const KV_PROJECT = 'current_project';
const KV_MODEL = 'current_model';

/**
 * Where the controller is: the current conversation, its project, its branch leaf and the
 * current model, remembered across restarts. The conversation's messages are the
 * {@link MessageRepository}'s; selecting a conversation opens it there.
 */
export class Selection {
  conversationId = '';
  projectId = '';
  leafId: string | null = null;
  modelId: string;

  private readonly store: HostStore;
  private readonly messages: MessageRepository;
  private readonly isModel: (id: string) => boolean;

  constructor(
    store: HostStore,
    messages: MessageRepository,
    defaultModel: string,
    isModel: (id: string) => boolean,
  ) {
    this.store = store;
    this.messages = messages;
    this.modelId = defaultModel;
    this.isModel = isModel;
  }

  /** At startup: a default project, at least one conversation, and the last selection. */
  restore(defaultWorkspace: string): void {
    if (this.store.projects().length === 0) {
      this.store.insertProject({
        id: newId(),
        name: 'Default',
        workspace_path: defaultWorkspace,
        created_at: Date.now(),
      });
    }
    const model = this.store.kv(KV_MODEL);
    if (model !== undefined && this.isModel(model)) this.modelId = model;
    const savedConversation = this.store.kv(KV_CONVERSATION);
    const savedProject = this.store.kv(KV_PROJECT);
    const project =
      (savedProject === undefined ? undefined : this.store.project(savedProject)) ??
      this.store.projects()[0]!;
    const conversation =
      (savedConversation === undefined ? undefined : this.store.conversation(savedConversation)) ??
      this.store.latestConversation(project.id) ??
      this.createConversation(project.id, '');
    this.switchTo(conversation);
  }

  /** Loads a conversation into memory and makes it (and its project) current. */
  switchTo(row: ConversationRow): void {
    const tree = this.messages.open(row.id);
    this.conversationId = row.id;
    this.projectId = row.project_id;
    const leaf = row.current_leaf_id;
    this.leafId = leaf !== null && tree.get(leaf) ? leaf : tree.defaultLeaf();
    if (row.model_id !== null && this.isModel(row.model_id)) this.modelId = row.model_id;
    this.store.transaction(() => {
      this.store.setKv(KV_CONVERSATION, row.id);
      this.store.setKv(KV_PROJECT, row.project_id);
      this.store.setKv(KV_MODEL, this.modelId);
    });
  }

  /**
   * Chooses the model of the current conversation and of the next ones. Both writes keep only
   * their last value of the turn and run together before its commit (HostStore.setKv), so no
   * savepoint is needed to keep them together, and a burst of switches writes once.
   */
  setModel(modelId: string): void {
    this.modelId = modelId;
    this.store.setKv(KV_MODEL, modelId);
    this.store.setConversationModel(this.conversationId, modelId);
  }

  /** Creates (but does not select) a conversation. */
  createConversation(projectId: string, title: string, agentId?: string): ConversationRow {
    const row: ConversationRow = {
      id: newId(),
      project_id: projectId,
      title,
      created_at: Date.now(),
      current_leaf_id: null,
      model_id: this.modelId,
      ...(agentId === undefined ? {} : { agent_id: agentId }),
    };
    this.store.insertConversation(row);
    return row;
  }

  /** The current conversation's row. */
  currentConversation(): ConversationRow {
    const row = this.store.conversation(this.conversationId);
    if (!row) throw notFound('conversation');
    return row;
  }

  /** The messages of the current branch, root first. */
  path(): StoredMessage[] {
    return this.messages.path(this.leafId);
  }

  /** The workspace folder of a conversation's project. */
  workspaceOf(conversationId: string): string {
    const conversation = this.store.conversation(conversationId);
    const project = conversation && this.store.project(conversation.project_id);
    if (!project) throw notFound('project');
    return project.workspace_path;
  }

  /** Moves a conversation's branch to `leafId`; the current one's in memory too. */
  setLeaf(conversationId: string, leafId: string | null): void {
    this.store.setConversationLeaf(conversationId, leafId);
    if (conversationId === this.conversationId) this.leafId = leafId;
  }
}
