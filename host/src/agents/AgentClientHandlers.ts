import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionNotification,
} from '@agentclientprotocol/sdk';

/** A file an agent asks the host to write (`fs/write_text_file`), already checked to be inside the session's workspace. */
export interface AgentFileWrite {
  readonly sessionId: string;
  /** Absolute path, resolved through symlinks, inside the session's workspace folder. */
  readonly path: string;
  /** The path relative to the workspace folder (for display). */
  readonly relativePath: string;
  /** The file's text now; undefined when it does not exist yet. */
  readonly oldText: string | undefined;
  readonly newText: string;
}

/**
 * What one ACP session of a conversation hands the agent connection: where its updates go and
 * who answers its questions. The agent-sessions layer implements it per conversation and
 * passes it to `newSession` / `loadSession` / `resumeSession`.
 *
 * Calls for one session come in the order the agent sent them: `sessionUpdate` is awaited
 * before the next update of that session is delivered.
 */
export interface AgentClientHandlers {
  /** A `session/update` of this session (message and thought chunks, tool calls, plans, ...). */
  sessionUpdate(notification: SessionNotification): void | Promise<void>;
  /**
   * The agent's `session/request_permission`: an approval with the agent's own options.
   * `signal` aborts when the turn is cancelled (`session/cancel`) or the agent goes away; the
   * connection then answers `cancelled` itself, whatever this promise does later.
   */
  requestPermission(
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse>;
  /**
   * Whether an agent's `fs/write_text_file` may be written: the same rules as the host's own
   * write tools (ask unless the user already allowed this change, e.g. through the agent's
   * permission request for the same tool call). Resolve false to refuse the write (the agent
   * gets an ACP error, nothing is written). `signal` aborts as for {@link requestPermission}.
   */
  approveWrite(write: AgentFileWrite, signal: AbortSignal): Promise<boolean>;
  /**
   * A terminal of this session has new output or has exited (at most every few hundred ms);
   * read it with `AgentConnection.terminalOutput`. For a tool call's `terminal` content.
   */
  terminalChanged?(terminalId: string): void;
}
