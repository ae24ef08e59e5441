/** Options of {@link AuthThrottle}. */
export interface AuthThrottleOptions {
  /** Failed attempts allowed before a client is slowed. @default 10 */
  readonly freeFailures?: number;
  /** First lockout, doubled on every further failure. @default 1000 */
  readonly baseDelayMs?: number;
  /** Longest lockout. @default 900000 (15 minutes) */
  readonly maxDelayMs?: number;
}

/** Clients tracked at most. */
const MAX_CLIENTS = 10_000;
/** The shared record of clients that arrive while the table is full of locked-out ones. */
const OVERFLOW = 'overflow';

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
    const record =
      this.clients.get(client) ?? (this.clients.size >= MAX_CLIENTS ? this.clients.get(OVERFLOW) : undefined);
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
    const full = !this.clients.has(client) && client !== OVERFLOW && this.clients.size >= MAX_CLIENTS;
    if (full && !this.evictOneUnlocked()) {
      // Every tracked client is locked out: newcomers share one record rather than getting a
      // fresh, unthrottled one (which is what an attacker filling the table would want).
      this.failure(OVERFLOW);
      return;
    }
    this.clients.set(client, record);
  }

  success(client: string): void {
    this.clients.delete(client);
  }

  /** Forgets the oldest client that is not locked out; false when all are. */
  private evictOneUnlocked(): boolean {
    const now = this.now();
    for (const [key, record] of this.clients) {
      if (record.lockedUntil <= now && key !== OVERFLOW) {
        this.clients.delete(key);
        return true;
      }
    }
    return false;
  }
}
