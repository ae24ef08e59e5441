import {
  type AgentApp,
  type AgentCapabilities,
  type AuthMethod,
  type ClientApp,
  type ClientConnection,
  type ContentBlock,
  client,
  type InitializeResponse,
  type ListSessionsResponse,
  type LoadSessionResponse,
  type McpServer,
  MessageTooLargeError,
  methods,
  type NewSessionResponse,
  PROTOCOL_VERSION,
  type PromptResponse,
  RequestError,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type ResumeSessionResponse,
  type SessionNotification,
  type SetSessionConfigOptionRequest,
  type SetSessionConfigOptionResponse,
  type TerminalOutputResponse,
} from '@agentclientprotocol/sdk';
import type { AgentClientHandlers } from './AgentClientHandlers';
import type { AgentClientServices, AgentSessionScope } from './AgentClientServices';
import { AgentError } from './AgentError';
import type { AgentLog } from './AgentLog';
import { type AgentTransport, guardedStream } from './guardedStream';

/** What an agent said about itself in `initialize`. */
export interface AgentInfo {
  /** `agentInfo.name`, or the configured name when the agent sent none. */
  readonly name: string;
  readonly title: string | undefined;
  readonly version: string | undefined;
  readonly protocolVersion: number;
  readonly capabilities: AgentCapabilities;
  /** How to sign in; empty when the agent needs no sign-in. */
  readonly authMethods: readonly AuthMethod[];
  /** The capabilities the host acts on, read once. */
  readonly can: {
    readonly load: boolean;
    readonly resume: boolean;
    readonly list: boolean;
    readonly close: boolean;
    readonly image: boolean;
    readonly audio: boolean;
    readonly embeddedContext: boolean;
  };
}

/** Options of {@link AgentConnection.open}. */
export interface AgentConnectionOptions {
  /** The agent's configured name (in every message). */
  readonly name: string;
  /** Files and terminals, served inside each session's workspace ({@link WorkspaceClient}). */
  readonly services: AgentClientServices;
  /** Where lifecycle lines go. @default nowhere */
  readonly log?: AgentLog;
  /** Longest wait for the `initialize` answer. @default 30000 */
  readonly initializeTimeoutMs?: number;
  /** Longest wait for the answer to a request other than `session/prompt`. @default 120000 */
  readonly requestTimeoutMs?: number;
  /** Most bytes of one message from the agent (stream transports). @default 16 MiB */
  readonly maxMessageBytes?: number;
  /** Called when the agent answers "authentication required" (JSON-RPC -32000). */
  readonly onAuthRequired?: (message: string) => void;
  /** Called after a session was opened (new, load, resume): whatever sign-in it needed is done. */
  readonly onSessionOpened?: () => void;
}

/** What a new, loaded or resumed session is given. */
export interface AgentSessionRequest {
  /** The project's workspace folder: authorised, it becomes the session's `cwd`. */
  readonly cwd: string;
  /** The host's MCP servers, for agents that take them (may be empty). */
  readonly mcpServers: readonly McpServer[];
  readonly handlers: AgentClientHandlers;
}

/** Default of {@link AgentConnectionOptions.maxMessageBytes}. */
const DEFAULT_AGENT_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Updates kept for a session id not registered yet (its `session/new` answer is on the way). */
const EARLY_UPDATES_PER_SESSION = 256;
const EARLY_SESSIONS = 16;
/** After the stream ends, how long the process may take to report how it ended. */
const EXIT_REPORT_MS = 1_000;
/** JSON-RPC code of ACP's "authentication required". */
const AUTH_REQUIRED = -32000;
const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

interface Session extends AgentSessionScope {
  /** Updates are delivered one after the other. */
  queue: Promise<void>;
  /** Aborted by `cancel` (and when the session or connection ends): pending questions answer `cancelled`. */
  turn: AbortController;
}

