/** Options of {@link AuthThrottle}. */
export interface AuthThrottleOptions {
  /** Failed attempts allowed before a client is slowed. @default 10 */
  readonly freeFailures?: number;
  /** First lockout, doubled on every further failure. @default 1000 */
  readonly baseDelayMs?: number;
  /** Longest lockout. @default 900000 (15 minutes) */
  readonly maxDelayMs?: number;
}

interface Record {
  failures: number;
  lockedUntil: number;
}

/**
 * Slows a client that keeps presenting wrong access codes: after `freeFailures` misses each
 * further miss doubles a lockout during which every protected request from that address gets
 * 429 without the code being checked at all, so a short human-typable code cannot be guessed.
 * A correct code resets the count. The table is bounded.
 */
export class AuthThrottle {
  private readonly clients = new Map<string, Record>();
  private readonly freeFailures: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(
    options: AuthThrottleOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.freeFailures = options.freeFailures ?? 10;
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 15 * 60 * 1000;
  }

  /** Seconds the client must wait, or 0 when it may try. */
  retryAfter(client: string): number {
    const record = this.clients.get(client);
    if (!record) return 0;
    const wait = record.lockedUntil - this.now();
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  failure(client: string): void {
    const record = this.clients.get(client) ?? { failures: 0, lockedUntil: 0 };
    record.failures++;
    const over = record.failures - this.freeFailures;
    if (over > 0) {
      record.lockedUntil = this.now() + Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (over - 1));
    }
    if (!this.clients.has(client) && this.clients.size >= 10_000) {
      const oldest = this.clients.keys().next().value;
      if (oldest !== undefined) this.clients.delete(oldest);
    }
    this.clients.set(client, record);
  }

  success(client: string): void {
    this.clients.delete(client);
  }
}
