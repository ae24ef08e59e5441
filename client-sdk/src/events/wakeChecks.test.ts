import type { DeltaEvent } from '@webbridge/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../store';
import { frame, type RecordedRequest, scriptedFetch, waitFor } from '../testing/fakeFetch';
import { message, snapshot, snapshotEvent } from '../testing/fixtures';
import { connectEvents } from './connectEvents';

/** A stream the test writes to; it errors when the client aborts it. */
interface FakeStream {
  readonly request: RecordedRequest;
  push(text: string): void;
  readonly aborted: () => boolean;
}

const heartbeatMs = 3_000;
const first = frame('state', { ...snapshotEvent(5, snapshot([message('a', 'hi')])), heartbeatMs }, 5);
const beat = frame('heartbeat', { t: 1, heartbeatMs });
/** A delta from `base` appending `text` to message `a` (at `offset`). */
const append = (base: number, offset: number, text: string, seq = base + 1) =>
  frame('state', { kind: 'delta', seq, base, ap: [['a', offset, text]] } satisfies DeltaEvent, seq);

/** A page's window and document, as event targets the test fires events on. */
function fakePage() {
  const document = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  const window = new EventTarget();
  return { window, document };
}

/**
 * Connects through a fetch whose every stream the test drives. `fail` makes the n-th request
 * (0-based) fail with a network error instead.
 */
