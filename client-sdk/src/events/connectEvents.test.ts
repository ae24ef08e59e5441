import { DEFAULT_HEARTBEAT_MS } from '@webbridge/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../store';
import {
  frame,
  jsonResponse,
  type Responder,
  scriptedFetch,
  sseResponse,
  waitFor,
} from '../testing/fakeFetch';
import { delta, message, snapshot, snapshotEvent } from '../testing/fixtures';
import { backoffDelay } from './backoffDelay';
import { connectEvents } from './connectEvents';

const fast = { baseMs: 1, maxMs: 2 } as const;
const first = frame('state', snapshotEvent(5, snapshot([message('a', 'hi')])), 5);

function start(responders: Responder[], heartbeatMs = 10_000) {
  const { fetch, requests } = scriptedFetch(responders);
  const store = createStore();
  const statuses: string[] = [];
  store.subscribe((s, p) => {
    if (s.status !== p.status) statuses.push(s.status);
  });
  const connection = connectEvents({
    baseUrl: 'http://bridge.test/',
    accessCode: () => 'k7-plum',
    store,
    fetch,
    heartbeatMs,
    backoff: fast,
  });
  return { store, requests, connection, statuses };
}

describe('connectEvents', () => {
  it('authenticates with Bearer, goes live, and resumes with Last-Event-ID after a drop', async () => {
    const { store, requests, connection, statuses } = start([
      (r) => sseResponse([first, frame('state', delta(5, { ap: [['a', 2, '!']] }), 6)], r.signal),
      (r) => sseResponse([], r.signal, true),
    ]);
    await waitFor(() => requests.length === 2);
    expect(requests[0]?.url).toBe('http://bridge.test/api/events?frames=compact');
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer k7-plum');
    expect(requests[0]?.headers.has('last-event-id')).toBe(false);
    expect(requests[1]?.headers.get('last-event-id')).toBe('instance-1.6');
    expect(store.getState().snapshot?.conversations.messages[0]?.text).toBe('hi!');
    expect(statuses.slice(0, 2)).toEqual(['live', 'reconnecting']);
    connection.close();
    await connection.done;
    expect(requests[1]?.signal?.aborted).toBe(true);
    expect(store.getState().status).toBe('offline');
  });

  it('stops on 401 without retrying', async () => {
    const { store, requests, connection } = start([
      () => jsonResponse(401, { code: 'unauthorized' }, 'application/problem+json'),
    ]);
    await connection.done;
    expect(store.getState().status).toBe('unauthorized');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(requests).toHaveLength(1);
  });

  it('on a delta at the wrong base, drops the cursor and reconnects without Last-Event-ID', async () => {
    const { store, requests, connection } = start([
      (r) => sseResponse([first, frame('state', delta(4, { add: [message('b')] }), 6)], r.signal),
      (r) => sseResponse([], r.signal, true),
    ]);
    await waitFor(() => requests.length === 2);
    expect(requests[1]?.headers.has('last-event-id')).toBe(false);
    expect(store.getState().sync).toBeNull();
    // The last state stays on screen while the fresh snapshot is on its way.
    expect(store.getState().snapshot?.conversations.messages.map((m) => m.id)).toEqual(['a']);
    connection.close();
    await connection.done;
  });

  it('on an invalid frame, drops the cursor and reconnects for a snapshot', async () => {
    const { store, requests, connection } = start([
      (r) => sseResponse([first, frame('state', '{"kind":"delta"')], r.signal, true),
      (r) => sseResponse([], r.signal, true),
    ]);
    await waitFor(() => requests.length === 2);
    expect(requests[1]?.headers.has('last-event-id')).toBe(false);
    expect(store.getState().sync).toBeNull();
    connection.close();
    await connection.done;
  });

  it('stops claiming live after the interval plus a grace of silence, and checks with a fresh stream', async () => {
    const { requests, connection, statuses, store } = start(
      [(r) => sseResponse([first], r.signal, true)],
      40,
    );
    await waitFor(() => requests.length === 1 && store.getState().status === 'live');
    await waitFor(() => requests.length === 2);
    // 40 ms beats: the grace is half an interval, so 60 ms of silence after the last byte.
    const lastCurrentAt = store.getState().lastCurrentAt ?? Number.NaN;
    expect(Date.now() - lastCurrentAt).toBeGreaterThanOrEqual(59);
    expect(statuses).toContain('reconnecting');
    expect(requests[1]?.headers.get('last-event-id')).toBe('instance-1.5');
    // The fresh stream spoke (a snapshot): the old one is dropped.
    await waitFor(() => requests[0]?.signal?.aborted === true);
    connection.close();
    await connection.done;
  });

  it('heartbeats keep a quiet connection alive', async () => {
    const beats = Array.from({ length: 6 }, (_, i) => frame('heartbeat', { t: i, heartbeatMs: 40 }));
    const { requests, connection } = start(
      [
        (r) => {
          const body = sseResponse([first], r.signal, true);
          // Re-emit heartbeats on a timer through a new stream that tees the first one.
          const reader = body.body!.getReader();
          const encoder = new TextEncoder();
          let i = 0;
          const stream = new ReadableStream<Uint8Array>({
            async pull(controller) {
              if (i === 0) {
                const { value } = await reader.read();
                if (value) controller.enqueue(value);
              } else if (i <= beats.length) {
                await new Promise((resolve) => setTimeout(resolve, 25));
                controller.enqueue(encoder.encode(beats[i - 1]));
              } else {
                const { done } = await reader.read();
                if (done) controller.close();
              }
              i++;
            },
            cancel: () => reader.cancel(),
          });
          return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
        },
      ],
      40,
    );
    await new Promise((resolve) => setTimeout(resolve, 140));
    expect(requests).toHaveLength(1);
    connection.close();
    await connection.done;
  });

  it('reports offline after repeated failures and keeps retrying', async () => {
    const { store, requests, connection } = start([() => Promise.reject(new TypeError('fetch failed'))]);
    await waitFor(() => requests.length >= 4);
    expect(store.getState().status).toBe('offline');
    connection.close();
    await connection.done;
  });
});

