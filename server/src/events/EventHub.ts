import type { Projection } from '@webbridge/contract';
import type { BridgeMemory } from '../BridgeMemory';
import type { HostAdapter } from '../HostAdapter';
import { FrameCache } from './FrameCache';
import { RESUME_RING_LIMITS, ResumeRing, type ResumeRingLimits } from './ResumeRing';
import type { ConnectionInfo, Subscription, SubscriptionSource } from './Subscription';

/**
 * Runs `task` once the current turn's I/O is done: Node's `setImmediate`; where there is none
 * (a page: the web client's offline mocks) a zero timeout.
 */
const afterThisTurn: (task: () => void) => void =
  typeof setImmediate === 'function' ? setImmediate : (task) => setTimeout(task, 0);

/**
 * Numbers the host's projections and tells every subscriber when they change. It holds the
 * latest projection (and a short history for resuming); each subscriber keeps what its own
 * client last received, so a slow client costs one reference, not a queue of updates.
 */
export class EventHub implements SubscriptionSource {
  private version: number;
  private state: Projection;
  private readonly subscriptions = new Set<Subscription>();
  private fanOutScheduled = false;
  private readonly unsubscribe: () => void;
  /** Frames and signatures shared by the subscribers. */
  readonly frames = new FrameCache();
  /** Recent projections (60 s, 1 MiB of change), so a reconnecting client gets only what it missed. */
  private readonly history: ResumeRing;
  /**
   * Whether the latest projection is in {@link history}. A projection is recorded when its seq
   * is first handed out ({@link latest}, {@link at}), not when it is published: a client can
   * only resume from a seq it was given, and a burst of changes between two fan-outs (fifty
   * actions in one turn) then costs one entry, not fifty, each of which would outlive the young
   * generation (docs/PERFORMANCE.md).
   */
  private recorded: boolean;
  /** The next sequence number of this host's run. */
  private readonly nextSeq: () => number;

  constructor(
    private readonly host: HostAdapter,
    /** Where seqs come from: the host's memory, so a later bridge of the same run continues them. */
    memory: BridgeMemory,
    resumeLimits: ResumeRingLimits = RESUME_RING_LIMITS,
  ) {
    this.history = new ResumeRing(resumeLimits);
    this.state = host.readState();
    const { instanceId } = this.state;
    this.nextSeq = () => memory.nextSeq(instanceId);
    this.version = memory.nextSeq(instanceId);
    this.recorded = false;
    this.unsubscribe = host.subscribe(() => {
      this.version = memory.nextSeq(instanceId);
      this.state = this.host.readState();
      // Recorded once handed out. Seqs may skip numbers anyway when another bridge of the same
      // host runs on the same memory (BridgeMemory.ts); the ring only needs them to increase.
      this.recorded = false;
      // One fan-out per burst, outside the host's task: the host's executor is not held up
      // by thousands of socket writes, and changes within one tick coalesce.
      if (!this.fanOutScheduled) {
        this.fanOutScheduled = true;
        afterThisTurn(() => this.fanOut());
      }
    });
  }

  /** The projection at `seq`, while it is still remembered (a seq handed out by {@link latest}). */
  at(seq: number): Projection | undefined {
    this.record();
    return this.history.at(seq);
  }

  /**
   * Resolves once the host has stored what the latest projection shows: a task on its main
   * executor answers after the writes of its turn are committed, and the projection read
   * before it holds nothing newer than that turn. Whoever hands a projection to a client out of
   * turn (GET /api/state) waits for it, so no answer names a state a crash could still lose.
   */
  settled(): Promise<void> {
    return this.host.runOnMain(() => undefined);
  }

  /** The latest projection and its sequence number; a client may resume from that seq later. */
  latest(): { seq: number; state: Projection } {
    this.record();
    return { seq: this.version, state: this.state };
  }

  add(subscription: Subscription): void {
    this.subscriptions.add(subscription);
  }

  remove(subscription: Subscription): void {
    this.subscriptions.delete(subscription);
  }

  /** What the resume history holds now: entries, their estimated bytes, the oldest's age. */
  get historySize(): { entries: number; bytes: number; oldestMs: number } {
    return this.history.size;
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

  /** Puts the latest projection into the history, once. */
  private record(): void {
    if (this.recorded) return;
    this.recorded = true;
    this.history.push(this.version, this.state);
  }

  private fanOut(): void {
    this.fanOutScheduled = false;
    for (const subscriber of this.subscriptions) {
      try {
        subscriber.onChange();
      } catch {
        // One broken stream must not starve the others; it starts over when it reconnects.
        subscriber.close();
      }
    }
  }

  /**
   * Closes every stream and forgets what could be resumed or reused: reconnecting clients
   * start over with a fresh snapshot (after a code rotation revoked the media ids that older
   * frames and the clients' states carry).
   */
  restartAll(): void {
    this.history.clear();
    // The same state under a new seq: a seq handed out before cannot be recorded again by the
    // next read, so a client resuming from it starts over too.
    this.version = this.nextSeq();
    this.recorded = false;
    this.frames.clear();
    this.closeWhere();
  }

  /** Stops listening to the host and closes every stream. */
  dispose(): void {
    this.unsubscribe();
    this.closeWhere();
  }
}
