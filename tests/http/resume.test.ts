import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import { appendFrameSchema, type StreamEvent, stateEventSchema } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, guardOf, sendAndWait } from '../support/api';
import { openEvents, type SseEvent } from '../support/sseClient';
import { startTestHost, type TestHost } from '../support/testHost';

/** Decodes a frame the way the SDK does. */
function decode(frame: SseEvent): StreamEvent | undefined {
  if (frame.event === 'message') {
    const [base, text] = appendFrameSchema.parse(JSON.parse(frame.data));
    return { kind: 'append', seq: Number(frame.id), base, text };
  }
  return frame.event === 'state' ? stateEventSchema.parse(JSON.parse(frame.data)) : undefined;
}

function applied(state: SyncState | null, event: StreamEvent): SyncState {
  const result = applyEvent(state, event);
  if (result.kind !== 'applied') throw new Error(`refused: ${result.reason}`);
  return result.state;
}

const noMedia = (key: string, value: unknown) => (key === 'media' ? undefined : value);

describe('resuming the event stream', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({ echoDelayMs: 2 });
  });
  afterAll(() => h.close(true));

  it('a reconnect naming <instanceId>.<seq> gets only what it missed, and ends equal to the state', async () => {
    // The first message names the conversation (a configuration change); later ones do not.
    await sendAndWait(h, 'warm up');
    const first = await openEvents(h.url, h.auth());
    let sync = applied(null, decode(await first.next())!);
    first.close();

    // Changes the client does not see while it is away (a reply streams to completion).
    await sendAndWait(h, 'one two three four five');
    const missed = await getState(h);

    const second = await openEvents(
      h.url,
      h.auth({ 'Last-Event-ID': `${sync.snapshot.instanceId}.${sync.seq}` }),
    );
    try {
      const event = decode(await second.next())!;
      expect(event.kind).not.toBe('snapshot');
      sync = applied(sync, event);
      while (JSON.stringify(sync.snapshot, noMedia) !== JSON.stringify(missed, noMedia)) {
        const next = decode(await second.next(2000));
        if (next) sync = applied(sync, next);
      }
      expect(sync.snapshot.conversations.messages.at(-1)?.text).toBe('one two three four five');
    } finally {
      second.close();
    }
  });

  it('another instance, a bare seq, a seq it no longer has, or garbage start over with a snapshot', async () => {
    const state = await getState(h);
    for (const id of [
      'other-instance.1',
      '1',
      `${state.instanceId}.999999`,
      'x'.repeat(300),
      `${state.instanceId}.-1`,
    ]) {
      const stream = await openEvents(h.url, h.auth({ 'Last-Event-ID': id }));
      try {
        expect(decode(await stream.next())?.kind).toBe('snapshot');
      } finally {
        stream.close();
      }
    }
  });

  it('resuming where nothing changed sends nothing until the next change', async () => {
    const stream = await openEvents(h.url, h.auth());
    const sync = applied(null, decode(await stream.next())!);
    stream.close();
    const again = await openEvents(
      h.url,
      h.auth({ 'Last-Event-ID': `${sync.snapshot.instanceId}.${sync.seq}` }),
    );
    try {
      await expect(again.next(200)).rejects.toThrow('timed out');
      await act(h, { action: 'updateSettings', settings: { systemPrompt: 'resume test' } });
      expect(decode(await again.next())?.kind).toBe('snapshot');
      await act(h, { action: 'send', text: 'after resume', ...guardOf(await getState(h)) });
    } finally {
      again.close();
    }
  });
});