/**
 * One live ACP connection to an agent, after `initialize`: the typed calls the host makes
 * (`session/new`, `load`, `resume`, `list`, `prompt`, `cancel`, `set_mode`,
 * `set_config_option`) and the client side it serves (updates and permission questions to each
 * session's {@link AgentClientHandlers}, files and terminals through
 * {@link AgentClientServices}).
 *
 * Every failure is an {@link AgentError} a person can read. When the connection ends (the
 * process exited, sent more than the size limit, or broke JSON-RPC), every request in flight
 * rejects with the same error, which `AgentProcess` fills with the tail of the agent's stderr.
 * A new process is a new connection: sessions of the old one are reopened with
 * `loadSession` / `resumeSession`.
 *
 * @example
 * ```ts
 * const connection = await agents.connection('opencode');
 * const { sessionId } = await connection.newSession({ cwd: '/home/me/site', mcpServers: [], handlers });
 * const { stopReason } = await connection.prompt(sessionId, [{ type: 'text', text: 'Add a footer' }]);
 * ```
 */
export class AgentConnection {
  readonly info: AgentInfo;
  /** Resolves with the reason once the connection has ended (never rejects). */
  readonly closed: Promise<AgentError>;
  private readonly name: string;
  private readonly sdk: ClientConnection;
  private readonly services: AgentClientServices;
  private readonly log: AgentLog;
  private readonly onAuthRequired: ((message: string) => void) | undefined;
  private readonly onSessionOpened: () => void;
  private readonly requestTimeoutMs: number;
  private readonly sessions: Map<string, Session>;
  private readonly early: Map<string, SessionNotification[]>;
  private readonly end: { reason: AgentError | undefined; resolve: (reason: AgentError) => void };

  private constructor(parts: {
    info: AgentInfo;
    options: AgentConnectionOptions;
    sdk: ClientConnection;
    sessions: Map<string, Session>;
    early: Map<string, SessionNotification[]>;
    end: AgentConnection['end'];
    closed: Promise<AgentError>;
  }) {
    this.info = parts.info;
    this.name = parts.options.name;
    this.sdk = parts.sdk;
    this.services = parts.options.services;
    this.log = parts.options.log ?? (() => {});
    this.onAuthRequired = parts.options.onAuthRequired;
    this.onSessionOpened = parts.options.onSessionOpened ?? (() => {});
    this.requestTimeoutMs = parts.options.requestTimeoutMs ?? 120_000;
    this.sessions = parts.sessions;
    this.early = parts.early;
    this.end = parts.end;
    this.closed = parts.closed;
  }

