import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCESS_HEADER, type Snapshot } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { type CliProcess, startCli } from './cliProcess';
import { type FakeOpenAi, startFakeOpenAi } from './fakeOpenAi';

// The real `webbridge serve` with the access code, the view code and the model key in its
// environment. An approved run_command reads the host's /proc/<pid>/environ (what Linux shows
// any process of the same user for as long as the host runs): neither secret is there, while
// the host still works with all three (it got them over a pipe, cli/secretHandover.ts).

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
  it('an approved command that reads /proc/<host pid>/environ finds neither code nor key', async () => {
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

    const script = 'tr "\\000" "\\n" < /proc/$PPID/environ; echo "host pid $PPID"';
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
    expect(pending.args).toContain('/proc/$PPID/environ');
    await act(h, { action: 'approve', approvalId: pending.id, decision: 'allow' });
    const done: Snapshot = await waitFor(async () => {
      const state = await getState(h);
      const last = state.conversations.messages.at(-1);
      return last?.role === 'assistant' && last.status === 'complete' && last.text === 'read it'
        ? state
        : undefined;
    }, 15_000);

    const everything = JSON.stringify(done);
    // The command did read the host's environment (a plain variable is there)...
    expect(everything).toContain('WEBBRIDGE_PLAIN_MARK=still-visible');
    // ...and found no secret in it, under any name.
    expect(everything).not.toContain(CODE);
    expect(everything).not.toContain(VIEW);
    expect(everything).not.toContain(KEY);
    // The same, read directly: the process that runs the host and its tools.
    const hostPid = Number(/host pid (\d+)/.exec(everything)?.[1]);
    expect(hostPid).toBeGreaterThan(0);
    const environ = readFileSync(`/proc/${hostPid}/environ`, 'latin1');
    expect(environ).toContain('WEBBRIDGE_PLAIN_MARK=still-visible');
    for (const secret of [CODE, VIEW, KEY]) expect(environ).not.toContain(secret);
    // The key was sent to the model all the same.
    expect(fake.requests.find((r) => r.path === '/v1/chat/completions')?.authorization).toBe(`Bearer ${KEY}`);

    // SIGTERM to the command the person started ends the host cleanly, with status 0.
    const since = Date.now();
    cli.child.kill('SIGTERM');
    const exit = await cli.exited(since);
    expect([exit.code, exit.signal]).toEqual([0, null]);
    expect(() => process.kill(hostPid, 0)).toThrow();
  });

  it('a key named by --openai-api-key-env is hidden too; the host never outlives its launcher', async () => {
    const fake: FakeOpenAi = await startFakeOpenAi({ apiKey: KEY, models: ['gpt-fake-mini'] });
    cleanup.push(() => fake.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-cli-secrets-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const args = ['--port', '0', '--no-console', '--data-dir', dataDir, '--openai-base-url', fake.baseUrl];
    // A name nothing would take for a credential: only the flag says it holds one.
    const cli = await startCli([...args, '--openai-api-key-env', 'LLM_PASS'], 15_000, {
      ...process.env,
      WEBBRIDGE_ACCESS_CODE: CODE,
      LLM_PASS: KEY,
      WEBBRIDGE_PLAIN_MARK: 'still-visible',
    });
    cleanup.push(() => stop(cli));
    const answered = await fetch(`${cli.url}/api/state`, { headers: { Authorization: `Bearer ${CODE}` } });
    expect(answered.status).toBe(200);
    // The models were listed with the key: the host has it.
    expect(fake.requests.find((r) => r.path === '/v1/models')?.authorization).toBe(`Bearer ${KEY}`);
    const [hostPid] = childrenOf(cli.child.pid ?? 0);
    expect(hostPid).toBeDefined();
    const environ = readFileSync(`/proc/${hostPid}/environ`, 'latin1');
    expect(environ).toContain('WEBBRIDGE_PLAIN_MARK=still-visible');
    expect(environ).not.toContain(KEY);
    expect(environ).not.toContain(CODE);

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

/** The ids of the processes whose parent is `pid` (from /proc/<id>/stat). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
