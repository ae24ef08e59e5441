import { describe, expect, it } from 'vitest';
import { EchoModel, echoTokens } from './EchoModel';
import type { ModelEvent, ModelRequest } from './ModelProvider';

function request(text: string, partial = ''): ModelRequest {
  return {
    model: 'echo',
    systemPrompt: '',
    messages: [{ id: 'm1', parentId: null, role: 'user', text, attachments: [] }],
    tools: [],
    partial,
  };
}

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('echoTokens', () => {
  it('splits into words that keep their whitespace, leading whitespace included', () => {
    expect(echoTokens('  hello big\nworld ')).toEqual(['  hello ', 'big\n', 'world ']);
    expect(echoTokens('one')).toEqual(['one']);
    expect(echoTokens('   ')).toEqual(['   ']);
    expect(echoTokens('')).toEqual([]);
    const text = ' a  b\tc\n\nd ';
    expect(echoTokens(text).join('')).toBe(text);
  });
});

describe('EchoModel', () => {
  it('echoes the last user message, and only the rest when continuing', async () => {
    const echo = new EchoModel({ delayMs: 0 });
    const signal = new AbortController().signal;
    expect(await collect(echo.stream(request('a b c'), signal))).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'text', text: 'b ' },
      { type: 'text', text: 'c' },
    ]);
    expect(await collect(echo.stream(request('a b c', 'a '), signal))).toEqual([
      { type: 'text', text: 'b ' },
      { type: 'text', text: 'c' },
    ]);
  });

  it('turns /tool into a tool call', async () => {
    const echo = new EchoModel({ delayMs: 0 });
    const events = await collect(
      echo.stream(request('/tool read_file {"path":"a"}'), new AbortController().signal),
    );
    expect(events).toEqual([{ type: 'tool_call', name: 'read_file', args: '{"path":"a"}' }]);
  });

  it('stops promptly when aborted, cancelling its timer', async () => {
    const echo = new EchoModel({ delayMs: 10_000 });
    const abort = new AbortController();
    const started = Date.now();
    const pending = collect(echo.stream(request('never arrives'), abort.signal));
    setTimeout(() => abort.abort(), 10);
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
