import { findOnPath } from '../findOnPath';

/** Variables of the host's environment an agent gets: where home is, who and where it runs, its locale. */
const PASSED = new Set([
  'HOME',
  'USER',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
]);
/** Families passed whole: locale (`LC_ALL`, ...) and the XDG folders agents keep their sign-in and sessions in. */
const PASSED_PREFIXES = ['LC_', 'XDG_'];

/** How to spawn an agent: the program (absolute when found on PATH) and its whole environment. */
export interface AgentLaunch {
  readonly command: string;
  readonly env: Record<string, string>;
}

/**
 * The program and environment of an agent process. Unlike an MCP server (see `childLaunch`),
 * an agent needs its user's home: its sign-in, settings and saved sessions live there. So it
 * gets a short allow-list of the host's variables (home, user, PATH, shell, terminal, locale,
 * XDG folders) and exactly the variables its entry configures, nothing else: the access code's
 * handover, the model's API key and any other credential of the host stay in the host. A key
 * an agent should use (e.g. `ANTHROPIC_API_KEY`) goes in its entry's `env`.
 *
 * @example
 * ```ts
 * agentLaunch('opencode', { OPENCODE_CONFIG: '/x' }, { HOME: '/home/me', PATH: '/usr/bin', OPENAI_API_KEY: 'sk' });
 * // { command: '/usr/bin/opencode', env: { HOME: '/home/me', PATH: '/usr/bin', OPENCODE_CONFIG: '/x' } }
 * ```
 */
export function agentLaunch(
  command: string,
  configured: Readonly<Record<string, string>>,
  hostEnv: Readonly<NodeJS.ProcessEnv> = process.env,
): AgentLaunch {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(hostEnv)) {
    if (value === undefined) continue;
    if (PASSED.has(name) || PASSED_PREFIXES.some((prefix) => name.startsWith(prefix))) env[name] = value;
  }
  Object.assign(env, configured);
  return { command: findOnPath(command, env.PATH) ?? command, env };
}
