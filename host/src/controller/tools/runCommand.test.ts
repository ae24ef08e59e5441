import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolContext, toolWorkspace } from '../../testing/toolTesting';
import { commandEnv, isSecretName } from './commandEnv';
import { createRunCommand, runCommand } from './runCommand';
import type { ToolArgs } from './Tool';

const ON = { allowCommands: true };
const savedEnv = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
});

function run(workspace: string, args: ToolArgs, signal?: AbortSignal, tool = runCommand) {
  return tool.run(args, toolContext(workspace, ON, signal));
}

/** Whether a process runs (a zombie waiting for its reaper, which may be slow in a container, does not). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function waitUntil(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('run_command', () => {
  it('runs a program without a shell in the workspace and reports output and exit code', async () => {
    const { workspace } = toolWorkspace();
    fs.mkdirSync(path.join(workspace, 'sub'));
    const out = await run(workspace, {
      command: 'node',
      args: [
        '-e',
        'console.log(process.cwd()); console.error(process.argv[1]); process.exit(3)',
        '$HOME; echo hi',
      ],
      cwd: 'sub',
    });
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^\$ node -e '.*' '\$HOME; echo hi'$/);
    // No shell: the argument arrives exactly as given, nothing expanded or run.
    expect(lines).toContain('$HOME; echo hi');
    expect(lines).toContain(path.join(workspace, 'sub'));
    expect(lines.at(-1)).toBe('[exit code 3]');
  });

  it('refuses a cwd outside the workspace: .., absolute, a symlink out, a missing folder', async () => {
    const { workspace, outside } = toolWorkspace();
    fs.symlinkSync(outside, path.join(workspace, 'out'));
    const cases: [string, RegExp][] = [
      ['..', /leaves/],
      ['../outside', /leaves/],
      [outside, /absolute/],
      ['out', /outside/],
      ['missing', /not a folder/],
    ];
    for (const [cwd, error] of cases) {
      await expect(run(workspace, { command: 'node', args: ['-e', ''], cwd })).rejects.toThrow(error);
    }
  });

  it('answers "disabled in settings" unless allowCommands is on, and is disabled for models', async () => {
    const { workspace } = toolWorkspace();
    expect(runCommand.enabled?.(toolContext(workspace).settings)).toBe(false);
    expect(runCommand.enabled?.(toolContext(workspace, ON).settings)).toBe(true);
    await expect(async () => runCommand.run({ command: 'node' }, toolContext(workspace))).rejects.toThrow(
      /disabled in settings/,
    );
  });

  it('drops credentials from the environment and keeps the rest', async () => {
    const { workspace } = toolWorkspace();
    process.env.OPENAI_API_KEY = 'sk-test-must-not-leak';
    process.env.MY_SERVICE_TOKEN = 'token-must-not-leak';
    process.env.WEBBRIDGE_VISIBLE = 'visible';
    const script =
      "console.log(process.env.OPENAI_API_KEY ?? 'none'); console.log(process.env.MY_SERVICE_TOKEN ?? 'none');" +
      "console.log(process.env.WEBBRIDGE_VISIBLE); console.log(Object.keys(process.env).filter(k => /KEY|TOKEN|SECRET/i.test(k)).join(',') || 'clean')";
    const out = await run(workspace, { command: 'node', args: ['-e', script] });
    expect(out.split('\n').slice(1, 5)).toEqual(['none', 'none', 'visible', 'clean']);
    expect(out).not.toContain('must-not-leak');
  });

  it('kills a command (and what it started) at the timeout', async () => {
    const { workspace } = toolWorkspace();
    const script =
      "const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });" +
      'console.log(c.pid); setInterval(() => {}, 1000);';
    const started = Date.now();
    const out = await run(workspace, { command: 'node', args: ['-e', script], timeoutSeconds: 1 });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(out).toContain('[killed: still running after 1 s]');
    const grandchild = Number(out.split('\n')[1]);
    expect(grandchild).toBeGreaterThan(0);
    await waitUntil(() => !isAlive(grandchild));
  });

  it('kills with SIGKILL a command that ignores SIGTERM', async () => {
    const { workspace } = toolWorkspace();
    const tool = createRunCommand({ timeoutMs: 300, killGraceMs: 200 });
    const script = "process.on('SIGTERM', () => console.log('ignored')); setInterval(() => {}, 1000);";
    const started = Date.now();
    const out = await run(workspace, { command: 'node', args: ['-e', script] }, undefined, tool);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(out).toContain('[killed: still running after 0.3 s]');
  });

  it('cuts the output at the cap and says how much there was', async () => {
    const { workspace } = toolWorkspace();
    const out = await run(workspace, {
      command: 'node',
      args: ['-e', "process.stdout.write('x'.repeat(200000)); process.stderr.write('tail')"],
    });
    const body = out.split('\n')[1]!;
    expect(body).toBe('x'.repeat(64 * 1024));
    expect(out).toContain('[output cut at 65536 bytes; 200004 bytes in all]');
    expect(out.split('\n').at(-1)).toBe('[exit code 0]');
  });

  it('kills the command when the call is aborted (stop)', async () => {
    const { workspace } = toolWorkspace();
    const abort = new AbortController();
    const pending = run(
      workspace,
      { command: 'node', args: ['-e', 'console.log(process.pid); setInterval(() => {}, 1000)'] },
      abort.signal,
    );
    await new Promise((r) => setTimeout(r, 300));
    abort.abort();
    const out = await pending;
    expect(out).toContain('[stopped]');
    await waitUntil(() => !isAlive(Number(out.split('\n')[1])));
  });

  it('says when a program is missing and refuses malformed arguments', async () => {
    const { workspace } = toolWorkspace();
    await expect(run(workspace, { command: 'no-such-program-webbridge' })).rejects.toThrow(/was not found/);
    await expect(run(workspace, { command: '' })).rejects.toThrow(/empty/);
    await expect(run(workspace, { command: 'node', args: 'x' })).rejects.toThrow(/list of strings/);
    await expect(run(workspace, { command: 'node', timeoutSeconds: 0 })).rejects.toThrow(/whole number/);
  });

  it('summarises a call as the command line', () => {
    expect(runCommand.summarize({ command: 'npm', args: ['test', '--', 'a b'], cwd: 'pkg' })).toBe(
      "Run npm test -- 'a b' in pkg",
    );
  });
});

describe('commandEnv', () => {
  it('drops names that hold credentials', () => {
    for (const name of [
      'OPENAI_API_KEY',
      'MY_OPENAI_KEY',
      'GITHUB_TOKEN',
      'AWS_SECRET',
      'DB_PASSWORD',
      'npm_config__authToken',
      'SECRET_FILE',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['PATH', 'HOME', 'LANG', 'KEYBOARD_LAYOUT', 'NODE_ENV']) {
      expect(isSecretName(name), name).toBe(false);
    }
    expect(commandEnv({ PATH: '/bin', OPENAI_API_KEY: 'sk', X_TOKEN: 't' })).toEqual({ PATH: '/bin' });
  });
});
