import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { serverPid, waitForReplacement } from './mcp/childProcesses';
import { type McpTestHost, startMcpHost, waitForServer, waitForStatus } from './mcp/mcpTestHost';
import { send, waitForLast } from './modelHost';

const MISBEHAVING = fileURLToPath(new URL('./mcp/misbehavingServer.mjs', import.meta.url));
const NOISY_SECRET = 'tok-noisy-1f4e9a7c';
const CANCEL_LOG = join(mkdtempSync(join(tmpdir(), 'wb-mcp-cancel-')), 'cancelled.txt');

let h: McpTestHost;
beforeAll(async () => {
  h = await startMcpHost({
    missing: { command: 'wb-no-such-command-anywhere' },
    invalid: { command: 42 },
    noisy: { command: 'node', args: [MISBEHAVING, 'garbage'], env: { NOISY_SECRET } },
    garbled: { command: 'node', args: [MISBEHAVING, 'badtools'] },
    odd: {
      command: 'node',
      args: [MISBEHAVING, 'odd'],
      env: { WB_SERVER: 'odd', CANCEL_LOG },
      approval: 'allow',
      timeoutMs: 1_000,
    },
  });
});
afterAll(() => h?.close());
beforeEach(async () => {
  await act(h, { action: 'newConversation' });
});

function lastResult() {
  return waitForLast(h, (m, s) => m.role === 'tool' && s.conversations.run.state === 'idle').then(
    (s) => s.conversations.messages.at(-1)!,
  );
}

describe('MCP servers that fail never take the host down', () => {
  it('shows a server whose command does not exist as failed, with the reason, and keeps retrying', async () => {
    const failed = await waitForStatus(h, 0, 'missing', 'failed');
    expect(failed.lastError).toMatch(/^It could not start: spawn .*wb-no-such-command-anywhere ENOENT$/);
    expect(failed.toolCount).toBe(0);
    await waitFor(() =>
      h.logs.filter((l) => l.includes('"missing" failed')).length >= 2 ? true : undefined,
    );
    // Said as a warning once; the same reason again at every retry only as info.
    const lines = h.logs.filter((l) => l.includes('"missing" failed'));
    expect(lines[0]).toMatch(/^warn: /);
    expect(lines.slice(1).every((l) => l.startsWith('info: '))).toBe(true);
  });

  it('shows an invalid entry as failed and never starts it', async () => {
    const { tools } = await getState(h);
    expect(tools.servers?.find((s) => s.name === 'invalid')).toEqual({
      name: 'invalid',
      transport: 'stdio',
      state: 'failed',
      toolCount: 0,
      approval: 'ask',
      lastError: 'Invalid config: give a "command" (stdio) or a "url" (Streamable HTTP).',
    });
  });

  it('tells why a server that prints garbage and exits failed, without its secrets', async () => {
    const failed = await waitForStatus(
      h,
      0,
      'noisy',
      'failed',
      (s) => s.lastError?.includes('last output') === true,
    );
    expect(failed.lastError).toMatch(/Its last output: fatal: cannot go on$/);
    await waitFor(() => (h.logs.some((l) => l.includes('"noisy" failed')) ? true : undefined));
    const everything = JSON.stringify([await getState(h), h.logs]);
    expect(everything).not.toContain(NOISY_SECRET);
  });

  it('fails a server whose tool list is garbage', async () => {
    const failed = await waitForStatus(h, 0, 'garbled', 'failed');
    expect(failed.lastError).toMatch(/^It could not start: /);
    expect((await getState(h)).tools.list.some((t) => t.server === 'garbled')).toBe(false);
  });

  it('ends a call answered with garbage in an error; the server stays', async () => {
    await waitForServer(h, 'odd', 'ready');
    await send(h, '/tool odd__bad {}');
    expect(await lastResult()).toMatchObject({
      status: 'error',
      error: 'The MCP server "odd" answered with something that is not a tool result.',
    });
    expect((await getState(h)).tools.servers?.find((s) => s.name === 'odd')?.state).toBe('ready');
  });

  it('restarts a server that is stuck: its call times out and a ping gets no answer', async () => {
    await waitForServer(h, 'odd', 'ready');
    const pid = serverPid('odd');
    const since = h.history.length;
    await send(h, '/tool odd__stuck {}');
    expect(await lastResult()).toMatchObject({
      status: 'error',
      error: 'The MCP server "odd" did not answer within 1 s; the call was cancelled.',
    });
    const failed = await waitForStatus(h, since, 'odd', 'failed');
    expect(failed.lastError).toBe('It stopped answering (a call timed out and a ping got no answer).');
    await waitForStatus(h, since, 'odd', 'ready');
    await waitForReplacement('odd', pid);
    await send(h, '/tool odd__fine {}');
    expect((await lastResult()).text).toBe('fine');
  });

  it('answers a call of a server that is away with the reason, at once', async () => {
    await send(h, '/tool missing__anything {}');
    const result = await lastResult();
    expect(result.status).toBe('error');
    expect(result.error).toMatch(
      /^The MCP server "missing" is not ready \((failed|restarting)\)\. Last error: It could not start/,
    );
  });

  it('sends the server a cancellation when the person stops a running call', async () => {
    await waitForServer(h, 'odd', 'ready');
    await send(h, '/tool odd__slow {}');
    const running = await waitForLast(
      h,
      (m, s) => m.tool !== undefined && s.conversations.run.state === 'streaming',
    );
    await act(h, { action: 'stop', ...guardOf(running) });
    await waitForLast(h, (m) => m.status === 'stopped');
    const log = await waitFor(() => (existsSync(CANCEL_LOG) ? readFileSync(CANCEL_LOG, 'utf8') : undefined));
    // Sent by the stop (the call's signal aborted), not by the call's 1 s timeout, whose
    // reason would be "McpError: MCP error -32001: Request timed out". (It was told apart by
    // time, under 900 ms, which a loaded machine could miss.)
    expect(log).toMatch(/^cancelled \d+: AbortError: This operation was aborted\n$/);
  });

  it('answers a made-up tool of a ready server as no such tool', async () => {
    await waitForServer(h, 'odd', 'ready');
    await send(h, '/tool odd__nope {}');
    const call = await waitForLast(h, (m) => m.status === 'error');
    expect(call.conversations.messages.at(-1)?.error).toBe('There is no tool "odd__nope".');
  });

  it('still serves the web API and the echo model meanwhile', async () => {
    await send(h, 'still here');
    const done = await waitForLast(h, (m) => m.role === 'assistant' && m.status === 'complete');
    expect(done.conversations.messages.at(-1)?.text).toBe('still here');
  });
});
