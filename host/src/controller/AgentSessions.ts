import type { ContentBlock, McpServer, SessionUpdate } from '@agentclientprotocol/sdk';
import {
  type Agent,
  type AgentConfigOption,
  type AgentSession,
  BUILTIN_AGENT,
  type Projection,
} from '@webbridge/contract';
import type { AgentClientHandlers } from '../agents/AgentClientHandlers';
import type { AgentConnection } from '../agents/AgentConnection';
import { AgentError } from '../agents/AgentError';
import type { MainExecutor } from '../executor/MainExecutor';
import type { AgentDirectory } from './AgentDirectory';
import type { AgentTurn } from './AgentTurn';
import { AgentTurns } from './AgentTurns';
import type { AgentTurnsTarget } from './AgentTurnsTarget';
import { EMPTY_VIEW, type SessionView, viewAfter, viewOfOpened } from './agentSessionView';
import { notApplicable, notFound } from './errors';
import type { Selection } from './Selection';

/** What the sessions work with: the controller's shared state, seen from here. */
export interface AgentSessionsTarget extends AgentTurnsTarget {
  readonly executor: MainExecutor;
  readonly selection: Pick<Selection, 'setLeaf' | 'workspaceOf' | 'conversationId' | 'createConversation'>;
  moveTo(conversationId: string): void;
}

/** An ACP session open on a live connection. */
export interface LiveSession {
  readonly connection: AgentConnection;
  readonly sessionId: string;
}

/** What an agent can take in a prompt (`AgentInfo.can`). */
export type PromptCapabilities = AgentConnection['info']['can'];

/** Builds a turn's prompt once the agent's capabilities are known; throws a `ProtocolError` for what it cannot take. */
export type PromptBuilder = (can: PromptCapabilities) => Promise<ContentBlock[]>;

/** The built-in loop, as the agents list shows it. */
const BUILTIN: Agent = Object.freeze({
  name: BUILTIN_AGENT,
  title: 'Built-in',
  builtin: true,
  state: 'ready',
});

/**
 * The ACP sessions behind conversations: one per conversation, opened on first use with
 * `session/new` (the project's folder as cwd), reopened after a restart or a crash with
 * `session/load` (its replayed history ignored: the host has it) or `session/resume`, else the
 * conversation is marked as one that cannot continue. A session opened from the agent's list
 * (desk to phone) imports its replayed history as messages.
 *
 * Prompts run here, off the executor; every update comes back as an executor task, in order,
 * to {@link AgentTurns} (messages) or to the session's view (modes, settings, commands, plan,
 * usage), which the projection shows as `agents.session`.
 */
export class AgentSessions {
  /** The turns: messages, approvals, stop. */
  readonly turns: AgentTurns;
  private readonly core: AgentSessionsTarget;
  private readonly agents: AgentDirectory | undefined;
  private readonly mcpServers: readonly McpServer[];
  private readonly live = new Map<string, LiveSession>();
  private readonly opening = new Map<string, Promise<LiveSession>>();
  private readonly views = new Map<string, SessionView>();
  /** Conversations whose history the agent replays now and the host already has. */
  private readonly loading = new Set<string>();
  /** The prompt in flight per conversation: a new one waits for a stopped one to settle. */
  private readonly settling = new Map<string, Promise<void>>();

  constructor(
    core: AgentSessionsTarget,
    agents: AgentDirectory | undefined,
    mcpServers: readonly McpServer[],
  ) {
    this.core = core;
    this.agents = agents;
    this.mcpServers = mcpServers;
    this.turns = new AgentTurns(core);
  }

  /** Whether an agent of this name can back a new conversation. */
  has(agentId: string): boolean {
    return this.agents?.has(agentId) === true;
  }

  /** Calls `listener` when an agent's state changes. */
  subscribe(listener: () => void): () => void {
    return this.agents?.subscribe(listener) ?? (() => {});
  }

  /** The connection's prompt capabilities, when the agent has answered `initialize` already. */
  capabilitiesOf(conversationId: string): PromptCapabilities | undefined {
    const live = this.live.get(conversationId);
    return live?.connection.alive ? live.connection.info.can : undefined;
  }

  /** Starts a turn: `blocks` go to the agent once its session is open. Runs on the executor. */
  prompt(conversationId: string, replyId: string, blocks: PromptBuilder): void {
    const turn = this.turns.begin(conversationId, replyId);
    const previous = this.settling.get(conversationId) ?? Promise.resolve();
    const run = previous.then(() => this.runPrompt(turn, blocks));
    this.settling.set(conversationId, run);
    void run.finally(() => {
      if (this.settling.get(conversationId) === run) this.settling.delete(conversationId);
    });
  }

  /**
   * Opens a new conversation's session now, in the background, so its modes, settings and
   * commands show before the first send (opencode takes seconds to start). A failure shows at
   * the first send instead.
   */
  warm(conversationId: string): void {
    this.open(conversationId).catch(() => {
      // Said again, readably, by the send that needs the session.
    });
  }

