import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentCommand } from './fakeAgentCommand';

/**
 * `claude-agent-acp` of the `@zed-industries/claude-agent-acp` test dependency, run by this
 * Node. Its package exports only its library (import condition), so the entry is found on the
 * module search paths rather than through `require.resolve`.
 */
export function claudeAgentAcpCommand(): AgentCommand {
  const paths = createRequire(import.meta.url).resolve.paths('@zed-industries/claude-agent-acp') ?? [];
  for (const folder of paths) {
    const entry = join(folder, '@zed-industries', 'claude-agent-acp', 'dist', 'index.js');
    if (existsSync(entry)) return { command: process.execPath, args: [entry] };
  }
  throw new Error('@zed-industries/claude-agent-acp is not installed (a devDependency of tests/)');
}

/**
 * Claude Code's switches for a run with no traffic but the model's: no telemetry, error
 * reports, auto-update or other non-essential requests (its documented settings).
 */
export const CLAUDE_OFFLINE_ENV: Readonly<Record<string, string>> = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_AUTOUPDATER: '1',
};

/** A temporary project for claude-agent-acp against a local fake of the Messages API. */
export interface ClaudeProject {
  readonly dir: string;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly acp: AgentCommand;
  remove(): void;
}

/**
 * A project folder and an isolated HOME for Claude Code (its settings, sessions and credentials
 * live in ~/.claude), pointed at `baseUrl` (ANTHROPIC_BASE_URL) with a made-up API key.
 *
 * @example
 * const api = await startFakeAnthropic();
 * const project = createClaudeProject({ baseUrl: api.baseUrl });
 * const agent = spawnAgent(project.acp, client.app, { cwd: project.dir, env: project.env });
 */
export function createClaudeProject(options: {
  readonly baseUrl: string;
  readonly files?: Readonly<Record<string, string>>;
}): ClaudeProject {
  const root = mkdtempSync(join(tmpdir(), 'claude-project-'));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(home, '.config'), { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return {
    dir,
    home,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      TMPDIR: process.env.TMPDIR ?? tmpdir(),
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      ANTHROPIC_BASE_URL: options.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-local-fake',
      ...CLAUDE_OFFLINE_ENV,
    },
    acp: claudeAgentAcpCommand(),
    // A grandchild (Claude Code's CLI under the adapter) may still be writing its backups as it exits.
    remove: () => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}
