import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createModelProviders } from '@webbridge/host';
import { afterEach, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { type FakeOpenAi, startFakeOpenAi } from './fakeOpenAi';
import { send, startModelHost, waitForLast } from './modelHost';

const KEY = 'sk-test-0123456789abcdef';
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.reverse()) await close();
  cleanup = [];
});

async function setup(options: { timeoutMs?: number; models?: string[] } = {}) {
  const fake = await startFakeOpenAi({ apiKey: KEY });
  cleanup.push(() => fake.close());
  const h = await startModelHost({
    baseUrl: fake.baseUrl,
    apiKey: KEY,
    models: options.models ?? [],
    timeoutMs: options.timeoutMs,
  });
  cleanup.push(() => h.close());
  return { fake, h };
}

function chats(fake: FakeOpenAi) {
  return fake.requests.filter((r) => r.path === '/v1/chat/completions');
}

describe('OpenAI-compatible model', () => {
  it('discovers the models, streams a reply and sends the request in OpenAI format', async () => {
    const { fake, h } = await setup();
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/models',
      authorization: `Bearer ${KEY}`,
    });
    const state = await getState(h);
    expect(state.models.list.map((m) => [m.id, m.provider])).toEqual([
      ['echo', 'echo'],
      ['gpt-fake-mini', 'openai'],
      ['gpt-fake-large', 'openai'],
    ]);
    expect(state.models.current).toBe('gpt-fake-mini');

    fake.reply({ kind: 'text', chunks: ['Hello', ' there,', ' dear', ' friend.'] });
    await send(h, 'hi');
    const done = await waitForLast(h, (m) => m.role === 'assistant' && m.status === 'complete');
    expect(done.conversations.messages.at(-1)).toMatchObject({
      text: 'Hello there, dear friend.',
      model: 'gpt-fake-mini',
    });
    expect(done.conversations.run.state).toBe('idle');

    const [request] = chats(fake);
    expect(request?.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toMatchObject({
      model: 'gpt-fake-mini',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
      tool_choice: 'auto',
      parallel_tool_calls: false,
    });
    const tools = request?.body?.tools as { type: string; function: { name: string; parameters: unknown } }[];
    expect(tools.map((t) => [t.type, t.function.name])).toEqual([
      ['function', 'list_files'],
      ['function', 'read_file'],
      ['function', 'search_text'],
      ['function', 'write_file'],
      ['function', 'patch_file'],
    ]);
    expect(tools[3]?.function.parameters).toMatchObject({ type: 'object', required: ['path', 'content'] });
  });

  it('maps a streamed tool call to an approval, runs it when allowed and lets the model read the result', async () => {
    const { fake, h } = await setup();
    fake.reply(
      {
        kind: 'tool',
        name: 'write_file',
        text: ['Writing', ' it.'],
        argPieces: ['{"pa', 'th":"notes/a.txt","con', 'tent":"hi there"}'],
      },
      { kind: 'text', chunks: ['Saved', ' the', ' note.'] },
    );
    const sent = await send(h, 'write a note');
    const waiting = await waitFor(async () => {
      const s = await getState(h);
      return s.approvals.length === 1 ? s : undefined;
    });
    expect(waiting.conversations.run).toEqual({ state: 'waiting_approval', messageId: sent.replyId });
    expect(waiting.conversations.messages.at(-1)).toMatchObject({
      text: 'Writing it.',
      status: 'waiting',
      tool: { name: 'write_file', args: '{"path":"notes/a.txt","content":"hi there"}' },
    });
    const approval = waiting.approvals[0]!;
    expect(approval.summary).toContain('notes/a.txt');

    await act(h, { action: 'approve', approvalId: approval.id, decision: 'allow' });
    const done = await waitForLast(
      h,
      (m) => m.role === 'assistant' && m.status === 'complete' && m.text !== '',
    );
    expect(readFileSync(join(h.dataDir, 'workspace/notes/a.txt'), 'utf8')).toBe('hi there');
    expect(done.conversations.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['tool', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(done.conversations.messages.at(-1)?.text).toBe('Saved the note.');

    const second = chats(fake)[1]?.body?.messages as Record<string, unknown>[];
    const callId = `call_${sent.replyId}`;
    expect(second).toEqual([
      { role: 'user', content: 'write a note' },
      {
        role: 'assistant',
        content: 'Writing it.',
        tool_calls: [
          {
            id: callId,
            type: 'function',
            function: { name: 'write_file', arguments: '{"path":"notes/a.txt","content":"hi there"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: callId, content: 'Wrote 8 bytes to notes/a.txt.' },
    ]);
  });

  it('runs a tool that needs no approval at once, and sends a denial back to the model', async () => {
    const { fake, h } = await setup();
    fake.reply(
      { kind: 'tool', name: 'list_files', argPieces: ['{}'] },
      { kind: 'tool', name: 'write_file', argPieces: ['{"path":"x.txt","content":"x"}'] },
    );
    await send(h, 'look around');
    const waiting = await waitFor(async () => {
      const s = await getState(h);
      return s.approvals.length === 1 ? s : undefined;
    });
    expect(waiting.conversations.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(waiting.conversations.messages[2]?.text).toBe('(empty folder)');
    fake.reply({ kind: 'text', chunks: ['Understood.'] });
    await act(h, { action: 'approve', approvalId: waiting.approvals[0]!.id, decision: 'deny' });
    const done = await waitForLast(
      h,
      (m) => m.role === 'assistant' && m.text === 'Understood.' && m.status === 'complete',
    );
    expect(done.conversations.messages.at(-2)?.text).toMatch(/Denied/);
    const third = chats(fake)[2]?.body?.messages as { role: string; content: string }[];
    expect(third.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/Denied/) });
  });

  it('stops asking the model again after 8 chained tool rounds', async () => {
    const { fake, h } = await setup();
    for (let i = 0; i < 9; i++) fake.reply({ kind: 'tool', name: 'list_files', argPieces: ['{}'] });
    await send(h, 'loop forever');
    const done = await waitForLast(h, (m, s) => m.role === 'tool' && s.conversations.run.state === 'idle');
    expect(done.conversations.messages.filter((m) => m.role === 'tool')).toHaveLength(8);
    await new Promise((r) => setTimeout(r, 50));
    expect(chats(fake)).toHaveLength(8);
  });

  it('stop aborts the HTTP request, and continue sends the partial reply back', async () => {
    const { fake, h } = await setup();
    const words = Array.from({ length: 60 }, (_, i) => ` w${i}`);
    // Three words, then the model "thinks": the stop must cut the HTTP request itself, not wait
    // for a next chunk that may never come.
    fake.reply({ kind: 'text', chunks: words, delayMs: 20, stallAfter: 3 });
    await send(h, 'talk slowly');
    const streaming = await waitForLast(h, (m) => m.status === 'streaming' && m.text === ' w0 w1 w2');
    await act(h, { action: 'stop', ...guardOf(streaming) });
    const request = chats(fake)[0]!;
    await fake.ended(request, 1_000);
    expect(request.clientAborted).toBe(true);
    const stopped = await waitForLast(h, (m) => m.status === 'stopped');
    const partial = stopped.conversations.messages.at(-1)!.text;
    expect(words.join('').startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(words.join('').length);

    fake.reply({ kind: 'text', chunks: [' and', ' the', ' rest.'] });
    await act(h, { action: 'continue', ...guardOf(stopped) });
    const done = await waitForLast(h, (m) => m.status === 'complete');
    expect(done.conversations.messages.at(-1)?.text).toBe(`${partial} and the rest.`);
    const resumed = chats(fake)[1]?.body?.messages as { role: string; content: string }[];
    expect(resumed.slice(-2)).toEqual([
      { role: 'assistant', content: partial },
      { role: 'user', content: expect.stringMatching(/^Continue your previous reply/) },
    ]);
  });

  it('turns provider errors into a reply in error status with a readable reason, key redacted', async () => {
    const { fake, h } = await setup({ timeoutMs: 300 });
    const cases: [Parameters<FakeOpenAi['reply']>[0], RegExp][] = [
      [
        { kind: 'status', status: 500, message: 'The server had an error while processing your request.' },
        /answered 500 Internal Server Error: The server had an error/,
      ],
      [
        {
          kind: 'status',
          status: 429,
          message: `Rate limit reached for key ${KEY}`,
          code: 'rate_limit_exceeded',
        },
        /answered 429 Too Many Requests: Rate limit reached for key \[redacted\]/,
      ],
      [{ kind: 'raw', body: 'data: {"id":"x","choices":[{"delta":{"content":"Hi\n\n' }, /malformed stream/],
      [
        {
          kind: 'raw',
          body: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n\n`,
        },
        /ended the stream early/,
      ],
      [
        {
          kind: 'raw',
          body: `data: ${JSON.stringify({ error: { message: 'model ran out of memory' } })}\n\n`,
        },
        /failed while answering: model ran out of memory/,
      ],
      [{ kind: 'silent' }, /sent nothing for 300 ms/],
    ];
    for (const [reply, reason] of cases) {
      fake.reply(reply);
      await send(h, 'try');
      const failed = await waitForLast(h, (m) => m.role === 'assistant' && m.status === 'error');
      const message = failed.conversations.messages.at(-1)!;
      expect(message.error).toMatch(reason);
      expect(message.error).not.toContain(KEY);
      expect(failed.conversations.run.state).toBe('idle');
    }
    // The host is unharmed: the echo model still answers.
    const state = await getState(h);
    await act(h, { action: 'model', modelId: 'echo', ...guardOf(state) });
    await send(h, 'still alive');
    const echoed = await waitForLast(h, (m) => m.role === 'assistant' && m.status === 'complete');
    expect(echoed.conversations.messages.at(-1)?.text).toBe('still alive');
  });

  it('reports a wrong key and an unreachable endpoint without showing the key', async () => {
    const fake = await startFakeOpenAi({ apiKey: 'sk-the-right-one' });
    cleanup.push(() => fake.close());
    const wrong = 'sk-wrong-secret-9876543210';
    const warnings: string[] = [];
    const h = await startModelHost({ baseUrl: fake.baseUrl, apiKey: wrong, models: [] }, warnings);
    cleanup.push(() => h.close());
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/answered 401 Unauthorized: Incorrect API key provided: \[redacted\]/);
    expect(warnings[0]).not.toContain(wrong);
    expect((await getState(h)).models.list.map((m) => m.id)).toEqual(['echo']);

    const given = await startModelHost({ baseUrl: fake.baseUrl, apiKey: wrong, models: ['gpt-x'] });
    cleanup.push(() => given.close());
    await send(given, 'hello');
    const failed = await waitForLast(given, (m) => m.status === 'error');
    expect(failed.conversations.messages.at(-1)?.error).toMatch(/^The model endpoint answered 401/);
    expect(JSON.stringify(failed)).not.toContain(wrong);

    const port = await closedPort();
    const providers = await createModelProviders({
      openai: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: wrong, models: ['gpt-x'] },
    });
    const stream = providers[0]!.stream(
      { model: 'gpt-x', systemPrompt: '', messages: [], tools: [], partial: '' },
      new AbortController().signal,
    );
    const error = await (async () => {
      try {
        for await (const _ of stream) {
          // nothing arrives
        }
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error?.message).toBe(
      `Could not reach the model endpoint at http://127.0.0.1:${port} (connection refused).`,
    );
  });
});

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
