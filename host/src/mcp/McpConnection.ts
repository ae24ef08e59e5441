import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../controller/tools/ToolError';
import { backoffDelay } from './backoffDelay';
import type { McpLog, McpTuning } from './McpTuning';
import type { McpServerConfig } from './mcpConfig';
import { type OpenedClient, openClient } from './openClient';
import { Redactor } from './Redactor';

/** Where a server is in its life (see the contract's `mcpServerSchema`). */
export type McpState = 'starting' | 'ready' | 'failed' | 'restarting';

/** Most tools of one server that are listed; the rest are left out (and logged). */
const MAX_TOOLS_PER_SERVER = 128;
/** Most `tools/list` pages read. */
const MAX_PAGES = 16;
/** A server that stayed ready this long starts its backoff from the beginning after a failure. */
const STABLE_MS = 60_000;

/** One connection attempt: callbacks of an older attempt find it replaced and do nothing. */
interface Attempt extends OpenedClient {
  readonly id: number;
  /** Set once the handshake and the tool list are done. */
  ready: boolean;
}

/**
 * One MCP server: connects with the official SDK client, lists its tools, calls them with a
 * timeout, and keeps it running. A server that cannot start, exits, stops answering or answers
 * garbage is `failed` (its tools are gone, calls in flight end with a readable error) and is
 * started again after a growing pause; `restart()` does it at once.
 *
 * Every reason it keeps or logs is scrubbed of the server's configured secrets.
 */
export class McpConnection {
  readonly config: McpServerConfig;
  private readonly tuning: Required<McpTuning>;
  private readonly log: McpLog;
  private readonly onChange: () => void;
  private readonly redactor: Redactor;
  private stateNow: McpState = 'starting';
  private toolsNow: readonly McpTool[] = [];
  private lastErrorNow: string | undefined;
  private current: Attempt | undefined;
  private attempts = 0;
  private failures = 0;
  private readySince = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(config: McpServerConfig, tuning: Required<McpTuning>, log: McpLog, onChange: () => void) {
    this.config = config;
    this.tuning = tuning;
    this.log = log;
    this.onChange = onChange;
    this.redactor = new Redactor(config);
  }

  get name(): string {
    return this.config.name;
  }

  get state(): McpState {
    return this.stateNow;
  }

  /** The server's tools while it is ready; empty otherwise. */
  get tools(): readonly McpTool[] {
    return this.toolsNow;
  }

  get lastError(): string | undefined {
    return this.lastErrorNow;
  }

  /** Starts the first connection (in the background). */
  start(): void {
    void this.connect('starting');
  }

  /** Drops the current connection (if any) and connects again now, with a fresh backoff. */
  restart(): void {
    if (this.closed) return;
    this.failures = 0;
    this.drop();
    void this.connect('restarting');
  }

