import {
  deltaEventSchema,
  heartbeatEventSchema,
  snapshotEventSchema,
  stateDataSchema,
} from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { openEvents } from '../support/sseClient';
import { startTestHost, type TestHost } from '../support/testHost';

describe('GET /api/events', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({ heartbeatMs: 150, echoDelayMs: 3 });
  });
  afterAll(() => h.close(true));

  it('starts with a snapshot whose id is its seq and which names the heartbeat interval', async () => {
    const stream = await openEvents(h.url, h.auth());
    try {
      expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
      const first = await stream.next();
      expect(first.event).toBe('state');
      const event = snapshotEventSchema.parse(JSON.parse(first.data));
      expect(first.id).toBe(String(event.seq));
      expect(event.heartbeatMs).toBe(150);
      expect(event.snapshot.instanceId).toBe((await getState(h)).instanceId);
    } finally {
      stream.close();
    }
  });

  /** Streams a reply and checks its frames; returns the append frames' framing bytes. */
  async function streamReply(query: string, appendEvent: 'state' | 'message'): Promise<number[]> {
    const stream = await openEvents(h.url, h.auth(), query);
    try {
      const snapshot = snapshotEventSchema.parse(JSON.parse((await stream.next()).data));
      const text = 'the quick brown fox jumps over the lazy dog again and again';
      await act(h, { action: 'send', text, ...guardOf(snapshot.snapshot) });
      let seq = snapshot.seq;
      let streamed = '';
      const appendFrameSizes: number[] = [];
      for (;;) {
        const frame = await stream.until((e) => e.event === 'state' || e.event === 'message');
        const data = stateDataSchema.parse(JSON.parse(frame.data));
        if (Array.isArray(data)) {
          expect(frame.event).toBe(appendEvent);
          const [base, piece] = data;
          expect(base).toBe(seq);
          seq = Number(frame.id);
          streamed += piece;
          // The helper counts an event line for every frame; a compact one has none.
          const eventLine = frame.event === 'message' ? 'event:message\n'.length : 0;
          appendFrameSizes.push(frame.bytes - eventLine - Buffer.byteLength(JSON.stringify(piece)));
          continue;
        }
        expect(frame.event).toBe('state');
        if (data.kind === 'snapshot') {
          seq = data.seq;
          continue;
        }
        expect(deltaEventSchema.parse(data).base).toBe(seq);
        expect(data.seq).toBeGreaterThan(seq);
        seq = data.seq;
        for (const [, , piece] of data.ap ?? []) streamed += piece;
        if (data.run?.state === 'idle') break;
      }
      expect(streamed).toBe(text);
      expect(appendFrameSizes.length).toBeGreaterThan(3);
      return appendFrameSizes;
    } finally {
      stream.close();
    }
  }

  it('streams a reply as `state` appends whose sum is the reply, each costing its word plus ~44 bytes', async () => {
    const sizes = await streamReply('', 'state');
    // A word costs its own bytes plus framing (event line, id, base, quotes), never the history.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(44);
  });

  it('with ?frames=compact, appends come without an event line: 12 bytes less each', async () => {
    const sizes = await streamReply('?frames=compact', 'message');
    expect(Math.max(...sizes)).toBeLessThanOrEqual(32);
  });

  it('refuses a frame form it does not know, or given twice (400 problem+json)', async () => {
    for (const query of ['?frames=loud', '?frames=compact&frames=named', '?frames=']) {
      const response = await fetch(`${h.url}/api/events${query}`, { headers: h.auth() });
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(await response.json()).toMatchObject({ code: 'invalid_request' });
    }
    const named = await openEvents(h.url, h.auth(), '?frames=named');
    expect(named.response.status).toBe(200);
    named.close();
  });

  it('sends a heartbeat naming the interval when idle for the heartbeat interval', async () => {
    const stream = await openEvents(h.url, h.auth());
    try {
      await stream.next();
      const started = Date.now();
      const beat = await stream.until((e) => e.event === 'heartbeat', 2000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
      const heartbeat = heartbeatEventSchema.parse(JSON.parse(beat.data));
      expect(heartbeat.t).toBeGreaterThan(0);
      expect(heartbeat.heartbeatMs).toBe(150);
    } finally {
      stream.close();
    }
  });

  it('every stream names its heartbeat interval in its first event: the snapshot, or a heartbeat when resumed', async () => {
    const fresh = await openEvents(h.url, h.auth());
    const first = snapshotEventSchema.parse(JSON.parse((await fresh.next()).data));
    fresh.close();
    expect(first.heartbeatMs).toBe(150);
    const resumed = await openEvents(
      h.url,
      h.auth({ 'Last-Event-ID': `${first.snapshot.instanceId}.${first.seq}` }),
    );
    try {
      const opening = await resumed.next(100);
      expect(opening.event).toBe('heartbeat');
      expect(heartbeatEventSchema.parse(JSON.parse(opening.data)).heartbeatMs).toBe(150);
    } finally {
      resumed.close();
    }
  });

  it('a configuration change (new conversation) arrives as a full snapshot', async () => {
    const stream = await openEvents(h.url, h.auth());
    try {
      const first = snapshotEventSchema.parse(JSON.parse((await stream.next()).data));
      const { conversationId } = await act(h, { action: 'newConversation' });
      const next = await stream.until((e) => e.event === 'state' && JSON.parse(e.data).kind === 'snapshot');
      const event = snapshotEventSchema.parse(JSON.parse(next.data));
      expect(event.signature).not.toBe(first.signature);
      expect(event.snapshot.conversationId).toBe(conversationId);
      expect(event.snapshot.sessionRevision).toBeGreaterThan(first.snapshot.sessionRevision);
    } finally {
      stream.close();
    }
  });

  it('200 streams opened and dropped leave no subscription behind', async () => {
    const streams = await Promise.all(Array.from({ length: 200 }, () => openEvents(h.url, h.auth())));
    await Promise.all(streams.map((s) => s.next()));
    expect(h.host.bridge.subscriberCount).toBeGreaterThanOrEqual(200);
    for (const s of streams) s.close();
    await waitFor(() => (h.host.bridge.subscriberCount === 0 ? true : undefined), 5000);
    expect(h.host.bridge.subscriberCount).toBe(0);
  });
});

