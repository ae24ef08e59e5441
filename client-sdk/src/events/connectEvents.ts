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
import { readEventStream } from './readEventStream';

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
}

/** A running subscription to the event stream. */
export interface EventConnection {
  /** Closes the stream and stops reconnecting; the status becomes `offline`. */
  close(): void;
  /** Settles when the connection has stopped for good (closed, 401, or another protocol). */
  readonly done: Promise<void>;
}

type Outcome =
  | { readonly kind: 'unauthorized' }
  | { readonly kind: 'reload' }
  | { readonly kind: 'failed' }
  | { readonly kind: 'ended'; readonly healthy: boolean };

/** Raised into the request's signal when two heartbeat intervals pass in silence. */
class DeadConnectionError extends Error {
  override readonly name = 'DeadConnectionError';
}

/** The longest delay a timer takes; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * How long a stream with heartbeat interval `heartbeatMs` may stay silent: two intervals, plus
 * slack for a late server timer and the network (a quarter interval, at most 5 s), so a beat
 * that arrives just after its second interval does not tear down a healthy stream.
 */
function deadAfterMs(heartbeatMs: number): number {
  return Math.min(MAX_TIMER_MS, 2 * heartbeatMs + Math.min(heartbeatMs / 4, 5_000));
}

/**
 * Subscribes to GET /api/events over fetch (EventSource cannot send `Authorization`) and keeps
 * `store` current: it asks for compact frames, sends `Last-Event-ID` with the last applied
 * seq, reconnects with exponential backoff and full jitter, treats about two heartbeat
 * intervals of silence (the interval the server names) as a dead connection, and stops on
 * 401 (`unauthorized`) or {@link EventConnection.close}. When the
 * reducer refuses a delta, or a frame is invalid, the cursor is dropped and the next request
 * goes without `Last-Event-ID`, so the server starts over with a snapshot.
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
  // The SDK reads every event type, so it takes appends without their event line.
  const frames: EventFrames = 'compact';
  const url = `${options.baseUrl.replace(/\/+$/, '')}${contract.events.path}?frames=${frames}`;
  let closed = false;
  let current: AbortController | undefined;
  let wake: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = undefined;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });

  const connectOnce = async (): Promise<Outcome> => {
    const controller = new AbortController();
    current = controller;
    const sync = store.getState().sync;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.accessCode()}`,
      Accept: 'text/event-stream',
    };
    // The instance id makes the seq unambiguous: seqs restart with every run of the host.
    if (sync !== null) headers['Last-Event-ID'] = formatLastEventId(sync.snapshot.instanceId, sync.seq);
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(
        () => controller.abort(new DeadConnectionError('no event for two heartbeats')),
        deadAfterMs(heartbeatMs),
      );
    };
    let openedAt: number | undefined;
    const healthy = () => openedAt !== undefined && Date.now() - openedAt >= healthyAfterMs;
    try {
      arm();
      const response = await fetchFn(url, { headers, signal: controller.signal });
      if (response.status === 401) return { kind: 'unauthorized' };
      const protocol = response.headers.get(PROTOCOL_HEADER);
      if (protocol !== null && protocol !== String(PROTOCOL_VERSION)) return { kind: 'reload' };
      if (!response.ok) return { kind: 'failed' };
      openedAt = Date.now();
      if (sync !== null) store.setStatus('live');
      for await (const item of readEventStream(response)) {
        switch (item.type) {
          case 'state':
            if (item.event.kind === 'snapshot' && item.event.heartbeatMs !== undefined) {
              heartbeatMs = item.event.heartbeatMs;
            }
            arm();
            if (store.apply(item.event).kind === 'resync') return { kind: 'ended', healthy: healthy() };
            store.setStatus('live');
            break;
          case 'heartbeat':
            heartbeatMs = item.event.heartbeatMs;
            arm();
            if (store.getState().sync !== null) store.setStatus('live');
            break;
          case 'retry':
            // The server's hint is not used: the client's own backoff already spreads retries.
            arm();
            break;
          default:
            assertNever(item, 'stream item');
        }
      }
      return { kind: 'ended', healthy: healthy() };
    } catch (error) {
      if (closed) return { kind: 'ended', healthy: false };
      if (error instanceof EventStreamError) {
        if (error.kind === 'protocol_mismatch') return { kind: 'reload' };
        store.dropSync();
      }
      options.onError?.(error);
      return openedAt === undefined ? { kind: 'failed' } : { kind: 'ended', healthy: healthy() };
    } finally {
      clearTimeout(watchdog);
      // Releases the socket on every path, including an early return from the loop.
      controller.abort();
    }
  };

  const run = async (): Promise<void> => {
    let attempt = 0;
    let failures = 0;
    while (!closed) {
      const outcome = await connectOnce();
      if (closed) break;
      switch (outcome.kind) {
        case 'unauthorized':
          store.setStatus('unauthorized');
          return;
        case 'reload':
          store.requireReload();
          store.setStatus('offline');
          return;
        case 'failed':
          failures++;
          break;
        case 'ended':
          failures = 0;
          if (outcome.healthy) attempt = 0;
          break;
        default:
          assertNever(outcome, 'connection outcome');
      }
      store.setStatus(failures >= offlineAfter ? 'offline' : 'reconnecting');
      await sleep(backoffDelay(attempt++, options.backoff, options.random));
    }
    store.setStatus('offline');
  };

  store.setStatus(store.getState().sync === null ? 'connecting' : 'reconnecting');
  const done = run();
  return {
    close() {
      if (closed) return;
      closed = true;
      current?.abort();
      wake?.();
    },
    done,
  };
}
