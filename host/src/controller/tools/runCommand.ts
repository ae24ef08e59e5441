import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { commandEnv } from './commandEnv';
import { resolveInWorkspace } from './resolveInWorkspace';
import { optionalIntArg, optionalStringArg, preview, stringArg, type Tool, type ToolArgs } from './Tool';
import { ToolError } from './ToolError';

/** Options of {@link createRunCommand}. */
export interface RunCommandOptions {
  /** A command still running after this long is killed. @default 30000 */
  readonly timeoutMs?: number;
  /** Output (stdout and stderr together) kept; the rest is counted and dropped. @default 65536 */
  readonly maxOutputBytes?: number;
  /** Between SIGTERM at the timeout and SIGKILL. @default 1000 */
  readonly killGraceMs?: number;
}

/** Most arguments in one call. */
const MAX_ARGS = 200;
/** Longest timeout a call may ask for, in seconds. */
const MAX_TIMEOUT_SECONDS = 600;

/** How the process ended: its exit code, or the signal that ended it. */
type Ending = { readonly code: number | null; readonly signal: string | null };

/**
 * `run_command {command, args?, cwd?, timeoutSeconds?}`: runs a program in the workspace and
 * answers its output and exit code. Off unless `settings.allowCommands`; needs approval.
 *
 * It is spawned without a shell (no expansion, pipes or redirection: the arguments reach the
 * program as given), in its own process group so a timeout or a stop kills everything it
 * started, with a working folder inside the workspace and an environment without credentials
 * ({@link commandEnv}). This confines where it starts, not what it can do: the program runs
 * with the host's rights, which is why every call is shown to the user first.
 */
export function createRunCommand(options: RunCommandOptions = {}): Tool<string> {
  const defaultTimeoutMs = options.timeoutMs ?? 30_000;
  const maxOutputBytes = options.maxOutputBytes ?? 64 * 1024;
  const killGraceMs = options.killGraceMs ?? 1000;
  return {
    name: 'run_command',
    description:
      'Run a program in the project workspace (no shell: no pipes, globbing or redirection) and ' +
      `return its output and exit code. Killed after ${defaultTimeoutMs / 1000} s unless timeoutSeconds ` +
      `says otherwise; output is cut at ${maxOutputBytes} bytes.`,
    needsApproval: true,
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The program, e.g. "npm" or "git" (found on PATH).' },
        args: { type: 'array', items: { type: 'string' }, description: 'Its arguments, one per item.' },
        cwd: { type: 'string', description: 'Folder to run in, relative to the workspace root.' },
        timeoutSeconds: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_TIMEOUT_SECONDS,
          description: `Kill it after this many seconds (default ${defaultTimeoutMs / 1000}).`,
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    enabled: (settings) => settings.allowCommands,
    summarize: (args) => {
      const argv = Array.isArray(args.args) ? args.args.map(quote).join(' ') : '';
      const where = typeof args.cwd === 'string' ? ` in ${preview(args.cwd, 40)}` : '';
      return `Run ${preview(`${quote(args.command)} ${argv}`.trim(), 120)}${where}`;
    },
    async run(args, { workspace, settings, signal }) {
      if (!settings.allowCommands) {
        throw new ToolError('run_command is disabled in settings (turn on "allow commands" to use it).');
      }
      const command = stringArg(args, 'command');
      if (command.trim() === '' || command.includes('\0'))
        throw new ToolError('The command is empty or invalid.');
      const argv = argsOf(args);
      const timeoutSeconds = optionalIntArg(args, 'timeoutSeconds', 1, MAX_TIMEOUT_SECONDS);
      const timeoutMs = timeoutSeconds === undefined ? defaultTimeoutMs : timeoutSeconds * 1000;
      const cwd = resolveInWorkspace(workspace, optionalStringArg(args, 'cwd') ?? '.');
      if (!isFolder(cwd)) throw new ToolError('The cwd is not a folder of the workspace.');
      if (signal.aborted) throw new ToolError('The command was stopped before it started.');

      const output = new CappedOutput(maxOutputBytes);
      const { ending, timedOut } = await runProcess(command, argv, cwd, output, {
        timeoutMs,
        killGraceMs,
        signal,
      });
      const lines = [`$ ${[command, ...argv].map(quote).join(' ')}`];
      const text = output.text();
      if (text !== '') lines.push(text.endsWith('\n') ? text.slice(0, -1) : text);
      if (output.dropped > 0) {
        lines.push(`[output cut at ${maxOutputBytes} bytes; ${output.total} bytes in all]`);
      }
      if (timedOut) lines.push(`[killed: still running after ${timeoutMs / 1000} s]`);
      else if (signal.aborted) lines.push('[stopped]');
      else if (ending.code !== null) lines.push(`[exit code ${ending.code}]`);
      else lines.push(`[ended by signal ${ending.signal ?? 'unknown'}]`);
      return lines.join('\n');
    },
  };
}

/** The `run_command` tool with its default limits. */
export const runCommand: Tool<string> = createRunCommand();

interface Limits {
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly signal: AbortSignal;
}

function runProcess(
  command: string,
  argv: readonly string[],
  cwd: string,
  output: CappedOutput,
  limits: Limits,
): Promise<{ ending: Ending; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    // A process group of its own (POSIX), so killing it reaches what it started too.
    const group = process.platform !== 'win32';
    let child: ChildProcess;
    try {
      child = spawn(command, argv, {
        cwd,
        env: commandEnv(),
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: group,
        windowsHide: true,
      });
    } catch {
      reject(new ToolError(`The command "${command}" could not be started.`));
      return;
    }
    let timedOut = false;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let exitTimer: NodeJS.Timeout | undefined;
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (group && child.pid !== undefined) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // Already gone.
      }
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      kill('SIGTERM');
      graceTimer = setTimeout(() => kill('SIGKILL'), limits.killGraceMs);
    }, limits.timeoutMs);
    const onAbort = () => kill('SIGKILL');
    limits.signal.addEventListener('abort', onAbort, { once: true });
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(graceTimer);
      clearTimeout(exitTimer);
      limits.signal.removeEventListener('abort', onAbort);
      // Whatever of the group outlived its leader goes too.
      if (timedOut || limits.signal.aborted) kill('SIGKILL');
      settle();
    };
    child.stdout?.on('data', (chunk: Buffer) => output.add(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.add(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(() => reject(new ToolError(startFailure(command, error.code))));
    });
    child.on('exit', (code, sig) => {
      // 'close' waits for the pipes; a descendant that escaped the group can hold them open.
      exitTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(() => resolve({ ending: { code, signal: sig }, timedOut }));
      }, 2000);
    });
    child.on('close', (code, sig) => {
      finish(() => resolve({ ending: { code, signal: sig }, timedOut }));
    });
  });
}

/** Output kept up to a byte limit; what comes after is only counted. */
class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  constructor(private readonly limit: number) {}

  get dropped(): number {
    return this.total - this.kept;
  }

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.limit - this.kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function argsOf(args: ToolArgs): string[] {
  const value = args.args;
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.includes('\0'))) {
    throw new ToolError('The argument "args" must be a list of strings.');
  }
  if (value.length > MAX_ARGS) throw new ToolError(`At most ${MAX_ARGS} arguments are accepted.`);
  return value as string[];
}

function isFolder(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

function startFailure(command: string, code: string | undefined): string {
  if (code === 'ENOENT') return `The command "${command}" was not found.`;
  if (code === 'EACCES') return `The command "${command}" is not executable.`;
  return `The command "${command}" could not be started.`;
}

/** Shows an argument as a shell would need it, for the summary and the transcript only. */
function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