  /** Stops a conversation's turn and sends `session/cancel`. Returns whether one was running. */
  stop(conversationId: string): boolean {
    if (!this.turns.stop(conversationId)) return false;
    const live = this.live.get(conversationId);
    if (live?.connection.alive) {
      live.connection.cancel(live.sessionId).catch(() => {
        // The agent is gone: its prompt rejects and the turn ends there.
      });
    }
    return true;
  }

  /** The snapshot's `agents` group for the current conversation. */
  view(conversation: {
    readonly id: string;
    readonly agentId: string | null;
    readonly unavailable: string | null;
  }) {
    const list = [BUILTIN, ...(this.agents?.list() ?? [])];
    const { agentId } = conversation;
    if (agentId === null) return { list };
    const reason =
      conversation.unavailable ??
      (this.has(agentId) ? undefined : `The agent "${agentId}" is not configured on this host.`);
    const session: AgentSession = {
      agentId,
      canContinue: reason === undefined,
      ...(reason === undefined ? {} : { reason }),
      ...(this.views.get(conversation.id) ?? EMPTY_VIEW),
    };
    return { list, session } satisfies Projection['agents'];
  }

  /** `session/set_mode` on the current conversation's session. */
  async setMode(conversationId: string, modeId: string): Promise<void> {
    const modes = this.views.get(conversationId)?.modes;
    if (modes && !modes.list.some((m) => m.id === modeId))
      throw notApplicable(`The agent has no mode "${modeId}".`);
    const live = await this.open(conversationId);
    await live.connection.setMode(live.sessionId, modeId);
    await this.run(() => {
      const view = this.views.get(conversationId) ?? EMPTY_VIEW;
      if (view.modes) this.setView(conversationId, { ...view, modes: { ...view.modes, current: modeId } });
    });
  }

  /** `session/set_config_option` on the current conversation's session; resolves with every setting. */
  async setOption(
    conversationId: string,
    optionId: string,
    value: string | boolean,
  ): Promise<AgentConfigOption[]> {
    const known = this.views.get(conversationId)?.configOptions.find((o) => o.id === optionId);
    if (known && (known.type === 'boolean') !== (typeof value === 'boolean')) {
      throw notApplicable(
        `The setting "${known.name}" takes ${known.type === 'boolean' ? 'true or false' : 'one of its options'}.`,
      );
    }
    const live = await this.open(conversationId);
    const response = await live.connection.setConfigOption(
      typeof value === 'boolean'
        ? { sessionId: live.sessionId, configId: optionId, type: 'boolean', value }
        : { sessionId: live.sessionId, configId: optionId, value },
    );
    return this.run(() => {
      const view = viewOfOpened(this.views.get(conversationId) ?? EMPTY_VIEW, response);
      this.setView(conversationId, view);
      return view.configOptions;
    });
  }

  /** Forgets a deleted conversation's session (closing it where the agent offers that). */
  forget(conversationId: string): void {
    this.stop(conversationId);
    const live = this.live.get(conversationId);
    this.live.delete(conversationId);
    this.views.delete(conversationId);
    if (live) void live.connection.closeSession(live.sessionId);
  }

  private async runPrompt(turn: AgentTurn, blocks: PromptBuilder): Promise<void> {
    try {
      const live = await this.open(turn.conversationId);
      const prompt = await blocks(live.connection.info.can);
      if (turn.stopped) {
        await this.run(() => this.turns.finish(turn, 'cancelled'));
        return;
      }
      const response = await live.connection.prompt(live.sessionId, prompt);
      await this.run(() => this.turns.finish(turn, response.stopReason));
    } catch (error) {
      await this.run(() => this.turns.fail(turn, error)).catch(() => {
        // The controller closed meanwhile: there is no one left to tell.
      });
    }
  }

  /** The conversation's open session: opened (new, load, resume) on first use or after its agent restarted. */
  open(conversationId: string): Promise<LiveSession> {
    const live = this.live.get(conversationId);
    if (live?.connection.alive) return Promise.resolve(live);
    let opening = this.opening.get(conversationId);
    if (!opening) {
      opening = this.openSession(conversationId).finally(() => this.opening.delete(conversationId));
      this.opening.set(conversationId, opening);
    }
    return opening;
  }

