import type {
  ActionOf,
  ActionResultOf,
  HostAttachment,
  Projection,
  SessionIdentity,
} from '@webbridge/contract';
import type { MainExecutor } from '../executor/MainExecutor';
import type { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import type { AttachmentFile } from './Attachments';
import type { ChatControllerOptions } from './ChatControllerOptions';
import { ControllerCore } from './ControllerCore';
import { ConversationActions } from './ConversationActions';
import { notFound } from './errors';
import { MessageActions } from './MessageActions';
import { ProjectActions } from './ProjectActions';
import { mergeSettings } from './settings';

export type { ChatControllerOptions } from './ChatControllerOptions';

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
 * throw `ProtocolError` (`not_found`, `not_applicable`) when they do not apply.
 *
 * This class is the one face the adapter sees; the work is done by the action groups
 * ({@link MessageActions}, {@link ConversationActions}, {@link ProjectActions}) over the shared
 * {@link ControllerCore}.
 */
export class ChatController {
  /** The executor every state change runs on. */
  readonly executor: MainExecutor;
  /** The authorised workspace roots. */
  readonly authoriser: WorkspaceAuthoriser;
  /** Random id of this run of the host process. */
  readonly instanceId: string;

  private readonly core: ControllerCore;
  private readonly messages: MessageActions;
  private readonly conversations: ConversationActions;
  private readonly projects: ProjectActions;

  constructor(options: ChatControllerOptions) {
    this.core = new ControllerCore(options);
    this.executor = this.core.executor;
    this.authoriser = this.core.authoriser;
    this.instanceId = this.core.instanceId;
    this.messages = new MessageActions(this.core);
    this.conversations = new ConversationActions(this.core);
    this.projects = new ProjectActions(this.core);
  }

  /** The current projection (immutable; cheap). */
  readState(): Projection {
    return this.core.readState();
  }

  /** Where a send would land now. */
  identity(): SessionIdentity {
    return this.core.identity();
  }

  /** Calls `listener` synchronously after every change of the projection. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    return this.core.publisher.subscribe(listener);
  }

  /** Stops every reply (cancelling its timers) and closes the database. Idempotent. */
  close(): void {
    this.core.close();
  }

  /** Sends a user message (with pending attachments) and starts the reply. */
  send(text: string, attachmentIds?: readonly string[]): ActionResultOf<'send'> {
    return this.messages.send(text, attachmentIds);
  }

  /** Stops the current conversation's reply, or cancels the approval it waits for. */
  stop(): ActionResultOf<'stop'> {
    return this.messages.stop();
  }

  /** Resumes the stopped reply at the end of the current branch. */
  continue(): ActionResultOf<'continue'> {
    return this.messages.continue();
  }

  /** Points the current project at another (already authorised) workspace folder. */
  setWorkspace(uri: string): ActionResultOf<'workspace'> {
    return this.projects.setWorkspace(uri);
  }

  /** Chooses the model for the current conversation and the next ones. */
  setModel(modelId: string): ActionResultOf<'model'> {
    return this.conversations.setModel(modelId);
  }

  /** Switches the fork at `messageId` (on the current branch) to its sibling at `index`. */
  branch(messageId: string, index: number): ActionResultOf<'branch'> {
    return this.messages.branch(messageId, index);
  }

  /** Adds an edited version of a user message as its new sibling, and answers it. */
  editMessage(messageId: string, text: string): ActionResultOf<'editMessage'> {
    return this.messages.editMessage(messageId, text);
  }

  /** Answers again the message an assistant reply answered (default: the last reply). */
  regenerate(messageId?: string): ActionResultOf<'regenerate'> {
    return this.messages.regenerate(messageId);
  }

  /** Creates a conversation (in the given or the current project) and makes it current. */
  newConversation(projectId?: string, title?: string): ActionResultOf<'newConversation'> {
    return this.conversations.newConversation(projectId, title);
  }

  /** Makes another conversation current. */
  selectConversation(conversationId: string): ActionResultOf<'selectConversation'> {
    return this.conversations.selectConversation(conversationId);
  }

  /** Renames a conversation. */
  renameConversation(conversationId: string, title: string): ActionResultOf<'renameConversation'> {
    return this.conversations.renameConversation(conversationId, title);
  }

  /**
   * Deletes a conversation with its messages, approvals and attachment files. Deleting the
   * current one selects the project's newest other conversation, or a new one.
   */
  deleteConversation(conversationId: string): ActionResultOf<'deleteConversation'> {
    return this.conversations.deleteConversation(conversationId);
  }

  /** Makes a project current, with its newest conversation (created if it has none). */
  selectProject(projectId: string): ActionResultOf<'selectProject'> {
    return this.projects.selectProject(projectId);
  }

  /**
   * Creates a project on an authorised folder (not an action of the protocol yet; for the
   * console and tests). Returns its id.
   */
  createProject(name: string, folder: string): string {
    return this.projects.createProject(name, folder);
  }

  /**
   * Authorises another workspace root, remembered across restarts. For the host's own user
   * (console, configuration) only: no action of the protocol reaches it. Returns the resolved
   * folder; throws when it is not an existing absolute folder.
   */
  addWorkspaceRoot(folder: string): string {
    return this.projects.addWorkspaceRoot(folder);
  }

  /** Allows (runs the tool) or denies a pending tool call, and finishes its reply. */
  approve(approvalId: string, decision: 'allow' | 'deny'): ActionResultOf<'approve'> {
    const { core } = this;
    const { conversationId, result } = core.toolCalls.decide(approvalId, decision, core.settings);
    core.followToolResult(conversationId, result);
    core.refresh();
    return { approvalId, decision };
  }

  /** Merges a partial settings update. */
  updateSettings(update: ActionOf<'updateSettings'>['settings']): ActionResultOf<'updateSettings'> {
    const { core } = this;
    core.settings = mergeSettings(core.store, core.settings, update);
    core.refresh();
    return { settings: core.settings };
  }

  /**
   * Records an uploaded file as a pending attachment of `conversationId` (the conversation the
   * person was looking at when they picked it), or of the current conversation.
   */
  addAttachment(file: AttachmentFile, conversationId?: string): HostAttachment {
    const target = conversationId ?? this.core.selection.conversationId;
    if (!this.core.store.conversation(target)) throw notFound('conversation');
    const attachment = this.core.attachments.add(target, file);
    // Another conversation's pending list is not in the projection: nothing to publish.
    if (target === this.core.selection.conversationId) this.core.refresh();
    return attachment;
  }

  /** Removes a pending attachment and its file. */
  removeAttachment(attachmentId: string): ActionResultOf<'removeAttachment'> {
    this.core.attachments.remove(attachmentId);
    this.core.refresh();
    return { attachmentId };
  }

  /** The file of an attachment, if its row and its file both exist. */
  attachmentFile(attachmentId: string): AttachmentFile | undefined {
    return this.core.attachments.file(attachmentId);
  }
}
