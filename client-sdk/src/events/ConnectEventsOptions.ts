import type { WritableStore } from '../store';
import type { BackoffOptions } from './backoffDelay';
import type { WakeSources } from './watchWake';

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
