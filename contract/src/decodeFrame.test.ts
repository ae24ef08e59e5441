import { describe, expect, it } from 'vitest';
import { decodeFrame, type SseMessage } from './decodeFrame';
import type { StreamEvent } from './events';
import { loneAppend } from './loneAppend';
import { heartbeatFrame, streamEventFrame } from './sseFrame';
import { aSnapshot } from './testing/aSnapshot';

/** The fields of one encoded SSE frame, as a parser hands them over. */
function parse(frame: string): SseMessage {
  const field = (name: string) =>
    frame
      .split('\n')
      .find((line) => line.startsWith(`${name}:`))
      ?.slice(name.length + 1);
  return { event: field('event'), id: field('id'), data: field('data') ?? '' };
}

describe('decodeFrame undoes the contract’s frame encoding', () => {
  const events: StreamEvent[] = [
    {
      kind: 'snapshot',
      seq: 1,
      signature: 's',
      heartbeatMs: 15_000,
      snapshot: aSnapshot(),
    },
    { kind: 'delta', seq: 2, base: 1, run: { state: 'streaming', messageId: 'm' } },
    { kind: 'append', seq: 3, base: 2, text: 'word ' },
  ];
  for (const frames of ['named', 'compact'] as const) {
    it(`for every stream event, ${frames} frames`, () => {
      for (const event of events) {
        expect(decodeFrame(parse(streamEventFrame(event, frames)))).toEqual({ type: 'state', event });
      }
    });
  }

  it('for heartbeats, and skips event names it does not know', () => {
    const beat = { t: 5, heartbeatMs: 20 };
    expect(decodeFrame(parse(heartbeatFrame(beat)))).toEqual({ type: 'heartbeat', event: beat });
    expect(decodeFrame({ event: 'news', data: '{}' })).toBeUndefined();
  });

  it('refuses what cannot be trusted, saying why', () => {
    expect(decodeFrame({ event: 'state', data: '{' })).toMatchObject({
      type: 'failure',
      kind: 'invalid_frame',
    });
    expect(decodeFrame({ data: '[1,"x"]' })).toMatchObject({ type: 'failure', kind: 'invalid_frame' });
    expect(decodeFrame({ event: 'state', id: '', data: '[1,"x"]' })).toMatchObject({ kind: 'invalid_frame' });
    const other = { kind: 'snapshot', seq: 1, signature: 's', snapshot: { ...aSnapshot(), protocol: 999 } };
    expect(decodeFrame({ event: 'state', data: JSON.stringify(other) })).toMatchObject({
      kind: 'protocol_mismatch',
    });
  });
});

describe('loneAppend: the append rule', () => {
  it('sends one append to the running message as an append, and nothing else', () => {
    expect(loneAppend({ ap: [['m', 3, 'word']] }, 'm')).toBe('word');
    expect(loneAppend({ ap: [['m', 3, 'word']] }, 'other')).toBeUndefined();
    expect(loneAppend({ ap: [['m', 3, 'word']] }, null)).toBeUndefined();
    expect(
      loneAppend(
        {
          ap: [
            ['m', 3, 'a'],
            ['m', 4, 'b'],
          ],
        },
        'm',
      ),
    ).toBeUndefined();
    expect(
      loneAppend({ ap: [['m', 3, 'word']], run: { state: 'idle', messageId: null } } as never, 'm'),
    ).toBeUndefined();
  });
});