  /** Stops the server for good (host shutdown): its child is ended within about a second. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const attempt = this.current;
    this.current = undefined;
    if (attempt) await closeAttempt(attempt);
  }

  /**
   * Calls one of the server's tools. Resolves with the server's result; rejects with a
   * {@link ToolError} a person can read when the server is away, times out (the call is
   * cancelled), stops during the call or answers something that is not a result. Aborting
   * `signal` cancels the call on the server too.
   */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const attempt = this.current;
    if (this.stateNow !== 'ready' || !attempt) throw this.unavailable();
    try {
      const result = await attempt.client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: this.config.timeoutMs,
      });
      return result as CallToolResult;
    } catch (error) {
      if (signal.aborted) throw new ToolError('The call was stopped.');
      throw this.callFailure(attempt, error);
    }
  }

  /** Why a call cannot run now. */
  unavailable(): ToolError {
    const why = this.lastErrorNow === undefined ? '' : ` Last error: ${this.lastErrorNow}`;
    return new ToolError(`The MCP server "${this.name}" is not ready (${this.stateNow}).${why}`);
  }

  private callFailure(attempt: Attempt, error: unknown): ToolError {
    const server = `The MCP server "${this.name}"`;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      // A server that misses one call may be busy or may be stuck: a ping tells which.
      void this.checkAlive(attempt);
      return new ToolError(
        `${server} did not answer within ${seconds(this.config.timeoutMs)}; the call was cancelled.`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new ToolError(`${server} stopped during the call.`);
    }
    if (isValidationError(error))
      return new ToolError(`${server} answered with something that is not a tool result.`);
    if (error instanceof McpError) return new ToolError(`${server} refused the call: ${this.scrub(error)}`);
    // Anything else is the transport failing (an HTTP server gone, a broken pipe): reconnect.
    this.fail(attempt, `The connection failed: ${this.scrub(error)}`);
    return new ToolError(`${server} could not be reached; it is being restarted.`);
  }

  private async connect(state: 'starting' | 'restarting'): Promise<void> {
    clearTimeout(this.retryTimer);
    const attempt: Attempt = { id: ++this.attempts, ready: false, ...openClient(this.config) };
    this.current = attempt;
    this.toolsNow = [];
    this.setState(state);
    const { client } = attempt;
    client.onclose = () => {
      // Before it is ready, the start's own failure (below) tells the story better.
      if (attempt.ready) this.fail(attempt, this.exitReason(attempt, 'The server closed the connection.'));
    };
    // Stray output (a server logging to stdout) is not fatal: a server that only says garbage
    // never completes the handshake and fails by its timeout.
    client.onerror = () => {};
    try {
      await client.connect(attempt.transport, { timeout: this.tuning.startTimeoutMs });
      const tools = await this.listTools(attempt);
      if (this.current !== attempt) return;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        void this.refreshTools(attempt);
      });
      attempt.ready = true;
      this.toolsNow = tools;
      this.lastErrorNow = undefined;
      this.readySince = Date.now();
      this.setState('ready');
      this.log('info', `MCP server "${this.name}" is ready with ${tools.length} tools.`);
    } catch (error) {
      const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
      const reason = closed ? 'It exited before it was ready.' : `It could not start: ${this.scrub(error)}`;
      this.fail(attempt, this.exitReason(attempt, reason));
    }
  }

  private async listTools(attempt: Attempt): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await attempt.client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: this.tuning.startTimeoutMs,
      });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined || tools.length >= MAX_TOOLS_PER_SERVER) break;
    }
    if (tools.length > MAX_TOOLS_PER_SERVER) {
      this.log(
        'warn',
        `MCP server "${this.name}" has ${tools.length} tools; only the first ${MAX_TOOLS_PER_SERVER} are offered.`,
      );
    }
    return tools.slice(0, MAX_TOOLS_PER_SERVER);
  }

  private async refreshTools(attempt: Attempt): Promise<void> {
    try {
      const tools = await this.listTools(attempt);
      if (this.current !== attempt || this.stateNow !== 'ready') return;
      this.toolsNow = tools;
      this.onChange();
    } catch (error) {
      this.fail(attempt, `Its new tool list could not be read: ${this.scrub(error)}`);
    }
  }

  private async checkAlive(attempt: Attempt): Promise<void> {
    try {
      await attempt.client.ping({ timeout: this.tuning.pingTimeoutMs });
    } catch {
      this.fail(attempt, 'It stopped answering (a call timed out and a ping got no answer).');
    }
  }

  /** Marks the attempt failed (if it is still the current one) and schedules the next one. */
  private fail(attempt: Attempt, reason: string): void {
    if (this.current !== attempt || this.closed) return;
    this.current = undefined;
    void closeAttempt(attempt);
    if (this.stateNow === 'ready' && Date.now() - this.readySince >= STABLE_MS) this.failures = 0;
    const delay = backoffDelay(this.failures++, this.tuning.backoffInitialMs, this.tuning.backoffMaxMs);
    // The same failure again (a server that cannot start) is said once, not at every retry.
    const level = reason === this.lastErrorNow ? 'info' : 'warn';
    this.toolsNow = [];
    this.lastErrorNow = reason;
    this.setState('failed');
    this.log(level, `MCP server "${this.name}" failed: ${reason} Retrying in ${seconds(delay)}.`);
    this.retryTimer = setTimeout(() => void this.connect('restarting'), delay);
    this.retryTimer.unref();
  }

  /** Ends the current attempt without counting it as a failure (a restart asked for). */
  private drop(): void {
    clearTimeout(this.retryTimer);
    const attempt = this.current;
    this.current = undefined;
    if (attempt) void closeAttempt(attempt);
  }

  private exitReason(attempt: Attempt, fallback: string): string {
    const lines = attempt.stderrTail().trim().split('\n');
    const last = lines[lines.length - 1]?.trim();
    return last ? `${fallback} Its last output: ${this.scrub(last)}` : fallback;
  }

  private scrub(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    // The status says more than the body: 401 is a header to fix, 404 a URL.
    const status =
      error instanceof StreamableHTTPError && error.code !== undefined ? `HTTP ${error.code}: ` : '';
    return this.redactor.scrub(`${status}${message}`);
  }

  private setState(state: McpState): void {
    this.stateNow = state;
    this.onChange();
  }
}

/**
 * Closes a client: an HTTP session is ended (DELETE, half a second at most), a child that does
 * not exit is sent SIGTERM, then SIGKILL, within about a second.
 */
async function closeAttempt(attempt: Attempt): Promise<void> {
  // A close we asked for is not a failure.
  attempt.client.onclose = () => {};
  const { transport } = attempt;
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    await Promise.race([transport.terminateSession().catch(() => {}), sleep(500)]);
  }
  const pid = attempt.transport instanceof StdioClientTransport ? attempt.transport.pid : null;
  const closing = attempt.client.close().catch(() => {});
  if (pid === null) {
    await closing;
    return;
  }
  // The SDK waits 2 s after closing stdin before it signals; shutdown has less than that.
  const term = setTimeout(() => signal(pid, 'SIGTERM'), 300);
  const kill = setTimeout(() => signal(pid, 'SIGKILL'), 1_000);
  await closing;
  clearTimeout(term);
  clearTimeout(kill);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function isValidationError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'ZodError' || Array.isArray((error as { issues?: unknown }).issues))
  );
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
