import {
  contract,
  DEFAULT_HEARTBEAT_MS,
  type EventFrames,
  formatLastEventId,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
} from '@webbridge/contract';
import { assertNever } from '../assertNever';
import type { WritableStore } from '../store';
import { type BackoffOptions, backoffDelay } from './backoffDelay';
import { EventStreamError } from './EventStreamError';
import { deadAfterMs, staleAfterMs } from './liveness';
import { readEventStream, type StreamItem } from './readEventStream';
import { browserWakeSources, type WakeSources, watchWake } from './watchWake';

/** Options of {@link connectEvents}. */
export interface ConnectEventsOptions {
  /** Origin (and optional path prefix) of the bridge, e.g. `http://192.168.1.20:7878`. */
  readonly baseUrl: string;
  /** The access code; read at every (re)connection. */
  readonly accessCode: () => string;
  /** The store the events are applied to. */
  readonly store: WritableStore;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /**
   * The heartbeat interval to assume until the server names its own (in the first event of
   * every stream, which the connection then follows); about two intervals of silence mean a
   * dead connection.
   * @default DEFAULT_HEARTBEAT_MS (15000)
   */
  readonly heartbeatMs?: number;
  /** Reconnection delays. */
  readonly backoff?: BackoffOptions;
  /**
   * A connection that stayed open this long resets the backoff.
   * @default 10000
   */
  readonly healthyAfterMs?: number;
  /**
   * After this many failed attempts in a row the status turns from `reconnecting` to `offline`.
   * @default 3
   */
  readonly offlineAfterFailures?: number;
  /** Called with unexpected failures (network errors, invalid frames), for logging. */
  readonly onError?: (error: unknown) => void;
  /** Source of randomness for the jitter. @default Math.random */
  readonly random?: () => number;
  /**
   * Where wake-up events come from (`visibilitychange`, `pageshow`, `online`, `focus`, the
   * lifecycle `resume`; `offline`); each makes the connection {@link EventConnection.check}
   * its stream. `false`: listen to nothing.
   * @default the page's window and document, when there are any
   */
  readonly wake?: WakeSources | false;
  /**
   * Whether the browser believes it has a network; when it does not, a stream that is not
   * live is reported `offline` rather than `reconnecting`.
   * @default () => navigator.onLine !== false
   */
  readonly online?: () => boolean;
}

/** A running subscription to the event stream. */
export interface EventConnection {
  /**
   * Checks the stream at once (the page woke up, the network came back): opens a fresh stream
   * that resumes with `Last-Event-ID`, keeps the old one until the new one speaks, then drops
   * it. Calls while a check is under way share it. Called by itself on wake-up events.
   */
  check(): void;
  /** Closes the stream and stops reconnecting; the status becomes `offline`. */
  close(): void;
  /** Settles when the connection has stopped for good (closed, 401, or another protocol). */
  readonly done: Promise<void>;
}

type Outcome =
  | { readonly kind: 'unauthorized' }
  | { readonly kind: 'reload' }
  | { readonly kind: 'failed' }
  | { readonly kind: 'ended' };

/** One request to GET /api/events. */
interface Stream {
  readonly controller: AbortController;
  /** When it was opened. */
  readonly startedAt: number;
  /** When it first spoke (became the connection's stream). */
  openedAt?: number;
  /** What it said while a fresh stream was being opened beside it (applied if that fails). */
  held: StreamItem[];
  stale?: ReturnType<typeof setTimeout>;
  dead?: ReturnType<typeof setTimeout>;
}

/** Wake events within this time of a check share it. */
const CHECK_DEBOUNCE_MS = 1_000;

/** Raised into the request's signal when a stream stays silent too long. */
class DeadConnectionError extends Error {
  override readonly name = 'DeadConnectionError';
}

/**
 * Subscribes to GET /api/events over fetch (EventSource cannot send `Authorization`) and keeps
 * `store` current: it asks for compact frames, sends `Last-Event-ID` with the last applied
 * seq, and reconnects with exponential backoff and full jitter.
 *
 * It knows whether the stream is alive: the status is `live` only while bytes arrive within
 * the heartbeat interval the server names plus a grace (`staleAfterMs`); then it becomes
 * `reconnecting` (or `offline` when the browser says so), with
 * {@link StoreState.lastCurrentAt}, and the stream is checked at once. A check (also on
 * every wake-up event: see {@link ConnectEventsOptions.wake}) opens a fresh stream that resumes
 * from the last applied seq; what the old stream says meanwhile is held back, and dropped with
 * it as soon as the new one speaks, so no frame is applied twice and every delta meets the
 * base it names. A stream silent for about two intervals is torn down.
 *
 * It stops on 401 (`unauthorized`) or {@link EventConnection.close}. When the reducer refuses
 * a delta, or a frame is invalid, the cursor is dropped and the next request goes without
 * `Last-Event-ID`, so the server starts over with a snapshot.
 *
 * @example
 * ```ts
 * const store = createStore();
 * const connection = connectEvents({ baseUrl, accessCode: () => code, store });
 * // later
 * connection.close();
 * ```
 */
