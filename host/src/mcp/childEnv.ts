import path from 'node:path';
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/sdk/client/stdio.js';
import { findOnPath } from '../findOnPath';

/** Folders every Unix-like system has its basic programs in. */
const SYSTEM_PATH = ['/usr/local/bin', '/usr/bin', '/bin'];

/** How to start a stdio server: the program to spawn and the environment to give it. */
export interface ChildLaunch {
  /** The command as configured, or its absolute path when it was found on the host's PATH. */
  readonly command: string;
  /**
   * The child's environment. Variables the MCP SDK would copy from the host (HOME, USER, ...)
   * are set to `undefined`, which Node leaves out of the child's environment.
   */
  readonly env: Record<string, string>;
}

/**
 * The program and environment of a stdio MCP server: exactly the variables its config names,
 * plus a minimal PATH (the folder of the command, that of Node, and the system folders) when
 * the config names none. Nothing of the host's environment is passed on: the host holds a
 * model's API key and the access code's variables, and a server is someone else's code.
 *
 * @example
 * ```ts
 * childLaunch('npx', { GITHUB_TOKEN: 't' }, { PATH: '/home/me/.nvm/bin:/usr/bin', OPENAI_API_KEY: 'sk' });
 * // { command: '/home/me/.nvm/bin/npx', env: { GITHUB_TOKEN: 't', PATH: '/home/me/.nvm/bin:…:/usr/bin:/bin', HOME: undefined, … } }
 * ```
 */
export function childLaunch(
  command: string,
  configured: Readonly<Record<string, string>>,
  hostEnv: Readonly<NodeJS.ProcessEnv> = process.env,
): ChildLaunch {
  const found = findOnPath(command, hostEnv.PATH);
  const env: Record<string, string | undefined> = {};
  // The SDK spreads its "safe" defaults under ours; undefined removes them again.
  for (const name of DEFAULT_INHERITED_ENV_VARS) env[name] = undefined;
  Object.assign(env, configured);
  if (configured.PATH === undefined) {
    const folders = [found ? path.dirname(found) : undefined, path.dirname(process.execPath), ...SYSTEM_PATH];
    env.PATH = [...new Set(folders.filter((folder) => folder !== undefined))].join(path.delimiter);
  }
  return { command: found ?? command, env: env as Record<string, string> };
}
