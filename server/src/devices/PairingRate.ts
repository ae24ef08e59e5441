/** Options of {@link PairingRate}. */
export interface PairingRateOptions {
  /** Pairings one client may make at once. @default 10 */
  readonly burst?: number;
  /** Time until one more pairing is allowed, in milliseconds. @default 60000 */
  readonly refillMs?: number;
}

/** Clients tracked at most; past it the longest-known one is forgotten. */
const MAX_CLIENTS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Slows a client that pairs successfully again and again (a view-code holder pairing and
 * forgetting itself in a loop): a bucket of `burst` pairings per client key, one more every
 * `refillMs`. Apart from the failures' throttle (AuthThrottle): only pairing waits, the client's
 * code and devices keep working, and a household pairing its phones never notices it.
 */
export class PairingRate {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;
  private readonly refillMs: number;

  constructor(
    options: PairingRateOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.burst = options.burst ?? 10;
    this.refillMs = options.refillMs ?? 60_000;
  }

  /** Seconds until `client` may pair again, or 0 when it may now. */
  retryAfter(client: string): number {
    const tokens = this.tokensOf(client);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * this.refillMs) / 1000);
  }

  /** Counts one pairing of `client`. */
  spend(client: string): void {
    const tokens = this.tokensOf(client);
    this.buckets.delete(client);
    if (this.buckets.size >= MAX_CLIENTS) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    // Re-inserted, so insertion order is the order of last pairing.
    this.buckets.set(client, { tokens: tokens - 1, at: this.now() });
  }

  private tokensOf(client: string): number {
    const bucket = this.buckets.get(client);
    if (bucket === undefined) return this.burst;
    return Math.min(this.burst, bucket.tokens + (this.now() - bucket.at) / this.refillMs);
  }
}
