import { randomBytes } from 'node:crypto';
import type { SessionIdentity, Settings } from '@webbridge/contract';
import type { StoredAttachment } from '../db/AttachmentTable';
import type { HostStore } from '../db/HostStore';
import type { StoredMessage } from '../db/StoredMessage';
import type { MainExecutor } from '../executor/MainExecutor';
import { EchoModel } from '../models/EchoModel';
import { ModelRegistry } from '../models/ModelRegistry';
import type { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import { AgentSessions } from './AgentSessions';
import { Attachments } from './Attachments';
import { buildProjection } from './buildProjection';
import type { ChatControllerOptions } from './ChatControllerOptions';
import type { ControllerSteps } from './ControllerSteps';
import { notApplicable, notFound } from './errors';
import { MessageRepository } from './MessageRepository';
import { modelHistory, offeredTools } from './modelHistory';
import { ProjectionPublisher } from './ProjectionPublisher';
import { assertAgentTakes, promptBlocks } from './promptBlocks';
import { ReplyRunner } from './ReplyRunner';
import { createReplySink } from './replySink';
import { Selection } from './Selection';
import { loadSettings } from './settings';
import { ToolCalls } from './ToolCalls';
import { BUILTIN_TOOLS } from './tools/builtinTools';
import type { Tool } from './tools/Tool';
import type { ToolSource } from './tools/ToolSource';
import { restoreWorkspaceRoots } from './workspaceRoots';

/**
 * Most tool rounds a model may chain after one user message before the controller stops asking
 * it again, so a model that keeps calling tools cannot loop forever.
 */
const MAX_TOOL_ROUNDS = 8;

/** The kv key of the last session revision handed out, so that a restart continues above it. */
const KV_SESSION_REVISION = 'session_revision';

/**
 * The state the controller's action groups share, and the few steps they all take: publish a
 * new projection, start a reply, move to another conversation, refuse to act mid-reply.
 *
 * Internal to the controller folder: `ChatController` builds it and hands out the action groups
 * that work on it. Every method must run on the main executor, like the groups'.
 */
export class ControllerCore implements ControllerSteps {
  /** The executor every state change runs on. */
  readonly executor: MainExecutor;
  /** The authorised workspace roots. */
  readonly authoriser: WorkspaceAuthoriser;
  /** Random id of this run of the host process. */
  readonly instanceId: string = randomBytes(12).toString('base64url');
  /** The SQLite store; closed by {@link close}. */
  readonly store: HostStore;
  /** The model replies (and background tools) running now. */
  readonly runner: ReplyRunner;
  /** Every conversation's messages, the open one in memory as a tree. */
  readonly messages: MessageRepository;
  /** The current project, conversation, branch and model. */
  readonly selection: Selection;
  /** Tool calls and their approvals. */
  readonly toolCalls: ToolCalls;
  /** Uploaded files, pending or attached to messages. */
  readonly attachments: Attachments;
  /** The echo model and the configured providers. */
  readonly registry: ModelRegistry;
  /** The host's own tools (see {@link allTools} for the ones offered now). */
  readonly tools: readonly Tool[];
  /** Tools that come and go (MCP servers'), if any. */
  readonly toolSource: ToolSource | undefined;
  /** The current projection and its subscribers. */
  readonly publisher = new ProjectionPublisher();
  /** The current settings; replaced (never mutated) on update, as the projection shares them. */
  settings: Settings;
  /** The ACP sessions behind agent conversations, and their turns. */
  readonly agentSessions: AgentSessions;
  /** Set by {@link close}; late replies and tool results check it so they touch nothing after. */
  closed = false;
  private sessionRevision: number;
  /** A send's publish waits for its agent prompt to leave ({@link refreshSoon}). */
  private refreshDue = false;
  private readonly unsubscribeTools: (() => void) | undefined;
  private readonly unsubscribeAgents: () => void;

  constructor(options: ChatControllerOptions) {
    this.store = options.store;
    this.executor = options.executor;
    this.authoriser = options.authoriser;
    const echo = new EchoModel(options.echoDelayMs === undefined ? {} : { delayMs: options.echoDelayMs });
    this.registry = new ModelRegistry([echo, ...(options.providers ?? [])]);
    this.runner = new ReplyRunner(this.executor, createReplySink(this));
    this.messages = new MessageRepository(this.store.messages, (id) =>
      this.store.attachments.ofConversation(id),
    );
    this.selection = new Selection(this.store, this.messages, this.registry.defaultModel, (id) =>
      this.registry.has(id),
    );
    this.attachments = new Attachments(this.store.attachments, options.uploadDir);
    this.tools = options.tools ?? BUILTIN_TOOLS;
    this.toolSource = options.toolSource;
    const toolSource = this.toolSource;
    this.toolCalls = new ToolCalls({
      store: this.store,
      selection: this.selection,
      messages: this.messages,
      tools: this.tools,
      ...(toolSource === undefined ? {} : { findTool: (name: string) => toolSource.find(name) }),
      attachments: this.attachments,
      runner: this.runner,
      onBackgroundResult: (conversationId, result) => {
        if (this.closed) return;
        this.followToolResult(conversationId, result);
        this.refresh();
      },
    });
    this.agentSessions = new AgentSessions(this, options.agents, options.agentMcpServers ?? []);
    this.settings = loadSettings(this.store.settings);
    this.sessionRevision = this.resumeSessionRevision();
    // An agent's question died with the process that asked it; its call then shows as stopped.
    this.store.approvals.cancelAgentQuestions();
    this.messages.stopInterrupted();
    restoreWorkspaceRoots(this.store.kv, this.authoriser);
    const defaultWorkspace = this.authoriser.roots[0];
    if (defaultWorkspace === undefined) throw new Error('At least one workspace root is needed.');
    this.selection.restore(defaultWorkspace);
    this.refresh();
    // Servers and agents report from their own callbacks: the projection is rebuilt on the executor.
    const refreshLater = () => {
      this.executor
        .run(() => this.refresh())
        .catch(() => {
          // The executor only fails a task that threw; refresh after close does nothing.
        });
    };
    this.unsubscribeTools = toolSource?.subscribe(refreshLater);
    this.unsubscribeAgents = this.agentSessions.subscribe(refreshLater);
  }

  /** The tools offered now: the host's own, then those of the MCP servers that are ready. */
  allTools(): readonly Tool[] {
    const extra = this.toolSource?.list() ?? [];
    return extra.length === 0 ? this.tools : [...this.tools, ...extra];
  }

  /** Where a send would land now. */
  identity(): SessionIdentity {
    const { conversationId, projectId } = this.selection;
    return { instanceId: this.instanceId, sessionRevision: this.sessionRevision, conversationId, projectId };
  }

  /**
   * Records that the destination of a send has changed (conversation, project, branch, edit),
   * so that a client still acting on the old one is refused instead of writing to the wrong place.
   */
  bumpSessionRevision(): void {
    const next = this.sessionRevision + 1;
    // Written before anyone can see it, so the file always holds the highest revision shown.
    this.store.kv.set(KV_SESSION_REVISION, String(next));
    this.sessionRevision = next;
  }

  /**
   * The first revision of this run: one above the last one any earlier run on this data
   * handed out (0 on a new data directory). A client that omits `instanceId` and still holds
   * an identity from before a restart is then refused, even if the host came back to the same
   * conversation. A run that changes nothing still uses up its revision.
   */
  private resumeSessionRevision(): number {
    const stored = Number(this.store.kv.get(KV_SESSION_REVISION));
    const first = Number.isSafeInteger(stored) && stored >= 0 ? stored + 1 : 0;
    this.store.kv.set(KV_SESSION_REVISION, String(first));
    return first;
  }

  /** Replaces the settings; the caller has persisted them. */
  replaceSettings(next: Settings): void {
    this.settings = next;
  }

  /** Rebuilds the projection from the store and memory, sharing every unchanged part. */
  refresh(): void {
    this.refreshDue = false;
    if (this.closed) return;
    const { conversationId } = this.selection;
    const conversation = this.store.conversations.get(conversationId);
    this.publisher.publish(
      buildProjection({
        store: this.store,
        selection: this.selection,
        messages: this.messages,
        identity: this.identity(),
        streamingMessageId:
          this.runner.streamingMessage(conversationId) ??
          this.agentSessions.turns.streamingMessage(conversationId),
        agents: this.agentSessions.view({
          id: conversationId,
          agentId: conversation?.agentId ?? null,
          unavailable: conversation?.agentUnavailable ?? null,
        }),
        roots: this.authoriser.roots,
        models: this.registry.list,
        tools: this.allTools(),
        ...(this.toolSource === undefined ? {} : { servers: this.toolSource.servers() }),
        settings: this.settings,
      }),
    );
  }

  /**
   * {@link refresh} at the end of this event-loop turn, unless one runs before: the send to an
   * agent publishes after its `session/prompt` has been written (the SDK writes it in this
   * turn's microtasks), so the 0.5-2 ms of building the projection is not on the prompt's way.
   * Whatever reads the projection or applies the agent's answer first calls
   * {@link refreshIfDue}, so nothing sees the state without the send's messages.
   */
  refreshSoon(): void {
    if (this.refreshDue) return;
    this.refreshDue = true;
    setImmediate(() => {
      this.executor
        .run(() => this.refreshIfDue())
        .catch(() => {
          // refreshIfDue does not throw; a closed controller publishes nothing.
        });
    });
  }

  /** Runs the refresh {@link refreshSoon} put off, if it has not run yet. */
  refreshIfDue(): void {
    if (this.refreshDue) this.refresh();
  }

  /** Makes a conversation current: a new place for sends, so a new session revision. */
  moveTo(conversationId: string): void {
    const row = this.store.conversations.get(conversationId);
    if (!row) throw notFound('conversation');
    this.selection.switchTo(row);
    this.bumpSessionRevision();
    this.refresh();
  }

  /** Starts streaming `reply` (already inserted) as the answer to the branch above it. */
  startReply(reply: StoredMessage): void {
    const { selection, messages } = this;
    const conversation = this.store.conversations.get(reply.conversationId);
    if (conversation?.agentId != null) {
      this.startAgentTurn(reply);
      return;
    }
    const model = this.modelOf(reply);
    const provider = this.registry.providerOf(model);
    if (!provider) throw notApplicable(`There is no model "${model}".`);
    this.runner.start(selection.conversationId, reply.id, provider, {
      model,
      systemPrompt: this.settings.systemPrompt,
      messages: modelHistory(messages.path(reply.parentId), messages.tree, (id) => this.attachments.file(id)),
      tools: offeredTools(this.allTools(), this.settings),
      partial: reply.text,
    });
  }

  /** Sends the user message `reply` answers to the conversation's agent, as `session/prompt`. */
  private startAgentTurn(reply: StoredMessage): void {
    const user = reply.parentId === null ? undefined : this.messages.get(reply.parentId);
    const files = user === undefined ? [] : this.attachments.ofMessage(reply.conversationId, user.id);
    const agentId = this.store.conversations.get(reply.conversationId)?.agentId ?? '';
    this.agentSessions.prompt(reply.conversationId, reply.id, promptBlocks(agentId, user?.text ?? '', files));
  }

  /** Throws 422 when the current conversation's agent is known not to take one of `files`. */
  assertAgentTakes(files: readonly Pick<StoredAttachment, 'type' | 'name'>[]): void {
    const { conversationId } = this.selection;
    const agentId = this.store.conversations.get(conversationId)?.agentId;
    const can = this.agentSessions.capabilitiesOf(conversationId);
    if (agentId != null && can !== undefined) assertAgentTakes(agentId, files, can);
  }

  /** Throws 422 when the current conversation is an agent's: its history only goes forward. */
  assertForkable(): void {
    if (this.store.conversations.get(this.selection.conversationId)?.agentId != null) {
      throw notApplicable("An agent's conversation only goes forward: send a new message instead.");
    }
  }

  /**
   * The model a reply is (or was) written by. A model that is no longer configured falls back
   * to the current one, so a reply of a removed provider can still be continued.
   */
  modelOf(reply: StoredMessage): string {
    return reply.model !== undefined && this.registry.has(reply.model) ? reply.model : this.selection.modelId;
  }

  /**
   * The agent loop: once a tool call of the current conversation has a result, a model that
   * reads tool results is asked again under it, unless the user has let it chain
   * {@link MAX_TOOL_ROUNDS} calls already. Replies of other conversations are not resumed in
   * the background; `continue` there picks them up.
   *
   * Does not publish: the caller refreshes once after its own changes.
   */
  followToolResult(conversationId: string, result: StoredMessage | undefined): void {
    const { selection, messages } = this;
    if (!result || conversationId !== selection.conversationId || selection.leafId !== result.id) return;
    const call = result.parentId === null ? undefined : messages.get(result.parentId);
    if (!call) return;
    const model = this.modelOf(call);
    if (this.registry.providerOf(model)?.followsToolResults !== true) return;
    const path = selection.path();
    const sinceUser = path.slice(path.findLastIndex((row) => row.role === 'user') + 1);
    if (sinceUser.filter((row) => row.role === 'tool').length >= MAX_TOOL_ROUNDS) return;
    const reply = this.store.transaction(() => {
      const added = messages.add({
        conversationId,
        parentId: result.id,
        role: 'assistant',
        text: '',
        status: 'streaming',
        model,
      });
      selection.setLeaf(conversationId, added.id);
      return added;
    });
    this.startReply(reply);
  }

  /** Throws unless the current conversation is idle: no reply streaming, no approval pending. */
  assertIdle(): void {
    const conversationId = this.selection.conversationId;
    if (this.runner.streamingMessage(conversationId) !== undefined) {
      throw notApplicable('A reply is streaming; stop it first.');
    }
    if (this.agentSessions.turns.busy(conversationId))
      throw notApplicable('A reply is streaming; stop it first.');
    if (this.toolCalls.pendingOf(conversationId)) {
      throw notApplicable('A tool call waits for approval; allow or deny it first.');
    }
  }

  /** Stops every reply (cancelling its timers), commits what is pending and closes the database. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribeTools?.();
    this.unsubscribeAgents();
    this.runner.stopAll();
    this.publisher.clear();
    this.store.close();
  }
}
