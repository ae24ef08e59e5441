import type * as acp from '@agentclientprotocol/sdk';

/**
 * One thing the fake agent does during a prompt turn, in order. Plain JSON, so the same script
 * drives the agent in-process and as a child process (see {@link FakeAgentScript}).
 */
export type FakeStep =
  /** `agent_message_chunk` per piece (a string is split into words, each keeping its space). */
  | { readonly type: 'say'; readonly text: string | readonly string[]; readonly delayMs?: number }
  /** `agent_thought_chunk` per piece, like `say`. */
  | { readonly type: 'think'; readonly text: string | readonly string[]; readonly delayMs?: number }
  /** Any session update as is: tool_call, tool_call_update, plan, available_commands_update, ... */
  | { readonly type: 'update'; readonly update: acp.SessionUpdate }
  /**
   * `session/request_permission` about this tool call, then `onAllow` or `onReject` by the kind of
   * the option chosen. An answer `cancelled` (or a `session/cancel` meanwhile) ends the turn with
   * stop reason `cancelled`.
   */
  | {
      readonly type: 'permission';
      readonly toolCall: acp.ToolCallUpdate;
      /** @default {@link ALL_PERMISSION_OPTIONS} */
      readonly options?: readonly acp.PermissionOption[];
      readonly onAllow?: readonly FakeStep[];
      readonly onReject?: readonly FakeStep[];
    }
  /**
   * `fs/write_text_file` to the client. With `toolCallId`, then a `tool_call_update` completed,
   * or failed with the client's error message.
   */
  | {
      readonly type: 'writeFile';
      readonly path: string;
      readonly content: string;
      readonly toolCallId?: string;
    }
  /** `fs/read_text_file`; with `echo` the content (or the error) comes back as a message chunk. */
  | {
      readonly type: 'readFile';
      readonly path: string;
      readonly line?: number;
      readonly limit?: number;
      readonly echo?: boolean;
    }
  /**
   * `terminal/create`, a `tool_call` (kind execute) whose content is the terminal, then
   * `terminal/kill` (with `kill`) or `terminal/wait_for_exit`, `terminal/output`,
   * `terminal/release` and a `tool_call_update` completed with the output as raw output.
   */
  | {
      readonly type: 'terminal';
      readonly command: string;
      readonly args?: readonly string[];
      readonly cwd?: string;
      readonly outputByteLimit?: number;
      readonly toolCallId?: string;
      readonly kill?: boolean;
    }
  /** Nothing for this long (cut short by a cancel). */
  | { readonly type: 'wait'; readonly ms: number }
  /** Nothing until `session/cancel` arrives; the turn then ends `cancelled`. */
  | { readonly type: 'waitForCancel' }
  /** Writes this text to stderr and exits with the code (in-process: closes the connection). */
  | { readonly type: 'crash'; readonly stderr: string; readonly code?: number }
  /** Child only: this line as is on stdout (malformed JSON, a stray log line). */
  | { readonly type: 'rawLine'; readonly line: string }
  /** Child only: a well-formed `agent_message_chunk` notification line of about this many bytes. */
  | { readonly type: 'oversizeLine'; readonly bytes: number }
  /** The prompt request fails with this JSON-RPC error. */
  | { readonly type: 'fail'; readonly code: number; readonly message: string; readonly data?: unknown };

/** What one `session/prompt` does. */
export interface FakeTurn {
  readonly steps: readonly FakeStep[];
  /** @default 'end_turn' (a cancelled turn always ends 'cancelled') */
  readonly stopReason?: acp.StopReason;
  /** Token usage on the prompt response (the unstable `PromptResponse.usage` field). */
  readonly usage?: {
    readonly totalTokens: number;
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly thoughtTokens?: number;
  };
}

/** A session the agent knows: listed, loaded (its history replayed) and resumed. */
export interface FakeSessionRecord {
  readonly sessionId: string;
  readonly cwd: string;
  title?: string;
  updatedAt?: string;
  /** Every update of the session so far, user chunks included, replayed by `session/load`. */
  readonly history: acp.SessionUpdate[];
  modes?: acp.SessionModeState;
  configOptions?: acp.SessionConfigOption[];
}

/** Everything a test scripts about one fake agent. JSON-serialisable. */
export interface FakeAgentScript {
  /** @default { name: 'fake-agent', title: 'Fake Agent', version: '1.0.0' } */
  readonly agentInfo?: acp.Implementation;
  /** Merged over the defaults: loadSession, list, resume, close, image and embedded context. */
  readonly capabilities?: acp.AgentCapabilities;
  readonly authMethods?: readonly acp.AuthMethod[];
  /**
   * Session requests fail with `auth_required` (-32000) until `authenticate` names one of the
   * auth methods, or (the object form) until this file exists (a sign-in done on the host).
   */
  readonly requireAuth?: boolean | { readonly untilFileExists: string };
  /** Each new session's modes. */
  readonly modes?: acp.SessionModeState;
  /** Each new session's config options. */
  readonly configOptions?: readonly acp.SessionConfigOption[];
  /** Sessions the agent already has (desk to phone). */
  readonly sessions?: readonly FakeSessionRecord[];
  /** One per `session/prompt`, in order across sessions; after them, the prompt is echoed. */
  readonly turns?: readonly FakeTurn[];
  /** Slow agent: delays before answering these requests. */
  readonly delays?: { readonly initialize?: number; readonly newSession?: number };
  /** Child: the sessions are kept in this JSON file, so a restarted agent can load them. */
  readonly stateFile?: string;
  /** Child: every event (see FakeAgentEvent) is appended to this file as one JSON line. */
  readonly logFile?: string;
}

/** What the fake saw and did, for a test to assert. */
export type FakeAgentEvent =
  | { readonly type: 'received'; readonly method: string; readonly params: unknown }
  | {
      readonly type: 'permission';
      readonly toolCallId: string;
      readonly outcome: acp.RequestPermissionOutcome;
    }
  | { readonly type: 'write'; readonly path: string; readonly error?: string }
  | { readonly type: 'read'; readonly path: string; readonly content?: string; readonly error?: string }
  | {
      readonly type: 'terminal';
      readonly terminalId?: string;
      readonly output?: string;
      readonly exit?: acp.WaitForTerminalExitResponse;
      readonly error?: string;
    }
  | { readonly type: 'cancel'; readonly sessionId: string };

/** The four permission options, one of each kind, as agents commonly offer them. */
export const ALL_PERMISSION_OPTIONS: readonly acp.PermissionOption[] = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject-always', name: 'Always reject', kind: 'reject_always' },
];
