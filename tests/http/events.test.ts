import {
  appendFrameSchema,
  deltaEventSchema,
  heartbeatEventSchema,
  snapshotEventSchema,
  stateEventSchema,
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

  it('starts with a snapshot whose id is its seq', async () => {
    const stream = await openEvents(h.url, h.auth());
    try {
      expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
      const first = await stream.next();
      expect(first.event).toBe('state');
      const event = snapshotEventSchema.parse(JSON.parse(first.data));
      expect(first.id).toBe(String(event.seq));
      expect(event.snapshot.instanceId).toBe((await getState(h)).instanceId);
    } finally {
      stream.close();
    }
  });

  it('streams a reply as compact appends whose sum is the reply, each costing its word plus ~30 bytes', async () => {
    const stream = await openEvents(h.url, h.auth());
    try {
      const snapshot = snapshotEventSchema.parse(JSON.parse((await stream.next()).data));
      const text = 'the quick brown fox jumps over the lazy dog again and again';
      await act(h, { action: 'send', text, ...guardOf(snapshot.snapshot) });
      let seq = snapshot.seq;
      let streamed = '';
      const appendFrameSizes: number[] = [];
      for (;;) {
        const frame = await stream.until((e) => e.event === 'state' || e.event === 'message');
        if (frame.event === 'message') {
          const [base, piece] = appendFrameSchema.parse(JSON.parse(frame.data));
          expect(base).toBe(seq);
          seq = Number(frame.id);
          streamed += piece;
          appendFrameSizes.push(frame.bytes - Buffer.byteLength(JSON.stringify(piece)));
          continue;
        }
        const event = stateEventSchema.parse(JSON.parse(frame.data));
        if (event.kind === 'snapshot') {
          seq = event.seq;
          continue;
        }
        expect(deltaEventSchema.parse(event).base).toBe(seq);
        expect(event.seq).toBeGreaterThan(seq);
        seq = event.seq;
        for (const [, , piece] of event.ap ?? []) streamed += piece;
        if (event.run?.state === 'idle') break;
      }
      expect(streamed).toBe(text);
      expect(appendFrameSizes.length).toBeGreaterThan(3);
      // A word costs its own bytes plus framing (id, base, quotes), never the history.
      expect(Math.max(...appendFrameSizes)).toBeLessThanOrEqual(32);
    } finally {
      stream.close();
    }
  });

  it('sends a heartbeat when idle for the heartbeat interval', async () => {
    const stream = await openEvents(h.url, h.auth());
    try {
      await stream.next();
      const started = Date.now();
      const beat = await stream.until((e) => e.event === 'heartbeat', 2000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
      expect(heartbeatEventSchema.parse(JSON.parse(beat.data)).t).toBeGreaterThan(0);
    } finally {
      stream.close();
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
