import {
  contract,
  DEFAULT_HEARTBEAT_MS,
  type EventFrames,
  formatLastEventId,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
} from '@webbridge/contract';
import { assertNever } from '../assertNever';
import { backoffDelay } from './backoffDelay';
import type { ConnectEventsOptions, EventConnection } from './ConnectEventsOptions';
import {
  type ConnectionEffect,
  type ConnectionEvent,
  initialConnection,
  type StreamOutcome,
} from './ConnectionState';
import { EventStreamError } from './EventStreamError';
import { nextConnection } from './nextConnection';
import { readEventStream, type StreamItem } from './readEventStream';
import { browserWakeSources, watchWake } from './watchWake';

/** Raised into the request's signal when a stream stays silent too long. */
class DeadConnectionError extends Error {
  override readonly name = 'DeadConnectionError';
}

/** One request to GET /api/events, and its timers. */
interface StreamRequest {
  readonly controller: AbortController;
  stale?: ReturnType<typeof setTimeout>;
  dead?: ReturnType<typeof setTimeout>;
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
 * Every decision is {@link nextConnection}'s, a pure function; this one owns the requests,
 * their timers, the store and the wake listeners, and performs the effects it is given.
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
  const isOnline = options.online ?? (() => globalThis.navigator?.onLine !== false);
  // The SDK reads every event type, so it takes appends without their event line.
  const frames: EventFrames = 'compact';
  const url = `${options.baseUrl.replace(/\/+$/, '')}${contract.events.path}?frames=${frames}`;
  let state = initialConnection(
    {
      healthyAfterMs: options.healthyAfterMs ?? 10_000,
      offlineAfterFailures: options.offlineAfterFailures ?? 3,
    },
    options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
  );
  const requests = new Map<number, StreamRequest>();
  let retry: ReturnType<typeof setTimeout> | undefined;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });

  // Events raised while effects run (a store listener that checks, an `applied` answer) wait
  // for the step in progress to finish: each step sees the state the one before left.
  const queue: ConnectionEvent[] = [];
  let stepping = false;
  const dispatch = (event: ConnectionEvent) => {
    queue.push(event);
    if (stepping) return;
    stepping = true;
    try {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const facts = { now: Date.now(), online: isOnline(), synced: store.getState().sync !== null };
        const step = nextConnection(state, next, facts);
        state = step.state;
        for (const effect of step.effects) perform(effect);
      }
    } finally {
      stepping = false;
    }
  };

  const perform = (effect: ConnectionEffect): void => {
    switch (effect.kind) {
      case 'open':
        open(effect.stream);
        return;
      case 'drop': {
        const request = requests.get(effect.stream);
        if (request === undefined) return;
        clearTimers(request);
        request.controller.abort(
          effect.dead ? new DeadConnectionError('the stream stayed silent') : undefined,
        );
        return;
      }
      case 'timer': {
        const request = requests.get(effect.stream);
        if (request === undefined) return;
        const { stream, timer } = effect;
        clearTimeout(request[timer]);
        request[timer] = setTimeout(() => dispatch({ kind: 'timer', stream, timer }), effect.ms);
        return;
      }
      case 'apply':
        apply(effect.stream, effect.items);
        return;
      case 'status':
        store.setStatus(effect.status, effect.lastCurrentAt);
        return;
      case 'schedule':
        clearTimeout(retry);
        retry = setTimeout(
          () => {
            retry = undefined;
            dispatch({ kind: 'retry' });
          },
          backoffDelay(effect.attempt, options.backoff, options.random),
        );
        return;
      case 'unschedule':
        clearTimeout(retry);
        retry = undefined;
        return;
      case 'reload':
        store.requireReload();
        return;
      case 'stopped':
        unwatch();
        finish();
        return;
      default:
        assertNever(effect, 'connection effect');
    }
  };

  /** Gives items to the store, up to the first it refuses, and says how it went. */
  const apply = (stream: number, items: readonly StreamItem[]) => {
    let synced = store.getState().sync !== null;
    let taken = 0;
    for (const item of items) {
      if (item.type === 'state' && store.apply(item.event).kind === 'resync') break;
      synced = store.getState().sync !== null;
      taken++;
    }
    const refused = taken < items.length;
    dispatch({ kind: 'applied', stream, taken: refused ? items.slice(0, taken) : items, refused, synced });
  };

  const open = (stream: number) => {
    const request: StreamRequest = { controller: new AbortController() };
    requests.set(stream, request);
    void read(stream, request).then((outcome) => {
      requests.delete(stream);
      dispatch({ kind: 'settled', stream, outcome });
    });
  };

  const read = async (stream: number, request: StreamRequest): Promise<StreamOutcome> => {
    const { signal } = request.controller;
    const sync = store.getState().sync;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.accessCode()}`,
      Accept: 'text/event-stream',
    };
    // The instance id makes the seq unambiguous: seqs restart with every run of the host.
    if (sync !== null) headers['Last-Event-ID'] = formatLastEventId(sync.snapshot.instanceId, sync.seq);
    let answered = false;
    try {
      const response = await fetchFn(url, { headers, signal });
      if (response.status === 401) return 'unauthorized';
      const protocol = response.headers.get(PROTOCOL_HEADER);
      if (protocol !== null && protocol !== String(PROTOCOL_VERSION)) return 'reload';
      if (!response.ok) return 'failed';
      answered = true;
      for await (const item of readEventStream(response)) {
        dispatch({ kind: 'item', stream, item });
        // Dropped while it spoke (replaced, refused, closed): not a byte more is read.
        if (signal.aborted) break;
      }
      return 'ended';
    } catch (error) {
      // Dropped on purpose (closed, or replaced by a fresh stream): nothing went wrong.
      if (state.stopped || (signal.aborted && !(signal.reason instanceof DeadConnectionError)))
        return 'ended';
      if (error instanceof EventStreamError) {
        if (error.kind === 'protocol_mismatch') return 'reload';
        store.dropSync();
      }
      options.onError?.(error);
      return answered ? 'ended' : 'failed';
    } finally {
      clearTimers(request);
      // Releases the socket on every path, including an early return from the loop.
      request.controller.abort();
    }
  };

  const wake = options.wake ?? browserWakeSources();
  const unwatch =
    wake === false
      ? () => undefined
      : watchWake(wake, {
          onWake: () => dispatch({ kind: 'check' }),
          onOffline: () => dispatch({ kind: 'offline' }),
        });

  dispatch({ kind: 'start' });
  return {
    check: () => dispatch({ kind: 'check' }),
    close: () => dispatch({ kind: 'close' }),
    done,
  };
}

function clearTimers(request: StreamRequest): void {
  clearTimeout(request.stale);
  clearTimeout(request.dead);
}
