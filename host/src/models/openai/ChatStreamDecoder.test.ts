import { describe, expect, it } from 'vitest';
import type { ModelEvent } from '../ModelProvider';
import { ChatStreamDecoder } from './ChatStreamDecoder';

function frame(delta: Record<string, unknown>, finish: string | null = null): string {
  const chunk = {
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** Feeds `body` in pieces of `size` characters, as a network would cut it. */
function decode(body: string, size: number): ModelEvent[] {
  const decoder = new ChatStreamDecoder();
  const events: ModelEvent[] = [];
  for (let i = 0; i < body.length; i += size) events.push(...decoder.feed(body.slice(i, i + size)));
  return [...events, ...decoder.end()];
}

describe('ChatStreamDecoder', () => {
  it('gives the same words however the bytes are cut, and splits big deltas into words', () => {
    const body = `${frame({ role: 'assistant', content: '' })}${frame({ content: 'Hello big' })}${frame({ content: ' world' })}${frame({}, 'stop')}data: [DONE]\n\n`;
    for (const size of [1, 3, 7, body.length]) {
      expect(decode(body, size)).toEqual([
        { type: 'text', text: 'Hello ' },
        { type: 'text', text: 'big' },
        { type: 'text', text: ' world' },
      ]);
    }
  });

  it('assembles a tool call from pieces and keeps the first of parallel calls', () => {
    const body = [
      frame({ role: 'assistant', content: null }),
      frame({
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '' } },
        ],
      }),
      frame({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
      frame({
        tool_calls: [
          { index: 1, id: 'call_2', type: 'function', function: { name: 'list_files', arguments: '{}' } },
        ],
      }),
      frame({ tool_calls: [{ index: 0, function: { arguments: 'th":"a.md"}' } }] }),
      frame({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    expect(decode(body, 5)).toEqual([{ type: 'tool_call', name: 'read_file', args: '{"path":"a.md"}' }]);
  });

  it('accepts a stream that ends with a finish_reason but no [DONE], and refuses one with neither', () => {
    expect(decode(`${frame({ content: 'ok' })}${frame({}, 'stop')}`, 4)).toEqual([
      { type: 'text', text: 'ok' },
    ]);
    expect(() => decode(frame({ content: 'cut' }), 4)).toThrow(/ended the stream early/);
    expect(() => decode('data: {oops}\n\n', 100)).toThrow(/malformed/);
  });
});
