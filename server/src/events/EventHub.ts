import type { Projection } from '@webbridge/contract';
import type { HostAdapter } from '../adapter';
import { FrameCache } from './FrameCache';

/** One connected browser, as the host may show it to its user. */
export interface ConnectionInfo {
  /** When the stream was opened (epoch milliseconds). */
  readonly openedAt: number;
  readonly remoteAddress: string;
  readonly userAgent: string;
}

/** How many recent projections are kept for resuming streams. */
const RESUME_HISTORY = 128;

/** One open event stream, as the hub knows it. */
export interface Subscription {
  /** The access code the stream was opened with (never logged). */
  readonly accessCode: string;
  /** Who is connected, for the host's "connected browsers" view. */
  readonly info: ConnectionInfo;
  /** Ends the stream; the client reconnects and starts over with a snapshot. */
  close(): void;
}

/**
 * Numbers the host's projections and wakes the per-subscriber producers when it changes.
 * It holds only the latest projection; each producer keeps what its own client last
 * received, so a slow client costs one reference, not a queue of updates.
 */
export class EventHub {
  private version = 0;
  private state: Projection;
  private waiters = new Set<() => void>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly unsubscribe: () => void;
  /** Frames and signatures shared by the subscribers. */
  readonly frames = new FrameCache();
  /** Recent projections by seq, so a reconnecting client can get only what it missed. */
  private readonly history = new Map<number, Projection>();

  constructor(
    private readonly host: HostAdapter,
    private readonly historySize = RESUME_HISTORY,
  ) {
    this.state = host.readState();
    this.history.set(0, this.state);
    this.unsubscribe = host.subscribe(() => {
      this.version++;
      this.state = this.host.readState();
      this.history.set(this.version, this.state);
      // Projections share their unchanged parts, so a version costs little beyond its
      // messages array; the oldest is forgotten first.
      if (this.history.size > this.historySize) this.history.delete(this.version - this.historySize);
      const waiters = this.waiters;
      this.waiters = new Set();
      for (const wake of waiters) wake();
    });
  }

  /** The projection at `seq`, while it is still remembered. */
  at(seq: number): Projection | undefined {
    return this.history.get(seq);
  }

  /** The latest projection and its sequence number. */
  latest(): { seq: number; state: Projection } {
    return { seq: this.version, state: this.state };
  }

  /**
   * Resolves `true` once the projection is newer than `seq`, or `false` after `timeoutMs`
   * or when `signal` aborts.
   */
  waitForChange(seq: number, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    if (this.version > seq) return Promise.resolve(true);
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (changed: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(wake);
        resolve(changed);
      };
      const wake = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(wake);
    });
  }

  add(subscription: Subscription): void {
    this.subscriptions.add(subscription);
  }

  remove(subscription: Subscription): void {
    this.subscriptions.delete(subscription);
  }

  /** Number of open streams. */
  get size(): number {
    return this.subscriptions.size;
  }

  /** The open streams, oldest first. */
  connections(): ConnectionInfo[] {
    return [...this.subscriptions].map((s) => s.info);
  }

  /** Closes the streams that `predicate` selects (all by default). */
  closeWhere(predicate: (s: Subscription) => boolean = () => true): void {
    for (const subscription of [...this.subscriptions]) {
      if (predicate(subscription)) subscription.close();
    }
  }

  /** Stops listening to the host and closes every stream. */
  dispose(): void {
    this.unsubscribe();
    this.closeWhere();
  }
}
