import { type ChildProcess, spawn } from 'node:child_process';
import type { TerminalExitStatus, TerminalOutputResponse } from '@agentclientprotocol/sdk';
import { commandEnv } from '../controller/tools/commandEnv';

/** What starts a terminal's command (already checked: `cwd` is inside the workspace). */
export interface TerminalLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Variables the agent asked for, on top of the host's environment without its credentials. */
  readonly env: Readonly<Record<string, string>>;
  /** Output kept: the newest bytes, cut at a character boundary. */
  readonly outputByteLimit: number;
}

/**
 * One command an agent runs through ACP's `terminal/create`: spawned without a shell, in a
 * process group of its own (killing it reaches what it started), with the host's environment
 * minus anything that looks like a credential ({@link commandEnv}), its stdout and stderr
 * kept together up to a byte limit (the oldest bytes go first, as ACP asks).
 */
export class AgentTerminal {
  readonly id: string;
  readonly sessionId: string;
  /** Resolves when the command has ended (or could not start). */
  readonly exited: Promise<TerminalExitStatus>;
  private readonly child: ChildProcess | undefined;
  private readonly limit: number;
  /** The newest output, oldest first; together at most `limit` bytes plus one chunk. */
  private chunks: Buffer[] = [];
  private kept = 0;
  private truncated = false;
  private status: TerminalExitStatus | undefined;

  constructor(id: string, sessionId: string, launch: TerminalLaunch, onChange: () => void) {
    this.id = id;
    this.sessionId = sessionId;
    this.limit = launch.outputByteLimit;
    let resolveExit: (status: TerminalExitStatus) => void = () => {};
    this.exited = new Promise((resolve) => {
      resolveExit = resolve;
    });
    const end = (status: TerminalExitStatus) => {
      if (this.status) return;
      this.status = status;
      resolveExit(status);
      onChange();
    };
    try {
      this.child = spawn(launch.command, [...launch.args], {
        cwd: launch.cwd,
        env: { ...commandEnv(), ...launch.env },
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      this.child = undefined;
      this.add(Buffer.from(`${launch.command}: ${(error as Error).message}\n`));
      end({ exitCode: 127, signal: null });
      return;
    }
    const collect = (chunk: Buffer) => {
      this.add(chunk);
      onChange();
    };
    this.child.stdout?.on('data', collect);
    this.child.stderr?.on('data', collect);
    this.child.on('error', (error: NodeJS.ErrnoException) => {
      this.add(
        Buffer.from(`${launch.command}: ${error.code === 'ENOENT' ? 'command not found' : error.message}\n`),
      );
      end({ exitCode: 127, signal: null });
    });
    this.child.on('close', (code, signal) => end({ exitCode: code, signal }));
  }

  /** The output so far, whether older bytes were dropped, and how it ended (once it has). */
  read(): TerminalOutputResponse {
    return {
      output: decodeFromBoundary(this.tail()),
      truncated: this.truncated,
      ...(this.status ? { exitStatus: this.status } : {}),
    };
  }

  /** Whether the command is still running. */
  get running(): boolean {
    return this.status === undefined;
  }

  /** Ends the command and everything it started (SIGKILL to its group). */
  kill(): void {
    const pid = this.child?.pid;
    if (pid === undefined || !this.running) return;
    try {
      if (process.platform !== 'win32') process.kill(-pid, 'SIGKILL');
      else this.child?.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }

  private add(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.kept += chunk.length;
    // Whole chunks that fall out of the window go now; the cut inside one is made when read.
    while (this.chunks.length > 1 && this.kept - (this.chunks[0]?.length ?? 0) >= this.limit) {
      this.kept -= this.chunks.shift()?.length ?? 0;
      this.truncated = true;
    }
  }

  private tail(): Buffer {
    const all = Buffer.concat(this.chunks, this.kept);
    if (all.length <= this.limit) return all;
    this.truncated = true;
    return all.subarray(all.length - this.limit);
  }
}

/** UTF-8 text of `bytes`, skipping a character cut in half at the start by truncation. */
function decodeFromBoundary(bytes: Buffer): string {
  let start = 0;
  // Continuation bytes are 10xxxxxx; a character is at most 4 bytes.
  while (start < bytes.length && start < 3 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString('utf8');
}
