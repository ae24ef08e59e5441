import type { StoredConversation } from '../db/ConversationTable';
import type { HostStore } from '../db/HostStore';
import type { StoredMessage } from '../db/StoredMessage';
import { newId } from '../ids';
import { notFound } from './errors';
import type { MessageRepository } from './MessageRepository';

/** The tables the selection reads and remembers itself in. */
type SelectionStore = Pick<HostStore, 'transaction' | 'projects' | 'conversations' | 'kv'>;

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

  private readonly store: SelectionStore;
  private readonly messages: MessageRepository;
  private readonly isModel: (id: string) => boolean;

  constructor(
    store: SelectionStore,
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
    if (this.store.projects.all().length === 0) {
      this.store.projects.insert({
        id: newId(),
        name: 'Default',
        workspacePath: defaultWorkspace,
        createdAt: Date.now(),
      });
    }
    const model = this.store.kv.get(KV_MODEL);
    if (model !== undefined && this.isModel(model)) this.modelId = model;
    const savedConversation = this.store.kv.get(KV_CONVERSATION);
    const savedProject = this.store.kv.get(KV_PROJECT);
    const project =
      (savedProject === undefined ? undefined : this.store.projects.get(savedProject)) ??
      this.store.projects.all()[0]!;
    const conversation =
      (savedConversation === undefined ? undefined : this.store.conversations.get(savedConversation)) ??
      this.store.conversations.latestOf(project.id) ??
      this.createConversation(project.id, '');
    this.switchTo(conversation);
  }

  /** Loads a conversation into memory and makes it (and its project) current. */
  switchTo(row: StoredConversation): void {
    const tree = this.messages.open(row.id);
    this.conversationId = row.id;
    this.projectId = row.projectId;
    const leaf = row.currentLeafId;
    this.leafId = leaf !== null && tree.get(leaf) ? leaf : tree.defaultLeaf();
    if (row.modelId !== null && this.isModel(row.modelId)) this.modelId = row.modelId;
    this.store.transaction(() => {
      this.store.kv.set(KV_CONVERSATION, row.id);
      this.store.kv.set(KV_PROJECT, row.projectId);
      this.store.kv.set(KV_MODEL, this.modelId);
    });
  }

  /**
   * Chooses the model of the current conversation and of the next ones. Both writes keep only
   * their last value of the turn and run together before its commit (KvTable.set, ConversationTable.setModel), so no
   * savepoint is needed to keep them together, and a burst of switches writes once.
   */
  setModel(modelId: string): void {
    this.modelId = modelId;
    this.store.kv.set(KV_MODEL, modelId);
    this.store.conversations.setModel(this.conversationId, modelId);
  }

  /** Creates (but does not select) a conversation. */
  createConversation(projectId: string, title: string, agentId?: string): StoredConversation {
    const row: StoredConversation = {
      id: newId(),
      projectId,
      title,
      createdAt: Date.now(),
      currentLeafId: null,
      modelId: this.modelId,
      agentId: agentId ?? null,
      agentSessionId: null,
      agentUnavailable: null,
    };
    this.store.conversations.insert(row);
    return row;
  }

  /** The current conversation. */
  currentConversation(): StoredConversation {
    const row = this.store.conversations.get(this.conversationId);
    if (!row) throw notFound('conversation');
    return row;
  }

  /** The messages of the current branch, root first. */
  path(): StoredMessage[] {
    return this.messages.path(this.leafId);
  }

  /** The workspace folder of a conversation's project. */
  workspaceOf(conversationId: string): string {
    const conversation = this.store.conversations.get(conversationId);
    const project = conversation && this.store.projects.get(conversation.projectId);
    if (!project) throw notFound('project');
    return project.workspacePath;
  }

  /** Moves a conversation's branch to `leafId`; the current one's in memory too. */
  setLeaf(conversationId: string, leafId: string | null): void {
    this.store.conversations.setLeaf(conversationId, leafId);
    if (conversationId === this.conversationId) this.leafId = leafId;
  }
}
