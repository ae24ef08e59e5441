import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  ReadTextFileRequest,
  ReadTextFileResponse,
  ReleaseTerminalRequest,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
  WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import type { AgentClientHandlers } from './AgentClientHandlers';

/** The ACP session a client request belongs to: its workspace folder and its handlers. */
export interface AgentSessionScope {
  readonly sessionId: string;
  /** The session's workspace folder (absolute, resolved, authorised). */
  readonly cwd: string;
  readonly handlers: AgentClientHandlers;
}

/**
 * The client capabilities the host serves to an agent: files and terminals, confined to each
 * session's workspace folder ({@link WorkspaceClient} is the host's). A method throws an ACP
 * `RequestError` for a request it refuses; nothing outside the workspace is read or run.
 */
export interface AgentClientServices {
  /** The canonical workspace folder for a session's `cwd`; throws an `AgentError` when it is not authorised. */
  workspaceOf(cwd: string): string;
  readTextFile(scope: AgentSessionScope, request: ReadTextFileRequest): Promise<ReadTextFileResponse>;
  writeTextFile(scope: AgentSessionScope, request: WriteTextFileRequest, signal: AbortSignal): Promise<void>;
  createTerminal(scope: AgentSessionScope, request: CreateTerminalRequest): Promise<CreateTerminalResponse>;
  terminalOutput(scope: AgentSessionScope, request: TerminalOutputRequest): TerminalOutputResponse;
  waitForTerminalExit(
    scope: AgentSessionScope,
    request: WaitForTerminalExitRequest,
    signal: AbortSignal,
  ): Promise<WaitForTerminalExitResponse>;
  killTerminal(scope: AgentSessionScope, request: KillTerminalRequest): Promise<void>;
  releaseTerminal(scope: AgentSessionScope, request: ReleaseTerminalRequest): Promise<void>;
  /** A terminal's output by id, for display (any session); undefined when there is none. */
  peekTerminal(terminalId: string): TerminalOutputResponse | undefined;
  /** Kills and forgets a session's terminals (the session was closed). */
  releaseSession(sessionId: string): void;
  /** Kills every terminal (the connection ended). */
  close(): Promise<void>;
}
