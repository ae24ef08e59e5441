import path from 'node:path';
import { findOnPath } from '../findOnPath';
import type { AgentCommandEntry } from './AgentEntry';

/** An agent the host offers by name when its program is on PATH. */
interface KnownAgent {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** What a person runs on the host to sign in. */
  readonly signIn: string;
}

/**
 * The agents people already run, with the command that speaks ACP over stdio. The host never
 * installs them; it offers the ones it finds (see docs/HOST.md "Agents" for installing them).
 */
const KNOWN_AGENTS: readonly KnownAgent[] = [
  { name: 'opencode', command: 'opencode', args: ['acp'], signIn: 'opencode auth login' },
  { name: 'claude', command: 'claude-agent-acp', args: [], signIn: 'claude  (then /login)' },
  { name: 'codex', command: 'codex-acp', args: [], signIn: 'codex login' },
  {
    name: 'gemini',
    command: 'gemini',
    args: ['--experimental-acp'],
    signIn: 'gemini  (then choose a sign-in)',
  },
];

/**
 * The well-known agents whose program is on `searchPath` (the host's PATH), as entries. The
 * command is kept as its bare name: the agent's PATH (see `agentLaunch`) finds it again.
 *
 * @example
 * ```ts
 * knownAgentsOnPath(process.env.PATH); // [{ name: 'opencode', command: 'opencode', args: ['acp'], ... }] when installed
 * ```
 */
export function knownAgentsOnPath(searchPath: string | undefined): AgentCommandEntry[] {
  return KNOWN_AGENTS.filter((agent) => findOnPath(agent.command, searchPath) !== undefined).map((agent) => ({
    name: agent.name,
    command: agent.command,
    args: [...agent.args],
    env: {},
    cwd: undefined,
    signIn: agent.signIn,
  }));
}

/**
 * The sign-in command of a well-known agent's program (by its file name, wherever it is
 * installed), for entries that name none: `--agent oc=/opt/bin/opencode acp` still says
 * `opencode auth login` when it needs a sign-in.
 */
export function knownSignIn(command: string): string | undefined {
  const program = path.basename(command);
  return KNOWN_AGENTS.find((agent) => agent.command === program)?.signIn;
}