describe('stopping the service', () => {
  it('closes every open stream and the listener promptly', async () => {
    const h = await startTestHost();
    const streams = await Promise.all(Array.from({ length: 5 }, () => openEvents(h.url, h.auth())));
    await Promise.all(streams.map((s) => s.next()));
    const started = Date.now();
    await h.close();
    await Promise.all(streams.map((s) => s.ended));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(h.host.bridge.subscriberCount).toBe(0);
    await expect(fetch(`${h.url}/api/locale`)).rejects.toThrow();
    await h.close(true);
  });
});

describe('restarting the host', () => {
  it('gets a new instanceId, refuses the old identity, and keeps the data', async () => {
    const first = await startTestHost();
    await act(first, {
      action: 'renameConversation',
      conversationId: (await getState(first)).conversationId,
      title: 'Kept',
    });
    const old = await getState(first);
    const stream = await openEvents(first.url, first.auth());
    await stream.next();
    await first.close();
    await stream.ended;

    const second = await startTestHost({ dataDir: first.dataDir });
    try {
      const now = await getState(second);
      expect(now.instanceId).not.toBe(old.instanceId);
      expect(now.conversations.list.find((c) => c.id === old.conversationId)?.title).toBe('Kept');
      const response = await fetch(`${second.url}/api/action`, {
        method: 'POST',
        headers: second.auth(),
        body: JSON.stringify({ action: 'send', text: 'stale', ...guardOf(old) }),
      });
      expect(response.status).toBe(409);
      const fresh = await openEvents(second.url, second.auth());
      const snap = snapshotEventSchema.parse(JSON.parse((await fresh.next()).data));
      expect(snap.snapshot.instanceId).toBe(now.instanceId);
      fresh.close();
    } finally {
      await second.close(true);
    }
  });
});
