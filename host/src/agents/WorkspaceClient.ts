import fs from 'node:fs';
import path from 'node:path';
import {
  type CreateTerminalRequest,
  type CreateTerminalResponse,
  type KillTerminalRequest,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type ReleaseTerminalRequest,
  RequestError,
  type TerminalOutputRequest,
  type TerminalOutputResponse,
  type WaitForTerminalExitRequest,
  type WaitForTerminalExitResponse,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import { resolveInWorkspace } from '../controller/tools/resolveInWorkspace';
import { ToolError } from '../controller/tools/ToolError';
import { writeAtomically } from '../controller/tools/writeAtomically';
import { isInside } from '../workspace/isInside';
import type { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import type { AgentClientServices, AgentSessionScope } from './AgentClientServices';
import { AgentError } from './AgentError';
import { AgentTerminal } from './AgentTerminal';

/**
 * What the client needs of the host's `WorkspaceAuthoriser` (which folders may be workspaces);
 * a view rather than the object, so the registry can be made before the controller that owns it.
 */
export type WorkspaceAccess = Pick<WorkspaceAuthoriser, 'authorisePath' | 'roots'>;

/** Limits of {@link WorkspaceClient}; tests lower them. */
export interface WorkspaceClientLimits {
  /** Largest file read or replaced, in bytes. @default 8 MiB */
  readonly maxFileBytes?: number;
  /** Most output kept per terminal (an agent may ask for less, never more). @default 1 MiB */
  readonly maxTerminalOutputBytes?: number;
  /** Most terminals one agent connection has at once. @default 16 */
  readonly maxTerminals?: number;
  /** Shortest pause between two `terminalChanged` calls for one terminal. @default 250 */
  readonly terminalChangedMs?: number;
}

const DEFAULTS: Required<WorkspaceClientLimits> = {
  maxFileBytes: 8 * 1024 * 1024,
  maxTerminalOutputBytes: 1024 * 1024,
  maxTerminals: 16,
  terminalChangedMs: 250,
};

/**
 * The host's side of an agent's client capabilities: `fs/read_text_file`,
 * `fs/write_text_file` and `terminal/*`, each confined to the session's workspace folder (a
 * project folder the {@link WorkspaceAuthoriser} allows). A path outside it — by `..`, a
 * symlink or simply another absolute path — is an ACP error and nothing is read, written or
 * run. A write happens only after the session's `approveWrite` said yes, atomically.
 * Terminals keep bounded output and die with the connection.
 */
export class WorkspaceClient implements AgentClientServices {
  private readonly authoriser: WorkspaceAccess;
  private readonly limits: Required<WorkspaceClientLimits>;
  private readonly terminals = new Map<string, AgentTerminal>();
  private nextTerminal = 0;

  constructor(authoriser: WorkspaceAccess, limits: WorkspaceClientLimits = {}) {
    this.authoriser = authoriser;
    this.limits = { ...DEFAULTS, ...limits };
  }

  workspaceOf(cwd: string): string {
    const real = path.isAbsolute(cwd) ? this.authoriser.authorisePath(cwd) : undefined;
    if (real === undefined) {
      throw new AgentError('unavailable', 'The project folder is not a workspace folder the host allows.');
    }
    return real;
  }

  async readTextFile(scope: AgentSessionScope, request: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const file = this.resolve(scope, request.path);
    const text = this.readExisting(file);
    if (text === undefined) throw RequestError.resourceNotFound(request.path);
    return { content: sliceLines(text, request.line ?? undefined, request.limit ?? undefined) };
  }

  async writeTextFile(
    scope: AgentSessionScope,
    request: WriteTextFileRequest,
    signal: AbortSignal,
  ): Promise<void> {
    if (Buffer.byteLength(request.content) > this.limits.maxFileBytes) {
      throw RequestError.invalidParams(undefined, `the content is over ${this.limits.maxFileBytes} bytes`);
    }
    const file = this.resolve(scope, request.path);
    const oldText = this.readExisting(file);
    const allowed = await scope.handlers.approveWrite(
      {
        sessionId: scope.sessionId,
        path: file,
        relativePath: path.relative(scope.cwd, file),
        oldText,
        newText: request.content,
      },
      signal,
    );
    if (signal.aborted) throw RequestError.requestCancelled();
    if (!allowed) throw RequestError.invalidRequest(undefined, 'the user did not allow this write');
    // Checked again: the folders may have changed while the person was deciding.
    const planned = this.resolve(scope, request.path);
    const mode = modeOf(planned);
    fs.mkdirSync(path.dirname(planned), { recursive: true });
    // And once more after making its folders: the path written is the one last checked.
    const target = this.resolve(scope, request.path);
    try {
      writeAtomically(target, request.content, mode);
    } catch (error) {
      throw RequestError.internalError(undefined, (error as Error).message);
    }
  }

  async createTerminal(
    scope: AgentSessionScope,
    request: CreateTerminalRequest,
  ): Promise<CreateTerminalResponse> {
    if (this.terminals.size >= this.limits.maxTerminals) {
      throw RequestError.invalidRequest(undefined, `at most ${this.limits.maxTerminals} terminals at once`);
    }
    if (request.command.trim() === '' || request.command.includes('\0')) {
      throw RequestError.invalidParams(undefined, 'the command is empty or invalid');
    }
    const cwd = request.cwd ? this.resolve(scope, request.cwd) : scope.cwd;
    if (!isFolder(cwd))
      throw RequestError.invalidParams(undefined, 'the cwd is not a folder of the workspace');
    const args = request.args ?? [];
    const env: Record<string, string> = {};
    for (const variable of request.env ?? []) env[variable.name] = variable.value;
    const asked = request.outputByteLimit ?? this.limits.maxTerminalOutputBytes;
    const id = `term-${++this.nextTerminal}`;
    const notify = throttled(() => scope.handlers.terminalChanged?.(id), this.limits.terminalChangedMs);
    const terminal = new AgentTerminal(
      id,
      scope.sessionId,
      {
        // A command line without arguments ("npm test") is what a person would type: a shell runs it.
        ...(args.length === 0 && /\s/.test(request.command.trim())
          ? { command: '/bin/sh', args: ['-c', request.command] }
          : { command: request.command, args }),
        cwd,
        env,
        outputByteLimit: Math.max(0, Math.min(asked, this.limits.maxTerminalOutputBytes)),
      },
      notify,
    );
    this.terminals.set(id, terminal);
    return { terminalId: id };
  }

  terminalOutput(scope: AgentSessionScope, request: TerminalOutputRequest): TerminalOutputResponse {
    return this.terminal(scope, request.terminalId).read();
  }

  async waitForTerminalExit(
    scope: AgentSessionScope,
    request: WaitForTerminalExitRequest,
    signal: AbortSignal,
  ): Promise<WaitForTerminalExitResponse> {
    const terminal = this.terminal(scope, request.terminalId);
    let onAbort: () => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(RequestError.requestCancelled());
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([terminal.exited, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  async killTerminal(scope: AgentSessionScope, request: KillTerminalRequest): Promise<void> {
    this.terminal(scope, request.terminalId).kill();
  }

  async releaseTerminal(scope: AgentSessionScope, request: ReleaseTerminalRequest): Promise<void> {
    const terminal = this.terminal(scope, request.terminalId);
    terminal.kill();
    this.terminals.delete(terminal.id);
  }

  peekTerminal(terminalId: string): TerminalOutputResponse | undefined {
    return this.terminals.get(terminalId)?.read();
  }

  releaseSession(sessionId: string): void {
    for (const terminal of [...this.terminals.values()]) {
      if (terminal.sessionId !== sessionId) continue;
      terminal.kill();
      this.terminals.delete(terminal.id);
    }
  }

  async close(): Promise<void> {
    const all = [...this.terminals.values()];
    this.terminals.clear();
    for (const terminal of all) terminal.kill();
    await Promise.all(all.map((terminal) => terminal.exited));
  }

  /**
   * The absolute path an agent named, resolved inside the session's workspace (through
   * symlinks, for files that do not exist yet through their deepest existing folder).
   * Anything else is an ACP "invalid params" error naming only what the agent sent.
   */
  private resolve(scope: AgentSessionScope, requested: string): string {
    if (!path.isAbsolute(requested)) {
      throw RequestError.invalidParams({ path: requested }, 'paths must be absolute');
    }
    const target = path.resolve(requested);
    if (!isInside(scope.cwd, target)) {
      throw RequestError.invalidParams({ path: requested }, "the path is outside the session's workspace");
    }
    try {
      return resolveInWorkspace(scope.cwd, path.relative(scope.cwd, target) || '.');
    } catch (error) {
      if (error instanceof ToolError) throw RequestError.invalidParams({ path: requested }, error.message);
      throw error;
    }
  }

  /** The text of an existing file, undefined when there is none; refuses folders, links and big files. */
  private readExisting(file: string): string | undefined {
    let fd: number;
    try {
      // O_NOFOLLOW: the last component was checked, but it must not become a link in between.
      fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw RequestError.invalidParams(undefined, 'the file cannot be opened');
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw RequestError.invalidParams(undefined, 'the path is not a file');
      if (stat.size > this.limits.maxFileBytes) {
        throw RequestError.invalidParams(undefined, `the file is over ${this.limits.maxFileBytes} bytes`);
      }
      return fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  }

  private terminal(scope: AgentSessionScope, terminalId: string): AgentTerminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal || terminal.sessionId !== scope.sessionId) throw RequestError.resourceNotFound(terminalId);
    return terminal;
  }
}

/** Lines `line` (1-based) to `line + limit - 1` of `text`; all of it without either. */
function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
}

function modeOf(file: string): number {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return 0o644;
  }
}

function isFolder(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/** Calls `run` at most once per `ms`, the last call of a burst included. */
function throttled(run: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  return () => {
    if (timer) return;
    const wait = Math.max(0, last + ms - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      last = Date.now();
      run();
    }, wait);
    timer.unref();
  };
}
