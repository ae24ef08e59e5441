import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type {
  ActionOf,
  ActionResultOf,
  HostAttachment,
  Projection,
  SessionIdentity,
  Settings,
} from '@webbridge/contract';
import { BridgeError } from '@webbridge/server';
import type { AttachmentRow, HostStore, MessageRow } from '../db/HostStore';
import type { MainExecutor } from '../executor/MainExecutor';
import { newId } from '../ids';
import { EchoModel } from '../models/EchoModel';
import { ModelError } from '../models/ModelError';
import type { ModelProvider } from '../models/ModelProvider';
import { ModelRegistry } from '../models/ModelRegistry';
import type { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import { type AttachmentFile, Attachments } from './Attachments';
import { buildProjection } from './buildProjection';
import { notApplicable, notFound } from './errors';
import { modelHistory, offeredTools } from './modelHistory';
import { ReplyRunner, type ReplySink } from './ReplyRunner';
import { Selection } from './Selection';
import { loadSettings, mergeSettings } from './settings';
import { share } from './share';
import { ToolCalls } from './ToolCalls';
import { BUILTIN_TOOLS } from './tools/builtinTools';
import type { Tool } from './tools/Tool';
import { toHostAttachment } from './tree';

/** Options of {@link ChatController}. */
export interface ChatControllerOptions {
  /** The opened store (see `openDatabase`). The controller closes it on `close()`. */
  readonly store: HostStore;
  /** The main executor replies report back through. */
  readonly executor: MainExecutor;
  /** Decides which workspace folders are allowed; its first root is the default project's. */
  readonly authoriser: WorkspaceAuthoriser;
  /** Pause between echoed words. @default 30 */
  readonly echoDelayMs?: number;
  /** More model providers beside the echo model. */
  readonly providers?: readonly ModelProvider[];
  /** The bridge's upload folder, where the host also stores large tool results. */
  readonly uploadDir: string;
  /** The tools the models may call. @default BUILTIN_TOOLS */
  readonly tools?: readonly Tool[];
}

/** The kv key of the roots authorised from the console, a JSON array of absolute paths. */
const KV_ADDED_ROOTS = 'added_workspace_roots';

/** Longest automatic title taken from a conversation's first message. */
const TITLE_LENGTH = 60;

/**
 * Most tool rounds a model may chain after one user message before the controller stops asking
 * it again, so a model that keeps calling tools cannot loop forever.
 */
const MAX_TOOL_ROUNDS = 8;

/**
 * The reference host's chat controller: conversations as trees of messages in SQLite,
 * projects with a workspace each, models, tools with approvals, settings.
 *
 * It keeps an immutable {@link Projection} and replaces it on every change with structural
 * sharing: whatever did not change keeps its object identity (a streamed word makes a new
 * object only for the message that grew and the arrays and groups that contain it), which the
 * bridge relies on to diff by reference. Subscribers are told synchronously after each change.
 *
 * Every method that reads or changes state must run on the main executor; the action methods
 * throw `BridgeError` (`not_found`, `not_applicable`) when they do not apply.
 */
export class ChatController {
  /** The executor every state change runs on. */
  readonly executor: MainExecutor;
  /** The authorised workspace roots. */
  readonly authoriser: WorkspaceAuthoriser;
  /** Random id of this run of the host process. */
  readonly instanceId: string = randomBytes(12).toString('base64url');

  private readonly store: HostStore;
  private readonly runner: ReplyRunner;
  private readonly selection: Selection;
  private readonly toolCalls: ToolCalls;
  private readonly attachments: Attachments;
  private readonly registry: ModelRegistry;
  private readonly tools: readonly Tool[];
  private readonly listeners = new Set<() => void>();
  private sessionRevision = 0;
  private settings: Settings;
  private projection: Projection | undefined;
  private closed = false;

  constructor(options: ChatControllerOptions) {
    this.store = options.store;
    this.executor = options.executor;
    this.authoriser = options.authoriser;
    const echo = new EchoModel(options.echoDelayMs === undefined ? {} : { delayMs: options.echoDelayMs });
    this.registry = new ModelRegistry([echo, ...(options.providers ?? [])]);
    this.runner = new ReplyRunner(this.executor, this.replySink());
    this.selection = new Selection(this.store, this.registry.defaultModel, (id) => this.registry.has(id));
    this.attachments = new Attachments(this.store, options.uploadDir);
    this.tools = options.tools ?? BUILTIN_TOOLS;
    this.toolCalls = new ToolCalls({
      store: this.store,
      selection: this.selection,
      tools: this.tools,
      attachments: this.attachments,
      runner: this.runner,
      onBackgroundResult: (conversationId, result) => {
        if (this.closed) return;
        this.followToolResult(conversationId, result);
        this.refresh();
      },
    });
    this.settings = loadSettings(this.store);
    this.store.stopInterruptedMessages();
    for (const root of this.addedRoots()) {
      try {
        this.authoriser.addRoot(root);
      } catch {
        // The folder is gone (unmounted, deleted): it stays remembered but unusable until it returns.
      }
    }
    const defaultWorkspace = this.authoriser.roots[0];
    if (defaultWorkspace === undefined) throw new Error('At least one workspace root is needed.');
    this.selection.restore(defaultWorkspace);
    this.refresh();
  }

  /** The current projection (immutable; cheap). */
  readState(): Projection {
    if (!this.projection) throw new Error('The controller is not initialised.');
    return this.projection;
  }

  /** Where a send would land now. */
  identity(): SessionIdentity {
    const { conversationId, projectId } = this.selection;
    return { instanceId: this.instanceId, sessionRevision: this.sessionRevision, conversationId, projectId };
  }

  /** Calls `listener` synchronously after every change of the projection. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Stops every reply (cancelling its timers) and closes the database. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.runner.stopAll();
    this.listeners.clear();
    this.store.close();
  }

  /** Sends a user message (with pending attachments) and starts the reply. */
  send(text: string, attachmentIds?: readonly string[]): ActionResultOf<'send'> {
    this.assertIdle();
    const { selection } = this;
    const chosen = this.attachments.pick(selection.conversationId, attachmentIds);
    if (text.trim() === '' && chosen.length === 0) throw notApplicable('There is nothing to send.');
    const conversation = selection.currentConversation();
    const user = selection.newMessage(selection.leafId, 'user', text, 'complete');
    const reply = selection.newMessage(user.id, 'assistant', '', 'streaming', { model: selection.modelId });
    this.store.transaction(() => {
      selection.insertMessage(user);
      for (const attachment of chosen) this.store.attachToMessage(attachment.id, user.id);
      selection.insertMessage(reply);
      selection.setLeaf(conversation.id, reply.id);
      if (conversation.title === '')
        this.store.setConversationTitle(conversation.id, titleFrom(text, chosen));
    });
    selection.tree.attach(user.id, chosen.map(toHostAttachment));
    this.startReply(reply);
    this.refresh();
    return { conversationId: conversation.id, messageId: user.id, replyId: reply.id };
  }

  /** Stops the current conversation's reply, or cancels the approval it waits for. */
  stop(): ActionResultOf<'stop'> {
    const conversationId = this.selection.conversationId;
    const streaming = this.runner.streamingMessage(conversationId);
    if (streaming !== undefined && this.runner.stop(conversationId)) {
      this.selection.patchMessage(conversationId, streaming, { status: 'stopped' });
    } else if (!this.toolCalls.cancel(conversationId)) {
      // Not an error: a stop that races the reply's own end is normal and should not alarm anyone.
      return { stopped: false };
    }
    this.refresh();
    return { stopped: true };
  }

  /** Resumes the stopped reply at the end of the current branch. */
  continue(): ActionResultOf<'continue'> {
    this.assertIdle();
    const { selection } = this;
    const leaf = selection.leafId === null ? undefined : selection.tree.get(selection.leafId);
    if (leaf?.role !== 'assistant' || leaf.tool_name !== null) {
      throw notApplicable('The conversation does not end with a reply that can be continued.');
    }
    if (leaf.status !== 'stopped' && leaf.status !== 'error')
      throw notApplicable('The last reply is not stopped.');
    const row = selection.patchMessage(selection.conversationId, leaf.id, {
      status: 'streaming',
      error: null,
    });
    this.startReply(row);
    this.refresh();
    return { messageId: leaf.id };
  }

  /** Points the current project at another (already authorised) workspace folder. */
  setWorkspace(uri: string): ActionResultOf<'workspace'> {
    // The bridge has authorised the URI already; checking again costs little and keeps the
    // controller safe when it is driven by something other than the bridge.
    const folder = this.authoriser.authorisePath(uri);
    if (folder === undefined) throw new BridgeError('workspace_forbidden', 'That folder is not authorised.');
    const { projectId } = this.selection;
    if (this.store.project(projectId)?.workspace_path !== folder) {
      this.store.setProjectWorkspace(projectId, folder);
      this.sessionRevision++;
      this.refresh();
    }
    return { projectId, uri: pathToFileURL(folder).href };
  }

  /** Chooses the model for the current conversation and the next ones. */
  setModel(modelId: string): ActionResultOf<'model'> {
    if (!this.registry.has(modelId)) throw notApplicable(`There is no model "${modelId}".`);
    this.selection.setModel(modelId);
    this.refresh();
    return { modelId };
  }

  /** Switches the fork at `messageId` (on the current branch) to its sibling at `index`. */
  branch(messageId: string, index: number): ActionResultOf<'branch'> {
    this.assertIdle();
    const { tree } = this.selection;
    if (!tree.get(messageId)) throw notFound('message');
    const siblings = tree.siblingsOf(messageId);
    const onBranch = new Set(this.selection.path().map((row) => row.id));
    // Any sibling of the one shown will do: they name the same fork, and a client that has
    // just switched may still hold the id it switched away from.
    if (!siblings.some((id) => onBranch.has(id))) {
      throw notApplicable('That message is not at a fork of the current branch.');
    }
    const target = siblings[index];
    if (target === undefined) throw notApplicable('That message has no sibling at this index.');
    const leaf = tree.newestDeepestLeaf(target);
    if (leaf !== this.selection.leafId) {
      this.selection.setLeaf(this.selection.conversationId, leaf);
      this.sessionRevision++;
      this.refresh();
    }
    return { messageId: target };
  }

  /** Adds an edited version of a user message as its new sibling, and answers it. */
  editMessage(messageId: string, text: string): ActionResultOf<'editMessage'> {
    this.assertIdle();
    const { selection } = this;
    const original = selection.tree.get(messageId);
    if (!original) throw notFound('message');
    if (original.role !== 'user') throw notApplicable('Only user messages can be edited.');
    const attachments = this.attachments.ofMessage(selection.conversationId, messageId);
    if (text.trim() === '' && attachments.length === 0) throw notApplicable('An edit cannot be empty.');
    const user = selection.newMessage(original.parent_id, 'user', text, 'complete');
    const reply = selection.newMessage(user.id, 'assistant', '', 'streaming', { model: selection.modelId });
    // The edit keeps the original's attachments: copies of their rows share the file, which is
    // deleted with the conversation, never before.
    const copies = attachments.map((row) => ({ ...row, id: newId(), message_id: user.id }));
    this.store.transaction(() => {
      selection.insertMessage(user);
      for (const copy of copies) this.store.insertAttachment(copy);
      selection.insertMessage(reply);
      selection.setLeaf(selection.conversationId, reply.id);
    });
    selection.tree.attach(user.id, copies.map(toHostAttachment));
    this.sessionRevision++;
    this.startReply(reply);
    this.refresh();
    return { messageId: user.id, replyId: reply.id };
  }

  /** Answers again the message an assistant reply answered (default: the last reply). */
  regenerate(messageId?: string): ActionResultOf<'regenerate'> {
    this.assertIdle();
    const { selection } = this;
    const target =
      messageId === undefined
        ? selection
            .path()
            .reverse()
            .find((row) => row.role === 'assistant')
        : selection.tree.get(messageId);
    if (!target) {
      if (messageId !== undefined) throw notFound('message');
      throw notApplicable('There is no reply to regenerate.');
    }
    if (target.role !== 'assistant') throw notApplicable('Only assistant replies can be regenerated.');
    if (target.parent_id === null) throw notApplicable('That reply answers nothing.');
    const reply = selection.newMessage(target.parent_id, 'assistant', '', 'streaming', {
      model: selection.modelId,
    });
    this.store.transaction(() => {
      selection.insertMessage(reply);
      selection.setLeaf(selection.conversationId, reply.id);
    });
    this.sessionRevision++;
    this.startReply(reply);
    this.refresh();
    return { replyId: reply.id };
  }

  /** Creates a conversation (in the given or the current project) and makes it current. */
  newConversation(projectId?: string, title?: string): ActionResultOf<'newConversation'> {
    const project = projectId ?? this.selection.projectId;
    if (!this.store.project(project)) throw notFound('project');
    const row = this.selection.createConversation(project, title?.trim() ?? '');
    this.moveTo(row.id);
    return { conversationId: row.id };
  }

  /** Makes another conversation current. */
  selectConversation(conversationId: string): ActionResultOf<'selectConversation'> {
    if (!this.store.conversation(conversationId)) throw notFound('conversation');
    if (conversationId !== this.selection.conversationId) this.moveTo(conversationId);
    return { conversationId };
  }

  /** Renames a conversation. */
  renameConversation(conversationId: string, title: string): ActionResultOf<'renameConversation'> {
    if (!this.store.conversation(conversationId)) throw notFound('conversation');
    this.store.setConversationTitle(conversationId, title.trim() || title);
    this.refresh();
    return { conversationId };
  }

  /**
   * Deletes a conversation with its messages, approvals and attachment files. Deleting the
   * current one selects the project's newest other conversation, or a new one.
   */
  deleteConversation(conversationId: string): ActionResultOf<'deleteConversation'> {
    const row = this.store.conversation(conversationId);
    if (!row) throw notFound('conversation');
    this.runner.stop(conversationId);
    const files = this.attachments.filesOf(conversationId);
    this.store.deleteConversation(conversationId);
    this.attachments.removeFiles(files);
    if (conversationId === this.selection.conversationId) {
      const next =
        this.store.latestConversation(row.project_id) ??
        this.selection.createConversation(row.project_id, '');
      this.moveTo(next.id);
    } else {
      this.refresh();
    }
    return { conversationId };
  }

  /** Makes a project current, with its newest conversation (created if it has none). */
  selectProject(projectId: string): ActionResultOf<'selectProject'> {
    if (!this.store.project(projectId)) throw notFound('project');
    if (projectId !== this.selection.projectId) {
      const row =
        this.store.latestConversation(projectId) ?? this.selection.createConversation(projectId, '');
      this.moveTo(row.id);
    }
    return { projectId };
  }

  /**
   * Creates a project on an authorised folder (not an action of the protocol yet; for the
   * console and tests). Returns its id.
   */
  createProject(name: string, folder: string): string {
    const workspace = this.authoriser.authorisePath(folder);
    if (workspace === undefined)
      throw new BridgeError('workspace_forbidden', 'That folder is not authorised.');
    const id = newId();
    this.store.insertProject({ id, name, workspace_path: workspace, created_at: Date.now() });
    this.refresh();
    return id;
  }

  /**
   * Authorises another workspace root, remembered across restarts. For the host's own user
   * (console, configuration) only: no action of the protocol reaches it. Returns the resolved
   * folder; throws when it is not an existing absolute folder.
   */
  addWorkspaceRoot(folder: string): string {
    const real = this.authoriser.addRoot(folder);
    const added = this.addedRoots();
    if (!added.includes(real)) this.store.setKv(KV_ADDED_ROOTS, JSON.stringify([...added, real]));
    this.refresh();
    return real;
  }

  /** Allows (runs the tool) or denies a pending tool call, and finishes its reply. */
  approve(approvalId: string, decision: 'allow' | 'deny'): ActionResultOf<'approve'> {
    const { conversationId, result } = this.toolCalls.decide(approvalId, decision, this.settings);
    this.followToolResult(conversationId, result);
    this.refresh();
    return { approvalId, decision };
  }

  /** Merges a partial settings update. */
  updateSettings(update: ActionOf<'updateSettings'>['settings']): ActionResultOf<'updateSettings'> {
    this.settings = mergeSettings(this.store, this.settings, update);
    this.refresh();
    return { settings: this.settings };
  }

  /** Records an uploaded file as a pending attachment of the current conversation. */
  addAttachment(file: AttachmentFile): HostAttachment {
    const attachment = this.attachments.add(this.selection.conversationId, file);
    this.refresh();
    return attachment;
  }

  /** Removes a pending attachment and its file. */
  removeAttachment(attachmentId: string): ActionResultOf<'removeAttachment'> {
    this.attachments.remove(attachmentId);
    this.refresh();
    return { attachmentId };
  }

  /** The file of an attachment, if its row and its file both exist. */
  attachmentFile(attachmentId: string): AttachmentFile | undefined {
    return this.attachments.file(attachmentId);
  }

  private replySink(): ReplySink {
    return {
      onText: (conversationId, messageId, text) => this.appendText(conversationId, messageId, text),
      onToolCall: (conversationId, messageId, name, args) => {
        if (this.closed) return;
        const result = this.toolCalls.handle(conversationId, messageId, name, args, this.settings);
        this.followToolResult(conversationId, result);
        this.refresh();
      },
      onFinish: (conversationId, messageId) => {
        if (this.closed) return;
        this.selection.patchMessage(conversationId, messageId, { status: 'complete' });
        this.refresh();
      },
      onError: (conversationId, messageId, error) => {
        if (this.closed) return;
        // Foreign errors can carry URLs, paths or keys; show only the messages written for people.
        const reason =
          error instanceof BridgeError || error instanceof ModelError
            ? error.message
            : 'The model failed to answer.';
        this.selection.patchMessage(conversationId, messageId, { status: 'error', error: reason });
        this.refresh();
      },
    };
  }

  /** The hot path: one streamed word. Only the grown message and its containers are new. */
  private appendText(conversationId: string, messageId: string, text: string): void {
    if (this.closed || !this.selection.appendText(conversationId, messageId, text)) return;
    const prev = this.readState();
    const messages = prev.conversations.messages;
    let index = messages.length - 1;
    while (index >= 0 && messages[index]!.id !== messageId) index--;
    const old = messages[index];
    if (!old) return;
    const next = messages.slice();
    next[index] = { ...old, text: old.text + text };
    this.commit({ ...prev, conversations: { ...prev.conversations, messages: next } });
  }

  /** Makes a conversation current: a new place for sends, so a new session revision. */
  private moveTo(conversationId: string): void {
    const row = this.store.conversation(conversationId);
    if (!row) throw notFound('conversation');
    this.selection.switchTo(row);
    this.sessionRevision++;
    this.refresh();
  }

  private startReply(reply: MessageRow): void {
    const { selection } = this;
    const model = this.modelOf(reply);
    const provider = this.registry.providerOf(model);
    if (!provider) throw notApplicable(`There is no model "${model}".`);
    this.runner.start(selection.conversationId, reply.id, provider, {
      model,
      systemPrompt: this.settings.systemPrompt,
      messages: modelHistory(selection.tree.path(reply.parent_id), selection.tree, (id) =>
        this.attachments.file(id),
      ),
      tools: offeredTools(this.tools, this.settings),
      partial: reply.text,
    });
  }

  private addedRoots(): string[] {
    try {
      const value: unknown = JSON.parse(this.store.kv(KV_ADDED_ROOTS) ?? '[]');
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      return [];
    }
  }

  private modelOf(reply: MessageRow): string {
    return reply.model !== null && this.registry.has(reply.model) ? reply.model : this.selection.modelId;
  }

  /**
   * The agent loop: once a tool call of the current conversation has a result, a model that
   * reads tool results is asked again under it, unless the user has let it chain
   * {@link MAX_TOOL_ROUNDS} calls already. Replies of other conversations are not resumed in
   * the background; `continue` there picks them up.
   */
  private followToolResult(conversationId: string, result: MessageRow | undefined): void {
    const { selection } = this;
    if (!result || conversationId !== selection.conversationId || selection.leafId !== result.id) return;
    const call = result.parent_id === null ? undefined : selection.tree.get(result.parent_id);
    if (!call) return;
    const model = this.modelOf(call);
    if (this.registry.providerOf(model)?.followsToolResults !== true) return;
    const path = selection.path();
    const sinceUser = path.slice(path.findLastIndex((row) => row.role === 'user') + 1);
    if (sinceUser.filter((row) => row.role === 'tool').length >= MAX_TOOL_ROUNDS) return;
    const reply = selection.newMessage(result.id, 'assistant', '', 'streaming', { model });
    this.store.transaction(() => {
      selection.insertMessage(reply);
      selection.setLeaf(conversationId, reply.id);
    });
    this.startReply(reply);
  }

  private assertIdle(): void {
    const conversationId = this.selection.conversationId;
    if (this.runner.streamingMessage(conversationId) !== undefined) {
      throw notApplicable('A reply is streaming; stop it first.');
    }
    if (this.toolCalls.pendingOf(conversationId)) {
      throw notApplicable('A tool call waits for approval; allow or deny it first.');
    }
  }

  /** Rebuilds the projection from the store and memory, sharing every unchanged part. */
  private refresh(): void {
    if (this.closed) return;
    const next = buildProjection({
      store: this.store,
      selection: this.selection,
      identity: this.identity(),
      streamingMessageId: this.runner.streamingMessage(this.selection.conversationId),
      roots: this.authoriser.roots,
      models: this.registry.list,
      tools: this.tools,
      settings: this.settings,
    });
    this.commit(share(this.projection, next));
  }

  private commit(next: Projection): void {
    if (next === this.projection) return;
    this.projection = next;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        // One broken subscriber must not keep the others from hearing about the change.
        process.emitWarning(`A webbridge state listener threw: ${String(error)}`);
      }
    }
  }
}

function titleFrom(text: string, attachments: readonly AttachmentRow[]): string {
  const line = text.replace(/\s+/g, ' ').trim() || attachments.map((a) => a.name).join(', ');
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}