function connect(fail: ReadonlySet<number> = new Set(), online = () => true) {
  const streams: FakeStream[] = [];
  const encoder = new TextEncoder();
  const { fetch, requests } = scriptedFetch([
    (request) => {
      if (fail.has(requests.length - 1)) return Promise.reject(new TypeError('fetch failed'));
      let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
      request.signal?.addEventListener('abort', () => controller?.error(request.signal?.reason), {
        once: true,
      });
      streams.push({
        request,
        push: (text) => {
          if (!request.signal?.aborted) controller?.enqueue(encoder.encode(text));
        },
        aborted: () => request.signal?.aborted === true,
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    },
  ]);
  const store = createStore();
  const page = fakePage();
  const applied: string[] = [];
  store.subscribe((s, p) => {
    if (s.sync !== p.sync && s.sync !== null) applied.push(`${s.sync.seq}`);
  });
  const connection = connectEvents({
    baseUrl: 'http://bridge.test',
    accessCode: () => 'k7-plum',
    store,
    fetch,
    heartbeatMs,
    backoff: { baseMs: 1, maxMs: 2 },
    wake: page,
    online,
  });
  const text = () => store.getState().snapshot?.conversations.messages[0]?.text;
  return { store, requests, streams, connection, page, applied, text };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('wake checks', () => {
  it('on becoming visible, opens a fresh stream resuming from the last seq and drops the old one once it speaks', async () => {
    const { requests, streams, connection, page, store, text } = connect();
    await waitFor(() => streams.length === 1);
    streams[0]?.push(first);
    streams[0]?.push(append(5, 2, ' there'));
    await waitFor(() => store.getState().sync?.seq === 6);

    page.document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => streams.length === 2);
    expect(requests[1]?.headers.get('last-event-id')).toBe('instance-1.6');
    // Until the new stream speaks, the old one is kept.
    expect(streams[0]?.aborted()).toBe(false);
    streams[1]?.push(beat);
    await waitFor(() => streams[0]?.aborted() === true);
    streams[1]?.push(append(6, 8, '!'));
    await waitFor(() => text() === 'hi there!');
    expect(store.getState().status).toBe('live');
    connection.close();
    await connection.done;
  });

  it('several wake events at once open one stream', async () => {
    const { streams, connection, page, store } = connect();
    await waitFor(() => streams.length === 1);
    streams[0]?.push(first);
    await waitFor(() => store.getState().status === 'live');
    page.document.dispatchEvent(new Event('visibilitychange'));
    page.window.dispatchEvent(new Event('pageshow'));
    page.window.dispatchEvent(new Event('focus'));
    page.window.dispatchEvent(new Event('online'));
    page.document.dispatchEvent(new Event('resume'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(streams).toHaveLength(2);
    connection.close();
    await connection.done;
  });

  it('a hidden page does not check; each later wake after the last check opens one more', async () => {
    const { streams, connection, page, store } = connect();
    await waitFor(() => streams.length === 1);
    streams[0]?.push(first);
    await waitFor(() => store.getState().status === 'live');
    page.document.visibilityState = 'hidden';
    page.document.dispatchEvent(new Event('visibilitychange'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(streams).toHaveLength(1);
    page.window.dispatchEvent(new Event('focus'));
    await waitFor(() => streams.length === 2);
    streams[1]?.push(beat);
    await waitFor(() => streams[0]?.aborted() === true);
    page.window.dispatchEvent(new Event('pageshow'));
    await waitFor(() => streams.length === 3);
    connection.close();
    await connection.done;
  });

  it('applies no frame twice: what the old stream says while the new one opens is held, then dropped', async () => {
    const { streams, connection, page, store, applied, text } = connect();
    await waitFor(() => streams.length === 1);
    streams[0]?.push(first);
    await waitFor(() => store.getState().sync?.seq === 5);
    page.window.dispatchEvent(new Event('pageshow'));
    await waitFor(() => streams.length === 2);
    expect(streams[1]?.request.headers.get('last-event-id')).toBe('instance-1.5');
    // The old socket still delivers (the page was frozen with bytes in its buffer).
    streams[0]?.push(append(5, 2, ' one'));
    streams[0]?.push(append(6, 6, ' two'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(text()).toBe('hi');
    // The new stream covers the same change from seq 5, as one delta.
    streams[1]?.push(beat);
    streams[1]?.push(append(5, 2, ' one two', 7));
    await waitFor(() => text() === 'hi one two');
    streams[0]?.push(append(7, 10, ' late'));
    streams[1]?.push(append(7, 10, ' three'));
    await waitFor(() => text() === 'hi one two three');
    expect(applied).toEqual(['5', '7', '8']);
    expect(store.getState().sync).not.toBeNull();
    connection.close();
    await connection.done;
  });

  it('when the fresh stream cannot connect, the old one goes on with what it said meanwhile', async () => {
    const { streams, connection, page, store, text, requests } = connect(new Set([1]));
    await waitFor(() => streams.length === 1);
    streams[0]?.push(first);
    await waitFor(() => store.getState().sync?.seq === 5);
    page.window.dispatchEvent(new Event('online'));
    streams[0]?.push(append(5, 2, ' held'));
    await waitFor(() => requests.length >= 2);
    await waitFor(() => text() === 'hi held');
    expect(streams[0]?.aborted()).toBe(false);
    // The old stream proved alive: no retry loop beside it.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(requests).toHaveLength(2);
    expect(store.getState().status).toBe('live');
    connection.close();
    await connection.done;
  });
});

describe('a fresh stream that stays silent', () => {
  it('is replaced by a wake a second or more later (it may sit on a socket of the lost network)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { streams, connection, page, store } = connect();
    await waitFor(() => streams.length === 1);
    streams[0]?.push(first);
    await waitFor(() => store.getState().status === 'live');
    page.window.dispatchEvent(new Event('focus'));
    await waitFor(() => streams.length === 2);
    vi.setSystemTime(Date.now() + 1_500);
    page.window.dispatchEvent(new Event('online'));
    await waitFor(() => streams.length === 3);
    expect(streams[1]?.aborted()).toBe(true);
    expect(streams[0]?.aborted()).toBe(false);
    streams[2]?.push(beat);
    await waitFor(() => streams[0]?.aborted() === true);
    connection.close();
    await connection.done;
  });

  it('is given up after an interval plus the grace, and another is tried', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { streams, connection, store } = connect();
    await vi.advanceTimersByTimeAsync(1);
    streams[0]?.push(first);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState().status).toBe('live');
    // Silent: after 4.5 s a check opens a fresh stream, which stays silent too.
    await vi.advanceTimersByTimeAsync(4_600);
    expect(streams).toHaveLength(2);
    expect(store.getState().status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(4_600);
    expect(streams[1]?.aborted()).toBe(true);
    expect(streams.length).toBeGreaterThanOrEqual(3);
    connection.close();
    await connection.done;
  });
});

describe('liveness', () => {
  it('a silent stream is "reconnecting" after heartbeat + grace, with the time it was last current', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { streams, connection, store } = connect();
    await vi.advanceTimersByTimeAsync(1);
    streams[0]?.push(first);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState().status).toBe('live');
    const heardAt = Date.now();
    await vi.advanceTimersByTimeAsync(heartbeatMs);
    streams[0]?.push(beat);
    await vi.advanceTimersByTimeAsync(1);
    const lastBeat = Date.now();
    // 3 s beats: half an interval of grace, so 4.5 s after the last byte.
    await vi.advanceTimersByTimeAsync(4_400);
    expect(store.getState().status).toBe('live');
    await vi.advanceTimersByTimeAsync(200);
    expect(store.getState().status).toBe('reconnecting');
    // The beat was read within the millisecond the test let pass after pushing it.
    expect(store.getState().lastCurrentAt).toBeGreaterThanOrEqual(lastBeat - 1);
    expect(store.getState().lastCurrentAt).toBeLessThanOrEqual(lastBeat);
    expect(lastBeat).toBeGreaterThan(heardAt);
    connection.close();
    await connection.done;
  });

  it('is "offline" when the browser says so', async () => {
    let online = true;
    const { streams, connection, store, page } = connect(new Set(), () => online);
    await waitFor(() => streams.length === 1);
    streams[0]?.push(first);
    await waitFor(() => store.getState().status === 'live');
    online = false;
    page.window.dispatchEvent(new Event('offline'));
    expect(store.getState().status).toBe('offline');
    expect(store.getState().lastCurrentAt).not.toBeNull();
    connection.close();
    await connection.done;
  });

  it('a page woken long after its last byte is not live until the fresh stream speaks', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { streams, connection, store, page } = connect();
    await waitFor(() => streams.length === 1);
    streams[0]?.push(first);
    await waitFor(() => store.getState().status === 'live');
    // A frozen page: the clock moved on, its timers did not run.
    vi.setSystemTime(Date.now() + 20_000);
    page.document.dispatchEvent(new Event('resume'));
    expect(store.getState().status).toBe('reconnecting');
    await waitFor(() => streams.length === 2);
    streams[1]?.push(beat);
    await waitFor(() => store.getState().status === 'live');
    connection.close();
    await connection.done;
  });
});
