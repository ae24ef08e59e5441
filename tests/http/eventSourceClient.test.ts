import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import { STATE_EVENT, type StreamEvent, stateDataSchema } from '@webbridge/contract';
import { EventSource, type FetchLike } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, guardOf, sendAndWait, waitFor } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

/** A standard EventSource cannot send Authorization; its `fetch` option can. */
const withBearer: FetchLike = (url, init) =>
  fetch(url, { ...init, headers: { ...init.headers, Authorization: `Bearer ${TEST_CODE}` } });

/** Decodes the data of a `state` event as PROTOCOL.md describes it, without the SDK's reader. */
function decode(message: { readonly data: string; readonly lastEventId: string }): StreamEvent {
  const data = stateDataSchema.parse(JSON.parse(message.data));
  if (!Array.isArray(data)) return data;
  const [base, text] = data;
  return { kind: 'append', seq: Number(message.lastEventId), base, text };
}

const noMedia = (key: string, value: unknown) => (key === 'media' ? undefined : value);

describe('a standard EventSource client (the `eventsource` package)', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({ echoDelayMs: 3 });
    // The first exchange names the conversation (a snapshot); the reply below streams deltas.
    await sendAndWait(h, 'warm up');
  });
  afterAll(() => h.close(true));

  it('listening for `state` alone receives every update of a streamed reply, and no unnamed event', async () => {
    const source = new EventSource(`${h.url}/api/events`, { fetch: withBearer });
    const unnamed: string[] = [];
    const refused: string[] = [];
    const kinds: StreamEvent['kind'][] = [];
    let opened = 0;
    // Assigned in the listener: a plain `null` initialiser would narrow it to null here.
    let sync = null as SyncState | null;
    source.onopen = () => opened++;
    source.onmessage = (message) => unnamed.push(message.data);
    source.addEventListener(STATE_EVENT, (message) => {
      const event = decode(message);
      kinds.push(event.kind);
      const result = applyEvent(sync, event);
      if (result.kind === 'applied') sync = result.state;
      else refused.push(`${event.kind} at base ${'base' in event ? event.base : '-'}: ${result.reason}`);
    });
    try {
      const first = await waitFor(() => sync ?? undefined);
      const text = 'the quick brown fox jumps over the lazy dog and then over the fence again';
      await act(h, { action: 'send', text, ...guardOf(first.snapshot) });
      const truth = await waitFor(async () => {
        const now = await getState(h);
        const last = now.conversations.messages.at(-1);
        return now.conversations.run.state === 'idle' && last?.status === 'complete' ? now : undefined;
      });
      await waitFor(() =>
        JSON.stringify(sync?.snapshot, noMedia) === JSON.stringify(truth, noMedia) || refused.length > 0
          ? true
          : undefined,
      );
      expect(refused).toEqual([]);
      expect(unnamed).toEqual([]);
      expect(sync?.snapshot.conversations.messages.at(-1)?.text).toBe(text);
      // Word by word: most updates of the reply were single appends, each one a `state` event.
      expect(kinds.filter((k) => k === 'append').length).toBeGreaterThan(5);
      expect(opened).toBe(1);
    } finally {
      source.close();
    }
  });
});
