import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import { parseStateTag, type StreamEvent, snapshotSchema, stateDataSchema } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConversation, startScriptedHost } from '../browser/scriptedModel';
import { anotherBridge } from '../support/anotherBridge';
import { act, getState, guardOf, sendAndWait, waitFor } from '../support/api';
import { openEvents, type SseEvent } from '../support/sseClient';
import { startTestHost, type TestHost } from '../support/testHost';

/** Decodes a frame the way the SDK does; undefined for heartbeats. */
function decode(frame: SseEvent): StreamEvent | undefined {
  if (frame.event !== 'state' && frame.event !== 'message') return undefined;
  const data = stateDataSchema.parse(JSON.parse(frame.data));
  if (!Array.isArray(data)) return data;
  const [base, text] = data;
  return { kind: 'append', seq: Number(frame.id), base, text };
}

/** A resumed stream opens with a heartbeat (naming the interval); the state comes after it. */
const isState = (frame: SseEvent) => frame.event !== 'heartbeat';

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
      const event = decode(await second.until(isState))!;
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

  it('GET /api/state names the event id it is at (ETag), and a stream resumed from it sends no snapshot', async () => {
    await sendAndWait(h, 'before the page opens');
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(`${h.url}/api/state`, { method, headers: h.auth() });
      expect(response.status).toBe(200);
      expect(parseStateTag(response.headers.get('etag'))).toBeDefined();
      await response.arrayBuffer();
    }
    const response = await fetch(`${h.url}/api/state`, { headers: h.auth() });
    const tag = parseStateTag(response.headers.get('etag'));
    const fetched = snapshotSchema.parse(await response.json());
    expect(tag?.instanceId).toBe(fetched.instanceId);
    let sync: SyncState = { seq: tag?.seq ?? -1, signature: '', snapshot: fetched };

    const stream = await openEvents(h.url, h.auth({ 'Last-Event-ID': `${tag?.instanceId}.${tag?.seq}` }));
    try {
      // Resumed: a heartbeat first, then only the reply to a message sent after the fetch,
      // each a delta against the fetched state (no snapshot at all).
      expect((await stream.next()).event).toBe('heartbeat');
      await sendAndWait(h, 'after the page opened');
      const now = await getState(h);
      while (JSON.stringify(sync.snapshot, noMedia) !== JSON.stringify(now, noMedia)) {
        const next = decode(await stream.next(2000));
        if (!next) continue;
        expect(next.kind).not.toBe('snapshot');
        sync = applied(sync, next);
      }
      expect(sync.snapshot.conversations.messages.at(-1)?.text).toBe('after the page opened');
    } finally {
      stream.close();
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

  it('a bridge started again in the same run never resumes a seq of the bridge before it', async () => {
    // An app that stops sharing and shares again keeps its instanceId (same run) but builds a
    // new bridge. A client of the old bridge that reconnects must not be "resumed" from the
    // new bridge's projection that happens to carry the same seq: it starts over.
    const first = await anotherBridge(h);
    const old = await openEvents(first.url, first.auth());
    let sync = applied(null, decode(await old.next())!);
    // Message changes (not configuration ones, which would send a snapshot anyway).
    await sendAndWait(h, 'through the first bridge');
    const seen = await getState(h);
    while (JSON.stringify(sync.snapshot, noMedia) !== JSON.stringify(seen, noMedia)) {
      const next = decode(await old.next(2000));
      if (next) sync = applied(sync, next);
    }
    old.close();
    await first.stop();

    const second = await anotherBridge(h);
    try {
      // Enough changes that a bridge counting from zero again would pass the client's seq.
      await sendAndWait(h, 'a b c d e f g h i j k l m n o p q r s t u v w x y z');
      const again = await openEvents(
        second.url,
        second.auth({ 'Last-Event-ID': `${sync.snapshot.instanceId}.${sync.seq}` }),
      );
      try {
        const event = decode(await again.next())!;
        expect(event.kind).toBe('snapshot');
        expect(event.seq).toBeGreaterThan(sync.seq);
      } finally {
        again.close();
      }
    } finally {
      await second.stop();
    }
  });

  it('resuming where nothing changed sends a heartbeat, then nothing until the next change', async () => {
    const stream = await openEvents(h.url, h.auth());
    const sync = applied(null, decode(await stream.next())!);
    stream.close();
    const again = await openEvents(
      h.url,
      h.auth({ 'Last-Event-ID': `${sync.snapshot.instanceId}.${sync.seq}` }),
    );
    try {
      expect((await again.next()).event).toBe('heartbeat');
      await expect(again.next(200)).rejects.toThrow('timed out');
      await act(h, { action: 'updateSettings', settings: { systemPrompt: 'resume test' } });
      expect(decode(await again.next())?.kind).toBe('snapshot');
      await act(h, { action: 'send', text: 'after resume', ...guardOf(await getState(h)) });
    } finally {
      again.close();
    }
  });
});

describe('resuming after a freeze during a long reply in a long conversation', () => {
  const EXCHANGES = 240;
  const WORDS = 600;
  let h: TestHost;
  beforeAll(async () => {
    h = await startScriptedHost(2);
    await seedConversation(h.host, EXCHANGES);
  }, 60_000);
  afterAll(() => h.close(true));

  it('costs what was missed (<= 10 % of a snapshot), not a snapshot, and ends equal to the state', async () => {
    const kinds = ['phone', 'tab', 'frozen', 'words'] as const;
    const reply = Array.from({ length: WORDS }, (_, i) => `${kinds[i % 4]}${i}`).join(' ');
    const first = await openEvents(h.url, h.auth());
    const opening = await first.next();
    let sync = applied(null, decode(opening)!);
    await act(h, { action: 'send', text: `> ${reply}`, ...guardOf(sync.snapshot) });
    // The page freezes a few words into the reply: it holds that seq and hears nothing more.
    for (;;) {
      const next = decode(await first.next());
      if (next) sync = applied(sync, next);
      const last = sync.snapshot.conversations.messages.at(-1);
      if (last?.role === 'assistant' && last.text.split(' ').length > 3) break;
    }
    first.close();
    const final = await waitFor(async () => {
      const now = await getState(h);
      const last = now.conversations.messages.at(-1);
      return now.conversations.run.state === 'idle' && last?.status === 'complete' ? now : undefined;
    }, 20_000);
    expect(final.conversations.messages).toHaveLength(2 * EXCHANGES + 2);

    const fresh = await openEvents(h.url, h.auth());
    const snapshotBytes = (await fresh.next()).bytes;
    fresh.close();

    const resumed = await openEvents(
      h.url,
      h.auth({ 'Last-Event-ID': `${sync.snapshot.instanceId}.${sync.seq}` }),
    );
    let resumeBytes = 0;
    try {
      const seen: string[] = [];
      while (JSON.stringify(sync.snapshot, noMedia) !== JSON.stringify(final, noMedia)) {
        const frame = await resumed.next(2000);
        resumeBytes += frame.bytes;
        const event = decode(frame);
        if (!event) continue;
        seen.push(event.kind);
        sync = applied(sync, event);
      }
      expect(seen).not.toContain('snapshot');
      expect(sync.snapshot.conversations.messages.at(-1)?.text).toBe(reply);
    } finally {
      resumed.close();
    }
    expect(resumeBytes).toBeLessThanOrEqual(snapshotBytes * 0.1);
  });
});
