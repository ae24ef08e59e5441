import type { Projection } from '@webbridge/contract';
import type { FrameCache } from './FrameCache';

/** One connected browser, as the host may show it to its user. */
export interface ConnectionInfo {
  /** When the stream was opened (epoch milliseconds). */
  readonly openedAt: number;
  readonly remoteAddress: string;
  readonly userAgent: string;
  /** The paired device that opened the stream; absent for the access or view code. */
  readonly deviceId?: string;
}

/**
 * One open event stream as the hub sees it. The hub and its subscribers know each other only
 * through this file: the hub tells a subscription about changes and closes it; a subscriber
 * reads the hub through {@link SubscriptionSource}.
 */
export interface Subscription {
  /** The access code the stream was opened with, so rotation can close it. */
  readonly accessCode: string;
  readonly info: ConnectionInfo;
  /** The hub's projection changed. */
  onChange(): void;
  /** Ends the stream. Idempotent. */
  close(): void;
}

/** What a subscriber reads from the hub: the latest and recent projections, shared frames. */
export interface SubscriptionSource {
  /** Frames and signatures shared by the subscribers. */
  readonly frames: FrameCache;
  /** The projection at `seq`, while it is still remembered. */
  at(seq: number): Projection | undefined;
  /** The latest projection and its sequence number. */
  latest(): { seq: number; state: Projection };
  /** Forgets a subscription that has closed. */
  remove(subscription: Subscription): void;
}
