import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { openEvents } from '../support/sseClient';
import type { TestHost } from '../support/testHost';
import { type CliProcess, startCli } from './cliProcess';

const CODE = 'test-code-1234';
let running: CliProcess[] = [];
afterEach(() => {
  for (const cli of running)
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  running = [];
});

async function serve(
  dataDir: string,
  echoDelayMs: number,
): Promise<CliProcess & { api: Pick<TestHost, 'url' | 'auth'> }> {
  const cli = await startCli([
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--no-console',
    '--echo-delay-ms',
    String(echoDelayMs),
    '--access-code',
    CODE,
  ]);
  running.push(cli);
  const api: Pick<TestHost, 'url' | 'auth'> = {
    url: cli.url,
    auth: () => ({ Authorization: `Bearer ${CODE}`, 'Content-Type': 'application/json' }),
  };
  return { ...cli, api };
}

describe('the CLI process', () => {
  it('keeps the conversation and every streamed word through kill -9, and continues after', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-kill-'));
    const first = await serve(dataDir, 20);
    const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const before = await getState(first.api);
    const sent = await act(first.api, { action: 'send', text, ...guardOf(before) });
    const seen = await waitFor(async () => {
      const reply = (await getState(first.api)).conversations.messages.at(-1);
      return reply?.status === 'streaming' && reply.text.split(' ').length > 10 ? reply.text : undefined;
    });
    first.child.kill('SIGKILL');
    expect((await first.exited()).signal).toBe('SIGKILL');

    const second = await serve(dataDir, 1);
    const after = await getState(second.api);
    expect(after.conversationId).toBe(sent.conversationId);
    expect(after.instanceId).not.toBe(before.instanceId);
    const [user, reply] = after.conversations.messages;
    expect(after.conversations.messages).toHaveLength(2);
    expect(user).toMatchObject({ id: sent.messageId, role: 'user', text, status: 'complete' });
    expect(reply).toMatchObject({ id: sent.replyId, role: 'assistant', status: 'stopped' });
    // Everything a browser saw before the kill survived; nothing was invented.
    expect(reply!.text.startsWith(seen)).toBe(true);
    expect(text.startsWith(reply!.text)).toBe(true);
    expect(after.conversations.run.state).toBe('idle');

    await act(second.api, { action: 'continue', ...guardOf(after) });
    const done = await waitFor(async () => {
      const state = await getState(second.api);
      return state.conversations.messages.at(-1)?.status === 'complete' ? state : undefined;
    });
    expect(done.conversations.messages.at(-1)?.text).toBe(text);
    second.child.kill('SIGTERM');
    expect((await second.exited()).code).toBe(0);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`exits 0 within 2 s on ${signal}, ending an open event stream`, async () => {
      const cli = await serve(mkdtempSync(join(tmpdir(), 'webbridge-signal-')), 20);
      expect(cli.lines[0]).toBe(`webbridge listening on http://127.0.0.1:${cli.port}`);
      const events = await openEvents(cli.url, cli.api.auth());
      expect((await events.next()).event).toBe('state');
      // A reply streaming at the time must not hold the shutdown up.
      await act(cli.api, {
        action: 'send',
        text: 'a b c d e f g h i j k l m n o p',
        ...guardOf(await getState(cli.api)),
      });
      const since = Date.now();
      cli.child.kill(signal);
      const exit = await cli.exited(since);
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.afterMs).toBeLessThan(2_000);
      await events.ended;
      await expect(events.until(() => false, 100)).rejects.toThrow(/ended/);
    });
  }
});
