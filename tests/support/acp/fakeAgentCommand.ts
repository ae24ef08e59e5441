import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FakeAgentScript } from './fakeAgentScript';

/** A command that starts an agent: what `--agent NAME=COMMAND` and a spawn take. */
export interface AgentCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The command that runs the fake agent as a child process with this script: this Node, tsx's
 * loader by absolute URL (so any cwd works) and fakeAgentChild.ts with the script as JSON.
 *
 * @example
 * const { command, args } = fakeAgentCommand({ turns: [turn(say('Hello'))] });
 * spawn(command, args, { cwd: project });
 */
export function fakeAgentCommand(script: FakeAgentScript = {}): AgentCommand {
  return childCommand([JSON.stringify(script)]);
}

/**
 * The same command with the script written to `file` (JSON) and named by `--script-file`: for a
 * script larger than one argument may be (128 KiB on Linux), such as a benchmark's 5,000-line
 * diff.
 *
 * @example
 * const { command, args } = fakeAgentFileCommand(join(dir, 'script.json'), { turns: [huge] });
 */
export function fakeAgentFileCommand(file: string, script: FakeAgentScript): AgentCommand {
  writeFileSync(file, JSON.stringify(script));
  return childCommand(['--script-file', file]);
}

function childCommand(scriptArgs: readonly string[]): AgentCommand {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = fileURLToPath(new URL('./fakeAgentChild.ts', import.meta.url));
  return { command: process.execPath, args: ['--import', tsx, child, ...scriptArgs] };
}