export function connectEvents(options: ConnectEventsOptions): EventConnection {
  const { store } = options;
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  // The interval the last stream named: a resumed stream belongs to the same bridge.
  let heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const healthyAfterMs = options.healthyAfterMs ?? 10_000;
  const offlineAfter = options.offlineAfterFailures ?? 3;
  const isOnline = options.online ?? (() => globalThis.navigator?.onLine !== false);
  // The SDK reads every event type, so it takes appends without their event line.
  const frames: EventFrames = 'compact';
  const url = `${options.baseUrl.replace(/\/+$/, '')}${contract.events.path}?frames=${frames}`;
  let closed = false;
  /** The stream whose events are applied. */
  let active: Stream | undefined;
  /** A fresh stream that has not spoken yet. */
  let candidate: Stream | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let failures = 0;
  /** When the active stream last spoke. */
  let lastHeard: number | undefined;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });

  /** The status of a connection that is not live now. */
  const notLive = () => {
    if (closed) return;
    const status =
      !isOnline() || failures >= offlineAfter
        ? 'offline'
        : lastHeard === undefined && store.getState().sync === null
          ? 'connecting'
          : 'reconnecting';
    store.setStatus(status, lastHeard);
  };

  const clearTimers = (stream: Stream) => {
    clearTimeout(stream.stale);
    clearTimeout(stream.dead);
  };

  const drop = (stream: Stream | undefined) => {
    if (stream === undefined) return;
    clearTimers(stream);
    stream.held = [];
    stream.controller.abort();
  };

  const armDead = (stream: Stream, afterMs = deadAfterMs(heartbeatMs)) => {
    clearTimeout(stream.dead);
    stream.dead = setTimeout(
      () => stream.controller.abort(new DeadConnectionError('the stream stayed silent')),
      afterMs,
    );
  };

  /** The active stream spoke: the state is current. */
  const heard = (stream: Stream) => {
    lastHeard = Date.now();
    armDead(stream);
    clearTimeout(stream.stale);
    stream.stale = setTimeout(() => {
      if (stream !== active) return;
      notLive();
      check();
    }, staleAfterMs(heartbeatMs));
    if (store.getState().sync !== null) store.setStatus('live');
  };

  /** Applies one item of the active stream; false when the reducer refused it. */
  const apply = (stream: Stream, item: StreamItem): boolean => {
    switch (item.type) {
      case 'state':
        if (item.event.kind === 'snapshot' && item.event.heartbeatMs !== undefined) {
          heartbeatMs = item.event.heartbeatMs;
        }
        if (store.apply(item.event).kind === 'resync') return false;
        break;
      case 'heartbeat':
        heartbeatMs = item.event.heartbeatMs;
        break;
      case 'retry':
        // The server's hint is not used: the client's own backoff already spreads retries.
        break;
      default:
        assertNever(item, 'stream item');
    }
    heard(stream);
    return true;
  };

  /** A stream said something: false when it must stop reading. */
  const deliver = (stream: Stream, item: StreamItem): boolean => {
    if (closed) return false;
    if (stream === candidate) {
      // The fresh stream speaks: it replaces the old one, whose held items it covers.
      candidate = undefined;
      drop(active);
      active = stream;
      stream.openedAt = Date.now();
      failures = 0;
    }
    if (stream !== active) return false;
    if (candidate !== undefined) {
      stream.held.push(item);
      return true;
    }
    return apply(stream, item);
  };

  const read = async (stream: Stream): Promise<Outcome> => {
    const sync = store.getState().sync;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.accessCode()}`,
      Accept: 'text/event-stream',
    };
    // The instance id makes the seq unambiguous: seqs restart with every run of the host.
    if (sync !== null) headers['Last-Event-ID'] = formatLastEventId(sync.snapshot.instanceId, sync.seq);
    let answered = false;
    try {
      // A fresh stream speaks at once (a snapshot, or a heartbeat when resumed): one that
      // stays silent longer than a live stream may is given up sooner than a live one.
      armDead(stream, staleAfterMs(heartbeatMs));
      const response = await fetchFn(url, { headers, signal: stream.controller.signal });
      if (response.status === 401) return { kind: 'unauthorized' };
      const protocol = response.headers.get(PROTOCOL_HEADER);
      if (protocol !== null && protocol !== String(PROTOCOL_VERSION)) return { kind: 'reload' };
      if (!response.ok) return { kind: 'failed' };
      answered = true;
      for await (const item of readEventStream(response)) {
        if (!deliver(stream, item)) break;
      }
      return { kind: 'ended' };
    } catch (error) {
      const { signal } = stream.controller;
      // Dropped on purpose (closed, or replaced by a fresh stream): nothing went wrong.
      if (closed || (signal.aborted && !(signal.reason instanceof DeadConnectionError))) {
        return { kind: 'ended' };
      }
      if (error instanceof EventStreamError) {
        if (error.kind === 'protocol_mismatch') return { kind: 'reload' };
        store.dropSync();
      }
      options.onError?.(error);
      return answered ? { kind: 'ended' } : { kind: 'failed' };
    } finally {
      clearTimers(stream);
      // Releases the socket on every path, including an early return from the loop.
      stream.controller.abort();
    }
  };

  const stop = () => {
    closed = true;
    clearTimeout(retry);
    drop(active);
    drop(candidate);
    active = undefined;
    candidate = undefined;
    unwatch();
    finish();
  };

  const schedule = (delay: number) => {
    if (closed) return;
    clearTimeout(retry);
    retry = setTimeout(() => {
      retry = undefined;
      if (candidate === undefined) open();
    }, delay);
  };

  const settle = (stream: Stream, outcome: Outcome) => {
    if (closed) return;
    switch (outcome.kind) {
      case 'unauthorized':
        stop();
        store.setStatus('unauthorized', lastHeard);
        return;
      case 'reload':
        stop();
        store.requireReload();
        store.setStatus('offline', lastHeard);
        return;
      case 'failed':
      case 'ended':
        break;
      default:
        assertNever(outcome, 'connection outcome');
    }
    if (stream === candidate) {
      // It never spoke: the old stream, if any, goes on, with what it said meanwhile.
      candidate = undefined;
      if (outcome.kind === 'failed') failures++;
      const old = active;
      if (old !== undefined) {
        const held = old.held;
        old.held = [];
        for (const item of held) {
          if (!apply(old, item)) {
            old.controller.abort();
            break;
          }
        }
      }
      // The old stream still speaks: it is alive, and its own silence will trigger the next check.
      if (old !== undefined && active === old && store.getState().status === 'live') return;
      notLive();
      schedule(backoffDelay(attempt++, options.backoff, options.random));
      return;
    }
    if (stream !== active) return;
    active = undefined;
    if (stream.openedAt !== undefined && Date.now() - stream.openedAt >= healthyAfterMs) attempt = 0;
    notLive();
    if (candidate === undefined) schedule(backoffDelay(attempt++, options.backoff, options.random));
  };

  const open = () => {
    if (closed) return;
    clearTimeout(retry);
    retry = undefined;
    const stream: Stream = { controller: new AbortController(), held: [], startedAt: Date.now() };
    candidate = stream;
    void read(stream).then((outcome) => settle(stream, outcome));
  };

  function check(): void {
    if (closed) return;
    if (candidate !== undefined) {
      // Wake events come in bursts (visibilitychange, focus, pageshow…): they share one check.
      // A later one replaces a fresh stream still silent: it may sit on a socket of the network
      // that just went away.
      if (Date.now() - candidate.startedAt < CHECK_DEBOUNCE_MS) return;
      drop(candidate);
      candidate = undefined;
    }
    // Timers of a frozen page fire late: a stream that has been silent too long is not live,
    // whatever the timer says, until the fresh one speaks.
    if (lastHeard !== undefined && Date.now() - lastHeard > staleAfterMs(heartbeatMs)) notLive();
    open();
  }

  const wake = options.wake ?? browserWakeSources();
  const unwatch =
    wake === false
      ? () => undefined
      : watchWake(wake, {
          onWake: check,
          onOffline: () => {
            if (!isOnline()) notLive();
          },
        });

  store.setStatus(store.getState().sync === null ? 'connecting' : 'reconnecting');
  open();
  return {
    check,
    close() {
      if (closed) return;
      stop();
      store.setStatus('offline', lastHeard);
    },
    done,
  };
}
