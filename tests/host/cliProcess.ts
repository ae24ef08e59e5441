import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** The built CLI (`npx pnpm build` makes it). */
export const CLI = fileURLToPath(new URL('../../host/dist/cli.js', import.meta.url));

/** A `webbridge serve` child process. */
export interface CliProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Every stdout line so far. */
  readonly lines: string[];
  readonly port: number;
  readonly url: string;
  /** Resolves with the exit code (or signal name) and how long after `since` it came. */
  exited(since?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }>;
}

/**
 * Starts the CLI and waits for its first stdout line, which names the port. `env` replaces the
 * environment it inherits (default: this process's). `launch` is the command line before
 * `serve`: by default the file itself, through its shebang (which gives Node its flags), as the
 * installed `webbridge` command runs; `[process.execPath, CLI]` runs `node cli.js`.
 */
export async function startCli(
  args: readonly string[],
  timeoutMs = 10_000,
  env: NodeJS.ProcessEnv = process.env,
  launch: readonly [string, ...string[]] = [CLI],
): Promise<CliProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npx pnpm build\` first.`);
  const [program, ...before] = launch;
  const child = spawn(program, [...before, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
  });
  let buffer = '';
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no output from the CLI; stderr: ${stderr}`)), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      lines.push(...parts);
      if (lines.length > 0) {
        clearTimeout(timer);
        resolve(lines[0]!);
      }
    });
    void exit.then(({ code }) => reject(new Error(`the CLI exited (${code}); stderr: ${stderr}`)));
  });
  const match = /^webbridge listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(first);
  if (!match) throw new Error(`unexpected first line: ${JSON.stringify(first)}`);
  return {
    child,
    lines,
    port: Number(match[2]),
    url: match[1]!,
    async exited(since = Date.now()) {
      const { code, signal, at } = await exit;
      return { code, signal, afterMs: at - since };
    },
  };
}
