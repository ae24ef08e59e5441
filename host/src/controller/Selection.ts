import type { HostAttachment } from '@webbridge/contract';
import type { ConversationRow, HostStore, MessagePatch, MessageRow } from '../db/HostStore';
import { newId } from '../ids';
import { notFound } from './errors';
import { ConversationTree } from './tree';

const KV_CONVERSATION = 'current_conversation';
const KV_PROJECT = 'current_project';
const KV_MODEL = 'current_model';

/**
 * Where the controller is: the current conversation (held in memory as a tree), its project,
 * its branch leaf and the current model, plus the writes that keep that memory and SQLite in
 * step. Writes to other conversations (a reply finishing in the background) go to SQLite only.
 */
export class Selection {
  conversationId = '';
  projectId = '';
  leafId: string | null = null;
  modelId: string;
  tree: ConversationTree = new ConversationTree('', [], []);

  private readonly store: HostStore;
  private readonly isModel: (id: string) => boolean;

  constructor(store: HostStore, defaultModel: string, isModel: (id: string) => boolean) {
    this.store = store;
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
    const tree = new ConversationTree(
      row.id,
      this.store.messages(row.id),
      this.store.attachmentsOfConversation(row.id),
    );
    this.tree = tree;
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
  createConversation(projectId: string, title: string): ConversationRow {
    const row: ConversationRow = {
      id: newId(),
      project_id: projectId,
      title,
      created_at: Date.now(),
      current_leaf_id: null,
      model_id: this.modelId,
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
  path(): MessageRow[] {
    return this.tree.path(this.leafId);
  }

  /** The workspace folder of a conversation's project. */
  workspaceOf(conversationId: string): string {
    const conversation = this.store.conversation(conversationId);
    const project = conversation && this.store.project(conversation.project_id);
    if (!project) throw notFound('project');
    return project.workspace_path;
  }

  /** A new message row (not yet inserted), last among its siblings. */
  newMessage(
    parentId: string | null,
    role: MessageRow['role'],
    text: string,
    status: MessageRow['status'],
    extra: { model?: string; conversationId?: string } = {},
  ): MessageRow {
    const conversationId = extra.conversationId ?? this.conversationId;
    return {
      id: newId(),
      conversation_id: conversationId,
      parent_id: parentId,
      role,
      text,
      status,
      created_at: Date.now(),
      model: extra.model ?? null,
      error: null,
      tool_name: null,
      tool_args: null,
      approval_id: null,
      sibling_order: this.store.nextSiblingOrder(conversationId, parentId),
    };
  }

  insertMessage(row: MessageRow): void {
    this.store.insertMessage(row);
    if (row.conversation_id === this.conversationId) this.tree.add(row);
  }

  /** Shows attachments already recorded for a message on the tree, when it is the current conversation's. */
  attach(conversationId: string, messageId: string, attachments: readonly HostAttachment[]): void {
    if (conversationId === this.conversationId) this.tree.attach(messageId, attachments);
  }

  patchMessage(conversationId: string, messageId: string, patch: MessagePatch): MessageRow {
    this.store.patchMessage(messageId, patch);
    if (conversationId === this.conversationId && this.tree.get(messageId)) {
      return this.tree.patch(messageId, patch);
    }
    const row = this.store.message(messageId);
    if (!row) throw notFound('message');
    return row;
  }

  /** Appends streamed text. Returns whether the message is in the current conversation. */
  appendText(conversationId: string, messageId: string, text: string): boolean {
    this.store.appendText(messageId, text);
    if (conversationId !== this.conversationId) return false;
    return this.tree.appendText(messageId, text) !== undefined;
  }

  setLeaf(conversationId: string, leafId: string | null): void {
    this.store.setConversationLeaf(conversationId, leafId);
    if (conversationId === this.conversationId) this.leafId = leafId;
  }
}
