import { describe, expect, it } from 'vitest';
import { frame, sseResponse } from '../testing/fakeFetch';
import { delta, message, snapshot, snapshotEvent } from '../testing/fixtures';
import { EventStreamError } from './EventStreamError';
import { readEventStream, type StreamItem } from './readEventStream';

async function collect(chunks: string[]): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  for await (const item of readEventStream(sseResponse(chunks, undefined))) items.push(item);
  return items;
}

describe('readEventStream', () => {
  it('yields validated state events, heartbeats and retry hints, whatever the chunking', async () => {
    const text =
      frame('state', snapshotEvent(1, snapshot([message('a', 'héllo 😀')])), 1) +
      frame('heartbeat', { t: 5, heartbeatMs: 15_000 }) +
      'retry: 3000\n\n' +
      frame('state', delta(1, { ap: [['a', 8, ' wörld']] }), 2);
    const bytes = new TextEncoder().encode(text);
    // Every 7 bytes: splits frames, lines and multi-byte UTF-8 sequences.
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    for (let i = 0; i < bytes.length; i += 7)
      chunks.push(decoder.decode(bytes.slice(i, i + 7), { stream: true }));
    const items = await collect([text]);
    expect(items.map((i) => i.type)).toEqual(['state', 'heartbeat', 'retry', 'state']);
    expect(items[0]).toMatchObject({ type: 'state', event: { kind: 'snapshot', seq: 1 } });
    expect(items[2]).toEqual({ type: 'retry', ms: 3000 });
    expect(items[3]).toMatchObject({ event: { kind: 'delta', ap: [['a', 8, ' wörld']] } });
    expect(await collect(chunks)).toEqual(items);
  });

  it('decodes compact appends (no event name, id = seq, data = [base, text])', async () => {
    const items = await collect(['id:8\ndata:[7," word"]\n\n']);
    expect(items).toEqual([{ type: 'state', event: { kind: 'append', seq: 8, base: 7, text: ' word' } }]);
    await expect(collect(['id:8\ndata:[7]\n\n'])).rejects.toBeInstanceOf(EventStreamError);
    await expect(collect(['data:[7,"x"]\n\n'])).rejects.toBeInstanceOf(EventStreamError);
  });

  it('decodes named appends (event: state, id = seq, data = [base, text]) like compact ones', async () => {
    const items = await collect(['event:state\nid:8\ndata:[7," word"]\n\n']);
    expect(items).toEqual([{ type: 'state', event: { kind: 'append', seq: 8, base: 7, text: ' word' } }]);
    await expect(collect(['event:state\nid:8\ndata:[7]\n\n'])).rejects.toBeInstanceOf(EventStreamError);
    await expect(collect(['event:state\nid:\ndata:[7,"x"]\n\n'])).rejects.toBeInstanceOf(EventStreamError);
    await expect(collect(['event:heartbeat\ndata:[7,"x"]\n\n'])).rejects.toBeInstanceOf(EventStreamError);
  });

  it('reads the heartbeat interval a heartbeat names, and refuses one without it', async () => {
    const items = await collect([frame('heartbeat', { t: 1, heartbeatMs: 45_000 })]);
    expect(items).toEqual([{ type: 'heartbeat', event: { t: 1, heartbeatMs: 45_000 } }]);
    await expect(collect([frame('heartbeat', { t: 1 })])).rejects.toMatchObject({ kind: 'invalid_frame' });
  });

  it('skips event names it does not know', async () => {
    const items = await collect([
      frame('presence', { who: 'x' }) + frame('heartbeat', { t: 1, heartbeatMs: 15_000 }),
    ]);
    expect(items).toEqual([{ type: 'heartbeat', event: { t: 1, heartbeatMs: 15_000 } }]);
  });

  it.each([
    ['not JSON', frame('state', '{"kind":')],
    ['a delta without base', frame('state', { kind: 'delta', seq: 2 })],
    ['an unknown kind', frame('state', { kind: 'patch', seq: 2 })],
    ['a bad heartbeat', frame('heartbeat', { t: 'soon' })],
  ])('ends with invalid_frame on %s, after the valid frames before it', async (_name, bad) => {
    const seen: StreamItem[] = [];
    const error = await (async () => {
      for await (const item of readEventStream(
        sseResponse([frame('heartbeat', { t: 1, heartbeatMs: 15_000 }), bad], undefined),
      )) {
        seen.push(item);
      }
    })().catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(EventStreamError);
    expect((error as EventStreamError).kind).toBe('invalid_frame');
  });

  it('reports a snapshot of another protocol version as protocol_mismatch', async () => {
    const other = { ...snapshotEvent(1, snapshot([])), snapshot: { ...snapshot([]), protocol: 99 } };
    await expect(collect([frame('state', other)])).rejects.toMatchObject({ kind: 'protocol_mismatch' });
  });

  it('drops __proto__ keys from frames', async () => {
    const raw = JSON.stringify(delta(1, { add: [message('x')] })).replace(
      '"id":"x"',
      '"id":"x","__proto__":{"p":1}',
    );
    const [item] = await collect([frame('state', raw)]);
    expect(item?.type).toBe('state');
    const added = item?.type === 'state' && item.event.kind === 'delta' ? item.event.add?.[0] : undefined;
    expect(added?.id).toBe('x');
    expect(Object.hasOwn(added ?? {}, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });
});
