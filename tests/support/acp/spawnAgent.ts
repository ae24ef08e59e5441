import { type ChildProcess, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentCommand } from './fakeAgentCommand';

/** An agent process with an ACP client connected to its stdio. */
export interface SpawnedAgent {
  readonly child: ChildProcess;
  readonly connection: acp.ClientConnection;
  /** Its stderr so far. */
  stderr(): string;
  /** Settles when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Ends its whole process group (SIGTERM, then SIGKILL after 3 s) and waits for the exit. */
  stop(): Promise<void>;
}

/** Options of {@link spawnAgent}. */
export interface SpawnAgentOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The ndjson reader's line limit. @default the SDK's (32 MiB) */
  readonly maxMessageBytes?: number;
}

/**
 * Starts an agent process in its own process group and connects `client` to its stdio.
 *
 * @example
 * const agent = spawnAgent(fakeAgentCommand(script), recorder.app);
 * const ctx = agent.connection.agent;
 * await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
 */
export function spawnAgent(
  command: AgentCommand,
  client: acp.ClientApp,
  options: SpawnAgentOptions = {},
): SpawnedAgent {
  const child = spawn(command.command, [...command.args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // A write to a dead child's stdin must not throw out of the test.
  child.stdin?.on('error', () => {});
  const connection = client.connect(
    acp.ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
      options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes },
    ),
  );
  return {
    child,
    connection,
    stderr: () => stderr,
    exited,
    async stop() {
      connection.close();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const signalGroup = (signal: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // Already gone.
        }
      };
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