  private async openSession(conversationId: string): Promise<LiveSession> {
    const { store, selection } = this.core;
    const row = await this.run(() => {
      const found = store.conversations.get(conversationId);
      if (!found || found.agentId == null) throw notFound('conversation');
      if (found.agentUnavailable != null) throw notApplicable(found.agentUnavailable);
      return {
        agentId: found.agentId,
        sessionId: found.agentSessionId ?? null,
        cwd: selection.workspaceOf(conversationId),
        // A session opened from the agent's list: its replay is the only copy of its history.
        replay: found.currentLeafId === null && !this.turns.busy(conversationId),
      };
    });
    const connection = await this.connect(row.agentId);
    const request = {
      cwd: row.cwd,
      mcpServers: this.mcpServersFor(connection),
      handlers: this.handlers(conversationId),
    };
    if (row.sessionId === null) {
      const response = await connection.newSession(request);
      return this.run(() => {
        store.conversations.setAgentSession(conversationId, response.sessionId);
        this.setView(conversationId, viewOfOpened(this.views.get(conversationId) ?? EMPTY_VIEW, response));
        return this.opened(conversationId, connection, response.sessionId);
      });
    }
    const { sessionId } = row;
    const { can } = connection.info;
    if (!can.load && !can.resume) {
      throw await this.unavailable(
        conversationId,
        `The agent "${row.agentId}" cannot reopen a session (it offers neither session/load nor session/resume): this conversation can be read, not continued.`,
      );
    }
    try {
      let response: Awaited<ReturnType<AgentConnection['loadSession']>>;
      if (can.load) {
        const replay = row.replay
          ? await this.run(() => this.turns.begin(conversationId, undefined, true))
          : undefined;
        if (replay === undefined) this.loading.add(conversationId);
        try {
          response = await connection.loadSession(sessionId, request);
        } finally {
          this.loading.delete(conversationId);
          if (replay !== undefined) await this.run(() => this.turns.finish(replay, undefined));
        }
      } else {
        response = await connection.resumeSession(sessionId, request);
      }
      return this.run(() => {
        this.setView(conversationId, viewOfOpened(this.views.get(conversationId) ?? EMPTY_VIEW, response));
        return this.opened(conversationId, connection, sessionId);
      });
    } catch (error) {
      // The agent answered but does not know the session any more: that will not change.
      if (error instanceof AgentError && (error.kind === 'refused' || error.kind === 'unsupported')) {
        throw await this.unavailable(
          conversationId,
          `${error.message} This conversation can be read, not continued.`,
        );
      }
      throw error;
    }
  }

  private opened(conversationId: string, connection: AgentConnection, sessionId: string): LiveSession {
    const live = { connection, sessionId };
    this.live.set(conversationId, live);
    this.core.refresh();
    return live;
  }

  private async unavailable(conversationId: string, reason: string): Promise<Error> {
    await this.run(() => {
      this.core.store.conversations.setAgentUnavailable(conversationId, reason);
      this.core.refresh();
    });
    return notApplicable(reason);
  }

  /** The agent's live connection (its process started on first use); 422 when it is not configured. */
  async connect(agentId: string): Promise<AgentConnection> {
    if (!this.agents?.has(agentId))
      throw notApplicable(`The agent "${agentId}" is not configured on this host.`);
    return this.agents.connection(agentId);
  }

  /** The host's MCP servers the agent can take (stdio always; http only where it says so). */
  private mcpServersFor(connection: AgentConnection): McpServer[] {
    const http = connection.info.capabilities.mcpCapabilities?.http === true;
    return this.mcpServers.filter((server) => !('type' in server) || (server.type === 'http' && http));
  }

  private handlers(conversationId: string): AgentClientHandlers {
    return {
      sessionUpdate: (notification) => this.run(() => this.onUpdate(conversationId, notification.update)),
      requestPermission: (request, signal) =>
        this.run(() => this.turns.questions.ask(conversationId, request.toolCall, request.options, signal)),
      approveWrite: (write, signal) =>
        this.run(() => this.turns.questions.approveWrite(conversationId, write, signal)),
      terminalChanged: (terminalId) => {
        const live = this.live.get(conversationId);
        const output = live?.connection.terminalOutput(terminalId)?.output;
        if (output === undefined) return;
        this.run(() => this.turns.terminal(conversationId, terminalId, output)).catch(() => {
          // The controller closed meanwhile.
        });
      },
    };
  }

  private onUpdate(conversationId: string, update: SessionUpdate): void {
    if (this.core.closed) return;
    // The send's own change is published before anything the agent answered to it.
    this.core.refreshIfDue();
    const view = viewAfter(this.views.get(conversationId) ?? EMPTY_VIEW, update);
    if (view !== undefined) {
      this.setView(conversationId, view);
      return;
    }
    if (update.sessionUpdate === 'session_info_update') {
      const row = this.core.store.conversations.get(conversationId);
      if (row && row.title === '' && typeof update.title === 'string' && update.title !== '') {
        this.core.store.conversations.setTitle(conversationId, update.title.slice(0, 200));
        this.core.refresh();
      }
      return;
    }
    if (this.loading.has(conversationId)) return;
    this.turns.apply(conversationId, update);
  }

  private setView(conversationId: string, view: SessionView): void {
    this.views.set(conversationId, view);
    if (conversationId === this.core.selection.conversationId) this.core.refresh();
  }

  /** Runs `task` on the main executor (a promise it returns is adopted). */
  private run<T>(task: () => T | Promise<T>): Promise<T> {
    return this.core.executor.run(task) as Promise<T>;
  }
}
