import { describe, expect, it } from 'vitest';
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
    expect(requests[0]?.url).toBe('http://bridge.test/api/events');
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

  it('treats two heartbeat intervals of silence as a dead connection', async () => {
    const { requests, connection } = start([(r) => sseResponse([first], r.signal, true)], 40);
    await waitFor(() => requests.length === 1);
    const opened = Date.now();
    await waitFor(() => requests.length === 2);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(70);
    expect(requests[0]?.signal?.aborted).toBe(true);
    expect(requests[1]?.headers.get('last-event-id')).toBe('instance-1.5');
    connection.close();
    await connection.done;
  });

  it('heartbeats keep a quiet connection alive', async () => {
    const beats = Array.from({ length: 6 }, (_, i) => frame('heartbeat', { t: i }));
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

describe('backoffDelay', () => {
  it('is full jitter under an exponential ceiling capped at maxMs', () => {
    expect(backoffDelay(0, { baseMs: 100 }, () => 0.999)).toBe(99);
    expect(backoffDelay(3, { baseMs: 100 }, () => 0.5)).toBe(400);
    expect(backoffDelay(50, { baseMs: 100, maxMs: 5_000 }, () => 0.999)).toBe(4995);
    expect(backoffDelay(4, {}, () => 0)).toBe(0);
  });
});
