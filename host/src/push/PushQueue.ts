import type { StoredPushSubscription } from '../db/PushSubscriptionTable';
import { type PushRequestOptions, type PushResult, sendPush } from './sendPush';

/** One message for one device. */
export interface PushJob {
  readonly subscription: StoredPushSubscription;
  /** The payload's JSON. Never logged. */
  readonly payload: string;
  readonly ttl: number;
  readonly urgency: PushRequestOptions['urgency'];
  readonly topic?: string;
  /** Checked before every attempt: a job whose news is stale (its approval was answered) is dropped. */
  readonly stillWanted: () => boolean;
}

/** What the queue tells its owner about each job's end (no payload in it). */
export interface PushReport {
  readonly deviceId: string;
  readonly result: PushResult | { readonly kind: 'dropped' };
  readonly attempts: number;
}

/** Options of {@link PushQueue}. */
export interface PushQueueOptions {
  readonly request: Omit<PushRequestOptions, 'ttl' | 'urgency' | 'topic'>;
  /**
   * Pauses before each retry. A push service that cannot be reached is tried again after each,
   * then given up on.
   * @default [1000, 2000, 4000, 8000, 16000, 32000]
   */
  readonly retryDelaysMs?: readonly number[];
  /** Told when a push service says a subscription is gone (404/410): remove it. */
  readonly onGone: (subscription: StoredPushSubscription) => void;
  /** Told how each job ended. */
  readonly onReport?: (report: PushReport) => void;
}

/**
 * Sends push messages off the executor: `enqueue` only schedules (the encryption and the
 * request start in a later turn of the event loop), so a host task that creates an approval
 * never waits for a push service. Failures that may pass (no answer, 429, 5xx) are retried
 * with backoff; nothing of a payload is ever logged.
 */
export class PushQueue {
  private readonly options: PushQueueOptions;
  private readonly delays: readonly number[];
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(options: PushQueueOptions) {
    this.options = options;
    this.delays = options.retryDelaysMs ?? [1000, 2000, 4000, 8000, 16000, 32000];
  }

  /** Schedules a job; returns at once. */
  enqueue(job: PushJob): void {
    if (this.closed) return;
    setImmediate(() => void this.attempt(job, 0));
  }

  /** Stops every retry still waiting. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async attempt(job: PushJob, failures: number): Promise<void> {
    if (this.closed) return;
    const deviceId = job.subscription.deviceId;
    if (!job.stillWanted()) {
      this.options.onReport?.({ deviceId, result: { kind: 'dropped' }, attempts: failures });
      return;
    }
    const result = await sendPush(job.subscription, job.payload, {
      ...this.options.request,
      ttl: job.ttl,
      urgency: job.urgency,
      ...(job.topic === undefined ? {} : { topic: job.topic }),
    });
    if (this.closed) return;
    const delay = this.delays[failures];
    if (result.kind === 'retry' && delay !== undefined) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.attempt(job, failures + 1);
      }, delay);
      this.timers.add(timer);
      return;
    }
    if (result.kind === 'gone') this.options.onGone(job.subscription);
    this.options.onReport?.({ deviceId, result, attempts: failures + 1 });
  }
}