/** A stream the test writes to as time passes; it errors when the client aborts it. */
function liveStream(signal: AbortSignal | undefined) {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  signal?.addEventListener('abort', () => controller?.error(signal.reason), { once: true });
  return {
    response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    push(text: string) {
      if (!signal?.aborted) controller?.enqueue(encoder.encode(text));
    },
  };
}

describe('the dead-connection timeout follows the interval the server names', () => {
  const interval = 45_000;
  const beat = () => frame('heartbeat', { t: Date.now(), heartbeatMs: interval });
  const named = frame(
    'state',
    { ...snapshotEvent(5, snapshot([message('a', 'hi')])), heartbeatMs: interval },
    5,
  );
  beforeEach(() => {
    // Timers and the clock only: streams and promises keep running for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Connects with the SDK's default expectation (15 s) to a server beating every 45 s. */
  function connectTo(first: string) {
    const streams: ReturnType<typeof liveStream>[] = [];
    const started = start(
      [
        (r) => {
          const stream = liveStream(r.signal);
          stream.push(first);
          streams.push(stream);
          return stream.response;
        },
      ],
      DEFAULT_HEARTBEAT_MS,
    );
    return { ...started, streams };
  }

  it('an idle stream beating every 45 s is kept for ten minutes', async () => {
    const { requests, connection, store, streams } = connectTo(named);
    for (let elapsed = 0; elapsed < 600_000; elapsed += interval) {
      await vi.advanceTimersByTimeAsync(interval);
      streams[0]?.push(beat());
    }
    expect(requests).toHaveLength(1);
    expect(store.getState().status).toBe('live');
    connection.close();
    await connection.done;
  });

  it('a resumed stream that opens with a heartbeat follows it too', async () => {
    const { requests, connection, streams } = connectTo(beat());
    for (let elapsed = 0; elapsed < 300_000; elapsed += interval) {
      await vi.advanceTimersByTimeAsync(interval);
      streams[0]?.push(beat());
    }
    expect(requests).toHaveLength(1);
    connection.close();
    await connection.done;
  });

  it('a stream silent for an interval plus 5 s is no longer live and is checked, not before', async () => {
    const { requests, connection, streams, statuses } = connectTo(named);
    await vi.advanceTimersByTimeAsync(interval);
    streams[0]?.push(beat());
    await vi.advanceTimersByTimeAsync(interval + 4_000);
    expect(requests).toHaveLength(1);
    expect(statuses).not.toContain('reconnecting');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(statuses).toContain('reconnecting');
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers.get('last-event-id')).toBe('instance-1.5');
    // The fresh stream opened with a snapshot: it replaced the silent one.
    expect(requests[0]?.signal?.aborted).toBe(true);
    connection.close();
    await connection.done;
  });
});

describe('backoffDelay', () => {
  it('is full jitter under an exponential ceiling capped at maxMs', () => {
    expect(backoffDelay(0, { baseMs: 100 }, () => 0.999)).toBe(99);
    expect(backoffDelay(3, { baseMs: 100 }, () => 0.5)).toBe(400);
    expect(backoffDelay(50, { baseMs: 100, maxMs: 5_000 }, () => 0.999)).toBe(4995);
    expect(backoffDelay(4, {}, () => 0)).toBe(0);
  });
});
