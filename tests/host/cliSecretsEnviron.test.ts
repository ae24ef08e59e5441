import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCESS_HEADER, type Snapshot } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { CLI, type CliProcess, startCli } from './cliProcess';
import { type FakeOpenAi, startFakeOpenAi } from './fakeOpenAi';

// The real `webbridge serve` with the access code, the view code and the model key in its
// environment. An approved run_command reads /proc/<pid>/environ of every process above it
// (what Linux shows any process of the same user for as long as they run): the host, the
// process the person started and the one that started it. No secret is in any of them, while
// the host still works with all three (cli/secretHandover.ts, cli/eraseFromEnviron.ts). Plain
// of any Node version: CI runs the same file on Node 20 and 24.

const CODE = 'env-secret-code-8k2m';
const VIEW = 'env-secret-view-3p7q';
const KEY = 'sk-env-secret-key-9z4x1c';
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function stop(cli: CliProcess): Promise<void> {
  if (cli.child.exitCode !== null || cli.child.signalCode !== null) return;
  const exited = cli.exited();
  cli.child.kill('SIGTERM');
  await exited;
}

describe('secrets and the host process environment', () => {
  it('an approved command that reads /proc/<pid>/environ of each process above it finds neither code nor key', async () => {
    const fake: FakeOpenAi = await startFakeOpenAi({ apiKey: KEY, models: ['gpt-fake-mini'] });
    cleanup.push(() => fake.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-cli-secrets-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const { WEBBRIDGE_ACCESS_CODE: _a, WEBBRIDGE_VIEW_CODE: _v, OPENAI_API_KEY: _k, ...base } = process.env;
    const cli = await startCli(
      [
        '--port',
        '0',
        '--no-console',
        '--data-dir',
        dataDir,
        '--openai-base-url',
        fake.baseUrl,
        '--model',
        'gpt-fake-mini',
      ],
      15_000,
      {
        ...base,
        WEBBRIDGE_ACCESS_CODE: CODE,
        WEBBRIDGE_VIEW_CODE: VIEW,
        OPENAI_API_KEY: KEY,
        WEBBRIDGE_PLAIN_MARK: 'still-visible',
        WEBBRIDGE_TEST_PID: String(process.pid),
      },
    );
    cleanup.push(() => stop(cli));
    const h = {
      url: cli.url,
      auth: (extra: Record<string, string> = {}) => ({
        Authorization: `Bearer ${CODE}`,
        'Content-Type': 'application/json',
        ...extra,
      }),
    };
    // All three secrets reached the host: the code and view code open the API, the key the model.
    const viewed = await fetch(`${cli.url}/api/state`, { headers: { Authorization: `Bearer ${VIEW}` } });
    expect([viewed.status, viewed.headers.get(ACCESS_HEADER)]).toEqual([200, 'view']);
    const start = await getState(h);
    if (start.models.current !== 'gpt-fake-mini') {
      await act(h, { action: 'model', modelId: 'gpt-fake-mini', ...guardOf(start) });
    }
    await act(h, { action: 'updateSettings', settings: { allowCommands: true } });

    // Up the tree: each process's id, then its environment, a line a variable, up to this test's
    // process (its environment is this file's to read; a long result would be cut).
    const script = [
      'pid=$PPID',
      'while [ "$pid" -gt 1 ]; do',
      '  echo "ancestor $pid"',
      '  [ "$pid" = "$WEBBRIDGE_TEST_PID" ] && break',
      '  tr "\\000" "\\n" < /proc/$pid/environ',
      '  pid=$(sed -n "s/^PPid:[[:space:]]*//p" /proc/$pid/status)',
      'done',
    ].join('\n');
    fake.reply(
      {
        kind: 'tool',
        name: 'run_command',
        argPieces: [JSON.stringify({ command: 'sh', args: ['-c', script] })],
      },
      { kind: 'text', chunks: ['read it'] },
    );
    await act(h, { action: 'send', text: 'show me the environment', ...guardOf(await getState(h)) });
    const pending = await waitFor(async () => (await getState(h)).approvals[0], 10_000);
    // What the person approves: the tool and its exact arguments.
    expect(pending.tool).toBe('run_command');
    expect(pending.args).toContain('/proc/$pid/environ');
    await act(h, { action: 'approve', approvalId: pending.id, decision: 'allow' });
    const done: Snapshot = await waitFor(async () => {
      const state = await getState(h);
      const last = state.conversations.messages.at(-1);
      return last?.role === 'assistant' && last.status === 'complete' && last.text === 'read it'
        ? state
        : undefined;
    }, 15_000);

    const everything = JSON.stringify(done);
    const ancestors = [...everything.matchAll(/ancestor (\d+)/g)].map((match) => Number(match[1]));
    // The command read them all: the host, the process this test started (the same one, or its
    // parent), up to this test's own process.
    const hostPid = ancestors[0] ?? 0;
    expect(hostPid).toBeGreaterThan(0);
    expect(ancestors).toContain(cli.child.pid);
    expect(ancestors).toContain(process.pid);
    // A plain variable is there...
    expect(everything).toContain('WEBBRIDGE_PLAIN_MARK=still-visible');
    // ...and no secret, under any name, in any of them.
    expect(everything).not.toContain(CODE);
    expect(everything).not.toContain(VIEW);
    expect(everything).not.toContain(KEY);
    // The same, read directly from each process between the host and this test, and this test's.
    for (const pid of ancestors) {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      if (pid !== process.pid)
        expect(environ, `process ${pid}`).toContain('WEBBRIDGE_PLAIN_MARK=still-visible');
      for (const secret of [CODE, VIEW, KEY]) expect(environ, `process ${pid}`).not.toContain(secret);
    }
    // The key was sent to the model all the same.
    expect(fake.requests.find((r) => r.path === '/v1/chat/completions')?.authorization).toBe(`Bearer ${KEY}`);

    // SIGTERM to the command the person started ends the host cleanly, with status 0.
    const since = Date.now();
    cli.child.kill('SIGTERM');
    const exit = await cli.exited(since);
    expect([exit.code, exit.signal]).toEqual([0, null]);
    expect(() => process.kill(hostPid, 0)).toThrow();
  });

  it('`node cli.js serve`: a key named by --openai-api-key-env, a token and copies are hidden too; the host never outlives what was started', async () => {
    const fake: FakeOpenAi = await startFakeOpenAi({ apiKey: KEY, models: ['gpt-fake-mini'] });
    cleanup.push(() => fake.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-cli-secrets-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const args = ['--port', '0', '--no-console', '--data-dir', dataDir, '--openai-base-url', fake.baseUrl];
    const token = 'tok-env-secret-5w8e2r';
    // A name nothing would take for a credential: only the flag says it holds one.
    const cli = await startCli(
      [...args, '--openai-api-key-env', 'LLM_PASS'],
      15_000,
      {
        ...process.env,
        WEBBRIDGE_ACCESS_CODE: CODE,
        LLM_PASS: KEY,
        // A copy under a plain name gives the key away all the same.
        LLM_PASS_BACKUP: KEY,
        SOME_SERVICE_TOKEN: token,
        WEBBRIDGE_PLAIN_MARK: 'still-visible',
      },
      // Plain Node, without the shebang's flags: the process started is Node itself.
      [process.execPath, CLI],
    );
    cleanup.push(() => stop(cli));
    const answered = await fetch(`${cli.url}/api/state`, { headers: { Authorization: `Bearer ${CODE}` } });
    expect(answered.status).toBe(200);
    // The models were listed with the key: the host has it.
    expect(fake.requests.find((r) => r.path === '/v1/models')?.authorization).toBe(`Bearer ${KEY}`);
    // The process started and every process under it (the host is one of them).
    const pids = descendantsOf(cli.child.pid ?? 0);
    for (const pid of pids) {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      expect(environ, `process ${pid}`).toContain('WEBBRIDGE_PLAIN_MARK=still-visible');
      for (const secret of [KEY, CODE, token]) expect(environ, `process ${pid}`).not.toContain(secret);
    }

    cli.child.kill('SIGKILL');
    await cli.exited();
    // The port was the host's: once it is closed, the host is gone.
    await waitFor(
      () =>
        fetch(`${cli.url}/api/locale`).then(
          () => undefined,
          () => true,
        ),
      5_000,
    );
  });
});

/** `pid` and the ids of every process under it (from /proc/<id>/stat). */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    for (const [child, parent] of parents) if (parent === found[i]) found.push(child);
  }
  return found;
}