  /**
   * Connects to an agent and runs `initialize`: over a process's stdio (`AgentTransport`,
   * size-bounded, malformed JSON-RPC ends the connection) or to an agent app in the same
   * process (tests). Rejects with an {@link AgentError} when the agent does not answer in time
   * or answers with an error.
   */
  static async open(
    target: AgentTransport | AgentApp,
    options: AgentConnectionOptions,
  ): Promise<AgentConnection> {
    const sessions = new Map<string, Session>();
    const early = new Map<string, SessionNotification[]>();
    let resolveEnd: (reason: AgentError) => void = () => {};
    const closed = new Promise<AgentError>((resolve) => {
      resolveEnd = resolve;
    });
    const end: AgentConnection['end'] = { reason: undefined, resolve: resolveEnd };
    // The handlers close over `self`, which exists once `initialize` has been answered; the
    // agent may not call the client before that (the SDK's own rule for clients).
    let self: AgentConnection | undefined;
    const app = clientApp(() => self, options);
    const malformed = (what: string) => {
      const error = new AgentError('crashed', `The agent "${options.name}" ${what}.`);
      // Before `initialize` was answered there is no connection object yet: the wait ends.
      if (self) self.fail(error);
      else sdk.close(error);
    };
    const sdk: ClientConnection = isAgentApp(target)
      ? app.connect(target)
      : app.connect(
          guardedStream(target, {
            maxMessageBytes: options.maxMessageBytes ?? DEFAULT_AGENT_MESSAGE_BYTES,
            onMalformed: malformed,
          }),
        );
    const timeoutMs = options.initializeTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    let response: InitializeResponse;
    try {
      response = await Promise.race([
        sdk.agent.request(methods.agent.initialize, {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
          clientInfo: { name: 'webbridge', title: 'webbridge', version: '0.1.0' },
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new AgentError(
                  'unavailable',
                  `The agent "${options.name}" did not answer "initialize" within ${timeoutMs / 1000} s.`,
                ),
              ),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      sdk.close(error);
      throw startError(options.name, error);
    } finally {
      clearTimeout(timer);
    }
    const connection = new AgentConnection({
      info: infoOf(options.name, response),
      options,
      sdk,
      sessions,
      early,
      end,
      closed,
    });
    self = connection;
    void sdk.closed.then(() => connection.sdkClosed());
    return connection;
  }

  /** Whether the connection is still open. */
  get alive(): boolean {
    return this.end.reason === undefined && !this.sdk.signal.aborted;
  }

  /** `session/new` with the project's folder as `cwd`. */
  async newSession(request: AgentSessionRequest): Promise<NewSessionResponse> {
    const cwd = this.services.workspaceOf(request.cwd);
    const response = await this.call(
      () => this.sdk.agent.request(methods.agent.session.new, { cwd, mcpServers: [...request.mcpServers] }),
      'session/new',
    );
    this.register(response.sessionId, cwd, request.handlers);
    this.onSessionOpened();
    return response;
  }

  /**
   * `session/load`: the agent replays the session's history as updates (delivered to
   * `handlers` before this resolves). Throws `unsupported` when the agent does not offer it.
   */
  async loadSession(sessionId: string, request: AgentSessionRequest): Promise<LoadSessionResponse> {
    if (!this.info.can.load) throw this.unsupported('session/load');
    const cwd = this.services.workspaceOf(request.cwd);
    this.register(sessionId, cwd, request.handlers);
    try {
      const response = await this.call(
        () =>
          this.sdk.agent.request(methods.agent.session.load, {
            sessionId,
            cwd,
            mcpServers: [...request.mcpServers],
          }),
        'session/load',
      );
      await this.sessions.get(sessionId)?.queue;
      this.onSessionOpened();
      return response;
    } catch (error) {
      this.unregister(sessionId);
      throw error;
    }
  }

  /** `session/resume`: continues a session without replaying its history. Throws `unsupported` when not offered. */
  async resumeSession(sessionId: string, request: AgentSessionRequest): Promise<ResumeSessionResponse> {
    if (!this.info.can.resume) throw this.unsupported('session/resume');
    const cwd = this.services.workspaceOf(request.cwd);
    this.register(sessionId, cwd, request.handlers);
    try {
      const response = await this.call(
        () =>
          this.sdk.agent.request(methods.agent.session.resume, {
            sessionId,
            cwd,
            mcpServers: [...request.mcpServers],
          }),
        'session/resume',
      );
      this.onSessionOpened();
      return response;
    } catch (error) {
      this.unregister(sessionId);
      throw error;
    }
  }

  /** `session/list` (one page), optionally only the sessions of one folder. Throws `unsupported` when not offered. */
  async listSessions(
    filter: { readonly cwd?: string; readonly cursor?: string } = {},
  ): Promise<ListSessionsResponse> {
    if (!this.info.can.list) throw this.unsupported('session/list');
    const cwd = filter.cwd === undefined ? undefined : this.services.workspaceOf(filter.cwd);
    return this.call(
      () =>
        this.sdk.agent.request(methods.agent.session.list, {
          ...(cwd === undefined ? {} : { cwd }),
          ...(filter.cursor === undefined ? {} : { cursor: filter.cursor }),
        }),
      'session/list',
    );
  }

  /**
   * `session/prompt`: resolves with the stop reason when the turn ends (updates went to the
   * session's handlers meanwhile, all delivered before this resolves). Rejects with `crashed`
   * when the agent dies mid-turn.
   */
  async prompt(sessionId: string, prompt: readonly ContentBlock[]): Promise<PromptResponse> {
    const session = this.session(sessionId);
    const response = await this.call(() =>
      this.sdk.agent.request(methods.agent.session.prompt, { sessionId, prompt: [...prompt] }),
    );
    await session.queue;
    // A new turn: questions of this one were answered or cancelled.
    if (session.turn.signal.aborted) session.turn = new AbortController();
    return response;
  }

  /**
   * `session/cancel`: the agent stops the turn (its `prompt` resolves with `cancelled`); the
   * session's pending permission questions and writes are answered `cancelled` at once.
   */
  async cancel(sessionId: string): Promise<void> {
    const session = this.session(sessionId);
    session.turn.abort();
    session.turn = new AbortController();
    await this.call(() => this.sdk.agent.notify(methods.agent.session.cancel, { sessionId }));
  }

  /** `session/set_mode`. */
  async setMode(sessionId: string, modeId: string): Promise<void> {
    this.session(sessionId);
    await this.call(
      () => this.sdk.agent.request(methods.agent.session.setMode, { sessionId, modeId }),
      'session/set_mode',
    );
  }

  /** `session/set_config_option`: resolves with every option's new value. */
  async setConfigOption(request: SetSessionConfigOptionRequest): Promise<SetSessionConfigOptionResponse> {
    this.session(request.sessionId);
    return this.call(
      () => this.sdk.agent.request(methods.agent.session.setConfigOption, request),
      'session/set_config_option',
    );
  }

  /**
   * Stops serving a session (its terminals are killed, its questions cancelled) and, where the
   * agent offers `session/close`, closes it there too. Never throws.
   */
  async closeSession(sessionId: string): Promise<void> {
    if (!this.sessions.has(sessionId)) return;
    this.unregister(sessionId);
    if (!this.info.can.close || !this.alive) return;
    try {
      await this.sdk.agent.request(methods.agent.session.close, { sessionId });
    } catch (error) {
      this.log('info', `Agent "${this.name}" did not close session ${sessionId}: ${messageOf(error)}`);
    }
  }

  /** A terminal's output (for a tool call's `terminal` content); undefined when unknown. */
  terminalOutput(terminalId: string): TerminalOutputResponse | undefined {
    return this.services.peekTerminal(terminalId);
  }

  /**
   * Ends the connection with `reason`: every request in flight rejects with it, every pending
   * question is answered `cancelled`, every terminal is killed. The first reason wins.
   */
  fail(reason: AgentError): void {
    if (this.end.reason !== undefined) return;
    this.end.reason = reason;
    for (const session of this.sessions.values()) session.turn.abort();
    this.sdk.close(reason);
    void this.services.close();
    this.end.resolve(reason);
  }

  /** Ends the connection (host shutdown, agent restart); not a failure of the agent. */
  close(): void {
    this.fail(new AgentError('unavailable', `The agent "${this.name}" was stopped.`));
  }

  private register(sessionId: string, cwd: string, handlers: AgentClientHandlers): void {
    const old = this.sessions.get(sessionId);
    old?.turn.abort();
    const session: Session = {
      sessionId,
      cwd,
      handlers,
      queue: Promise.resolve(),
      turn: new AbortController(),
    };
    this.sessions.set(sessionId, session);
    const waiting = this.early.get(sessionId);
    this.early.delete(sessionId);
    for (const notification of waiting ?? []) this.deliver(session, notification);
  }

  private unregister(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    session.turn.abort();
    this.services.releaseSession(sessionId);
  }

  private session(sessionId: string): Session {
    const session = this.sessions.get(sessionId);
    if (session) return session;
    throw new AgentError(
      'unavailable',
      `The agent "${this.name}" has no open session ${sessionId} on this connection.`,
    );
  }

  /** @internal A `session/update` from the agent. */
  update(notification: SessionNotification): void {
    const session = this.sessions.get(notification.sessionId);
    if (session) {
      this.deliver(session, notification);
      return;
    }
    // The answer to `session/new` can be overtaken by its first updates; keep a few.
    let waiting = this.early.get(notification.sessionId);
    if (!waiting) {
      // Updates of a session nobody opens (one closed here, one of another client) must not
      // take the room of the next new session's: the oldest id goes.
      if (this.early.size >= EARLY_SESSIONS) {
        const oldest = this.early.keys().next().value;
        if (oldest !== undefined) this.early.delete(oldest);
      }
      waiting = [];
      this.early.set(notification.sessionId, waiting);
    }
    if (waiting.length < EARLY_UPDATES_PER_SESSION) waiting.push(notification);
  }

  private deliver(session: Session, notification: SessionNotification): void {
    session.queue = session.queue
      .then(() => session.handlers.sessionUpdate(notification))
      .catch((error: unknown) => {
        this.log('error', `An update of agent "${this.name}" could not be applied: ${messageOf(error)}`);
      });
  }

  /** @internal A `session/request_permission` from the agent. */
  async requestPermission(
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const session = this.sessions.get(request.sessionId);
    if (!session) return CANCELLED;
    // Updates sent before the question (its tool call) are applied before it is asked.
    await session.queue;
    return answerUnlessAborted(
      [signal, session.turn.signal],
      (both) => session.handlers.requestPermission(request, both),
      () => CANCELLED,
    );
  }

  /** @internal The session a client request (files, terminals) is about; an ACP error when unknown. */
  scope(sessionId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session) throw RequestError.invalidParams({ sessionId }, 'unknown session');
    return session;
  }

  /** Runs a request; every failure becomes an {@link AgentError}. `method` bounds its wait. */
  private async call<T>(run: () => Promise<T>, method?: string): Promise<T> {
    if (!this.alive) throw await this.ended();
    let timer: NodeJS.Timeout | undefined;
    try {
      if (method === undefined) return await run();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const seconds = Math.round(this.requestTimeoutMs / 1000);
          reject(
            new AgentError(
              'unavailable',
              `The agent "${this.name}" did not answer ${method} within ${seconds} s.`,
            ),
          );
        }, this.requestTimeoutMs);
      });
      return await Promise.race([run(), timeout]);
    } catch (error) {
      throw await this.translate(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private async translate(error: unknown): Promise<AgentError> {
    if (error instanceof AgentError) return error;
    if (error instanceof RequestError && !this.sdk.signal.aborted) {
      if (error.code === AUTH_REQUIRED) {
        const message = `The agent "${this.name}" needs you to sign in on the host: ${error.message}`;
        this.onAuthRequired?.(error.message);
        return new AgentError('needs_sign_in', message, error.code);
      }
      return new AgentError('refused', `The agent "${this.name}" refused: ${error.message}`, error.code);
    }
    return this.ended();
  }

  /** Why the connection ended, waiting a moment for the process to say how it exited. */
  private async ended(): Promise<AgentError> {
    if (this.end.reason) return this.end.reason;
    let timer: NodeJS.Timeout | undefined;
    const fallback = new Promise<AgentError>((resolve) => {
      timer = setTimeout(
        () => resolve(new AgentError('crashed', `The agent "${this.name}" closed the connection.`)),
        EXIT_REPORT_MS,
      );
    });
    const reason = await Promise.race([this.closed, fallback]);
    clearTimeout(timer);
    return reason;
  }

  private sdkClosed(): void {
    if (this.end.reason !== undefined) return;
    const cause = this.sdk.signal.reason;
    if (cause instanceof MessageTooLargeError) {
      this.fail(
        new AgentError(
          'crashed',
          `The agent "${this.name}" sent a message over ${Math.round(cause.maxMessageBytes / 1024 / 1024)} MiB.`,
        ),
      );
      return;
    }
    // Otherwise the stream ended: the process is exiting and `AgentProcess` says why.
    void this.ended().then((reason) => this.fail(reason));
  }

  private unsupported(method: string): AgentError {
    return new AgentError('unsupported', `The agent "${this.name}" does not offer ${method}.`);
  }
}

/** The SDK client app whose handlers reach the connection (once it exists) and the services. */
function clientApp(self: () => AgentConnection | undefined, options: AgentConnectionOptions): ClientApp {
  const live = (): AgentConnection => {
    const connection = self();
    if (!connection) throw RequestError.invalidRequest(undefined, 'the connection is not initialised');
    return connection;
  };
  const { services } = options;
  return client({ name: 'webbridge' })
    .onNotification(methods.client.session.update, ({ params }) => {
      self()?.update(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
      live().requestPermission(params, signal),
    )
    .onRequest(methods.client.fs.readTextFile, ({ params }) =>
      services.readTextFile(live().scope(params.sessionId), params),
    )
    .onRequest(methods.client.fs.writeTextFile, async ({ params, signal }) => {
      const session = live().scope(params.sessionId);
      await session.queue;
      await answerUnlessAborted(
        [signal, session.turn.signal],
        (both) => services.writeTextFile(session, params, both),
        () => Promise.reject(RequestError.requestCancelled()),
      );
      return {};
    })
    .onRequest(methods.client.terminal.create, ({ params }) =>
      services.createTerminal(live().scope(params.sessionId), params),
    )
    .onRequest(methods.client.terminal.output, ({ params }) =>
      services.terminalOutput(live().scope(params.sessionId), params),
    )
    .onRequest(methods.client.terminal.waitForExit, ({ params, signal }) =>
      services.waitForTerminalExit(live().scope(params.sessionId), params, signal),
    )
    .onRequest(methods.client.terminal.kill, async ({ params }) => {
      await services.killTerminal(live().scope(params.sessionId), params);
      return {};
    })
    .onRequest(methods.client.terminal.release, async ({ params }) => {
      await services.releaseTerminal(live().scope(params.sessionId), params);
      return {};
    });
}

/**
 * Runs `ask` with a signal aborted by any of `signals`; once one aborts, answers `fallback`
 * without waiting for `ask` (a person may never answer a cancelled question).
 */
async function answerUnlessAborted<T>(
  signals: readonly AbortSignal[],
  ask: (signal: AbortSignal) => Promise<T>,
  fallback: () => T | Promise<T>,
): Promise<T> {
  const both = AbortSignal.any([...signals]);
  if (both.aborted) return fallback();
  let onAbort: () => void = () => {};
  const aborted = new Promise<T>((resolve) => {
    onAbort = () => resolve(fallback());
    both.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([ask(both), aborted]);
  } finally {
    both.removeEventListener('abort', onAbort);
  }
}

function infoOf(name: string, response: InitializeResponse): AgentInfo {
  const capabilities = response.agentCapabilities ?? {};
  const sessions = capabilities.sessionCapabilities ?? {};
  const prompt = capabilities.promptCapabilities ?? {};
  return {
    name: response.agentInfo?.name ?? name,
    title: response.agentInfo?.title ?? undefined,
    version: response.agentInfo?.version,
    protocolVersion: response.protocolVersion,
    capabilities,
    authMethods: response.authMethods ?? [],
    can: {
      load: capabilities.loadSession === true,
      resume: sessions.resume != null,
      list: sessions.list != null,
      close: sessions.close != null,
      image: prompt.image === true,
      audio: prompt.audio === true,
      embeddedContext: prompt.embeddedContext === true,
    },
  };
}

function startError(name: string, error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  if (error instanceof RequestError) {
    return new AgentError('refused', `The agent "${name}" refused to start: ${error.message}`, error.code);
  }
  return new AgentError('crashed', `The agent "${name}" ended before it answered "initialize".`);
}

function isAgentApp(target: AgentTransport | AgentApp): target is AgentApp {
  return !('stdin' in target);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
