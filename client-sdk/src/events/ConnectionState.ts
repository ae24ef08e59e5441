import type { ConnectionStatus } from '../store';
import type { StreamItem } from './readEventStream';

/** Wake events within this time of a check share it. */
export const CHECK_DEBOUNCE_MS = 1_000;

/** The settings of one connection, fixed when it starts. */
export interface ConnectionConfig {
  /** A stream that stayed open this long resets the backoff. */
  readonly healthyAfterMs: number;
  /** After this many failed attempts in a row the status is `offline`. */
  readonly offlineAfterFailures: number;
}

/** The stream whose items are applied. */
interface ActiveStream {
  readonly stream: number;
  /** When it first spoke (became the connection's stream). */
  readonly openedAt: number;
  /** What it said while a fresh stream was opening beside it (applied if that one fails). */
  readonly held: readonly StreamItem[];
}

/**
 * Where a connection to the event stream is. Streams are named by a number the state hands
 * out; the driver ({@link connectEvents}) keeps their requests and timers under that number.
 */
export interface ConnectionState {
  readonly config: ConnectionConfig;
  /** Closed, refused (401) or another protocol: nothing more happens. */
  readonly stopped: boolean;
  /** The stream whose items are applied, and what it said while a fresh one was opening. */
  readonly active: ActiveStream | undefined;
  /** A fresh stream that has not spoken yet, and when it was opened. */
  readonly candidate: { readonly stream: number; readonly startedAt: number } | undefined;
  /** The active stream's held items are being applied after its candidate failed. */
  readonly replaying: boolean;
  /** A reconnection is scheduled. */
  readonly retrying: boolean;
  /** Reconnection attempts since the last healthy stream (the backoff's exponent). */
  readonly attempt: number;
  /** Failed attempts in a row. */
  readonly failures: number;
  /** When the active stream last spoke. */
  readonly lastHeard: number | undefined;
  /** The heartbeat interval the server last named (or the one assumed until it does). */
  readonly heartbeatMs: number;
  /** The status last given to the store. */
  readonly status: ConnectionStatus | undefined;
  /** The number of the next stream. */
  readonly nextStream: number;
}

/** How a request to the stream ended. */
export type StreamOutcome = 'unauthorized' | 'reload' | 'failed' | 'ended';

/** What happened. */
export type ConnectionEvent =
  /** The connection starts. */
  | { readonly kind: 'start' }
  /** A stream said something. */
  | { readonly kind: 'item'; readonly stream: number; readonly item: StreamItem }
  /**
   * The store took `taken` of the items of an `apply` (in order), and refused the next one
   * when `refused`; `synced`: it held a state after the items it took.
   */
  | {
      readonly kind: 'applied';
      readonly stream: number;
      readonly taken: readonly StreamItem[];
      readonly refused: boolean;
      readonly synced: boolean;
    }
  /** A stream's request is over. */
  | { readonly kind: 'settled'; readonly stream: number; readonly outcome: StreamOutcome }
  /** A stream's timer fired: `stale` (not live any more) or `dead` (give it up). */
  | { readonly kind: 'timer'; readonly stream: number; readonly timer: 'stale' | 'dead' }
  /** The backoff is over. */
  | { readonly kind: 'retry' }
  /** Check the stream now (a wake-up event, or {@link EventConnection.check}). */
  | { readonly kind: 'check' }
  /** The browser says the network is gone. */
  | { readonly kind: 'offline' }
  /** {@link EventConnection.close}. */
  | { readonly kind: 'close' };

/** What the driver does, in order. */
export type ConnectionEffect =
  /** Send GET /api/events for `stream`, resuming from the store's cursor. */
  | { readonly kind: 'open'; readonly stream: number }
  /** Stop `stream`'s timers and abort its request (`dead`: it stayed silent too long). */
  | { readonly kind: 'drop'; readonly stream: number; readonly dead?: true }
  /** (Re)arm one of `stream`'s timers. */
  | { readonly kind: 'timer'; readonly stream: number; readonly timer: 'stale' | 'dead'; readonly ms: number }
  /** Give the items to the store in order, up to the first it refuses; answer `applied`. */
  | { readonly kind: 'apply'; readonly stream: number; readonly items: readonly StreamItem[] }
  /** Set the store's status (and `lastCurrentAt`, when given). */
  | { readonly kind: 'status'; readonly status: ConnectionStatus; readonly lastCurrentAt?: number }
  /** (Re)schedule a `retry` after the backoff delay of `attempt`. */
  | { readonly kind: 'schedule'; readonly attempt: number }
  /** Forget the scheduled `retry`. */
  | { readonly kind: 'unschedule' }
  /** Mark the store: the page must be reloaded. */
  | { readonly kind: 'reload' }
  /** Stop listening for wake-ups and settle `done`. */
  | { readonly kind: 'stopped' };

/** What the driver knows at the moment of an event. */
export interface ConnectionFacts {
  readonly now: number;
  /** Whether the browser believes it has a network. */
  readonly online: boolean;
  /** Whether the store holds a state the stream can resume from. */
  readonly synced: boolean;
}

/** The outcome of {@link nextConnection}. */
export interface ConnectionStep {
  readonly state: ConnectionState;
  readonly effects: readonly ConnectionEffect[];
}

/** A connection that has not started, assuming `heartbeatMs` until the server names its own. */
export function initialConnection(config: ConnectionConfig, heartbeatMs: number): ConnectionState {
  return {
    config,
    stopped: false,
    active: undefined,
    candidate: undefined,
    replaying: false,
    retrying: false,
    attempt: 0,
    failures: 0,
    lastHeard: undefined,
    heartbeatMs,
    status: undefined,
    nextStream: 0,
  };
}
