import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentCommand } from './fakeAgentCommand';

/**
 * The opencode binary of the `opencode-ai` test dependency. Its own bin script is a stub until
 * its postinstall runs (pnpm skips it), so this resolves the platform package beside it
 * (`opencode-<platform>-<arch>`), which holds the real binary.
 */
export function opencodeBinary(): string {
  const fromTests = createRequire(import.meta.url);
  const opencodeAi = createRequire(fromTests.resolve('opencode-ai/package.json'));
  const platformPackage = `opencode-${process.platform}-${process.arch}/package.json`;
  return join(dirname(opencodeAi.resolve(platformPackage)), 'bin', 'opencode');
}

/**
 * Environment flags that keep opencode off the network and out of the user's files, each found
 * in the 1.18.33 binary (its env table and where it reads them), not guessed:
 * OPENCODE_DISABLE_MODELS_FETCH (no models.dev catalogue fetch, at start or hourly),
 * OPENCODE_DISABLE_AUTOUPDATE (no version check), OPENCODE_DISABLE_DEFAULT_PLUGINS and
 * OPENCODE_PURE (no plugin installs), OPENCODE_DISABLE_LSP_DOWNLOAD, OPENCODE_DISABLE_SHARE,
 * OPENCODE_DISABLE_CLAUDE_CODE and OPENCODE_DISABLE_EXTERNAL_SKILLS (no reading ~/.claude or
 * other agents' skill folders). Telemetry is opt-in (`experimental.openTelemetry`), off by default.
 */
export const OPENCODE_OFFLINE_ENV: Readonly<Record<string, string>> = {
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  OPENCODE_PURE: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_SHARE: '1',
  OPENCODE_DISABLE_CLAUDE_CODE: '1',
  OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
};

/**
 * opencode installs `@opencode-ai/plugin` into every config folder it reads, in the background,
 * from the npm registry (its embedded Arborist), whatever the flags. Its `Npm.install` skips that
 * when the folder has a node_modules and every dependency of package.json is already in
 * package-lock.json's root entry (read in the 1.18.33 binary), so the isolated config folder is
 * given exactly that: nothing is fetched.
 */
function seedConfigDependencies(configDir: string): void {
  const dependencies = { '@opencode-ai/plugin': '*' };
  mkdirSync(join(configDir, 'node_modules'), { recursive: true });
  writeFileSync(join(configDir, 'package.json'), JSON.stringify({ dependencies }));
  writeFileSync(join(configDir, 'package-lock.json'), JSON.stringify({ packages: { '': { dependencies } } }));
}

/** A temporary opencode project talking to a local model, with its own home. */
export interface OpencodeProject {
  /** The project folder (cwd of the agent, the workspace root). */
  readonly dir: string;
  /** The isolated home (HOME and every XDG folder live under it). */
  readonly home: string;
  /** The environment to run opencode with: nothing of the real user's. */
  readonly env: NodeJS.ProcessEnv;
  /** `opencode acp`, to spawn with cwd = {@link dir} and {@link env}. */
  readonly acp: AgentCommand;
  /**
   * Runs `opencode run word word…` in the project (a session made at the desk), the message's
   * words as separate arguments, as typed at a shell without quotes: opencode quotes an argument
   * that holds a space before storing it, so `run 'a b'` would be stored as `"a b"`.
   */
  run(message: string, timeoutMs?: number): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Removes the project and its home. */
  remove(): void;
}

/** Options of {@link createOpencodeProject}. */
export interface OpencodeProjectOptions {
  /** The scripted model's `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  /** Files to create in the project, by relative path. */
  readonly files?: Readonly<Record<string, string>>;
  /** @default { edit: 'ask' } */
  readonly permission?: Record<string, unknown>;
}

/**
 * Makes a temporary project folder whose opencode.json points opencode at a local scripted
 * OpenAI-compatible model (`local/fake-model`, edits ask permission), with an isolated HOME and
 * XDG folders so opencode never reads or writes the real user's config, and an environment that
 * keeps it offline ({@link OPENCODE_OFFLINE_ENV}).
 *
 * @example
 * const model = await startScriptedChatModel();
 * const project = createOpencodeProject({ baseUrl: model.baseUrl, files: { 'notes.md': 'old\n' } });
 * const agent = spawnAgent(project.acp, client.app, { cwd: project.dir, env: project.env });
 */
export function createOpencodeProject(options: OpencodeProjectOptions): OpencodeProject {
  const root = mkdtempSync(join(tmpdir(), 'opencode-project-'));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  for (const folder of [
    dir,
    home,
    join(home, '.config'),
    join(home, '.local', 'share'),
    join(home, '.cache'),
  ]) {
    mkdirSync(folder, { recursive: true });
  }
  mkdirSync(join(home, '.local', 'state'), { recursive: true });
  seedConfigDependencies(join(home, '.config', 'opencode'));
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    snapshot: false,
    formatter: false,
    lsp: false,
    provider: {
      local: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Local scripted model',
        options: { baseURL: options.baseUrl, apiKey: 'x' },
        models: { 'fake-model': { name: 'Fake', tool_call: true } },
      },
    },
    model: 'local/fake-model',
    small_model: 'local/fake-model',
    permission: options.permission ?? { edit: 'ask' },
  };
  writeFileSync(join(dir, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    ...OPENCODE_OFFLINE_ENV,
  };
  const binary = opencodeBinary();
  return {
    dir,
    home,
    env,
    acp: { command: binary, args: ['acp'] },
    run: (message, timeoutMs = 120_000) =>
      new Promise((resolve, reject) => {
        const child = spawn(binary, ['run', ...message.split(/\s+/)], {
          cwd: dir,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
        });
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
        });
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`opencode run took over ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
        }, timeoutMs);
        child.once('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
      }),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
