import type { Outcome } from './Outcome';

/** A remembered action id: when it was first seen, for which action, from whom, how it ended. */
export interface RecentAction {
  /** When it was first seen, on a monotonic clock (`performance.now()`). */
  readonly at: number;
  readonly action: string;
  /** Who sent it (the auth throttle's grouping: an IPv4 address, an IPv6 /64, loopback). */
  readonly client: string;
  readonly outcome: Promise<Outcome>;
}

/** Most ids remembered for one host run. */
export const MAX_REMEMBERED = 10_000;
/** Most ids remembered for one client (see {@link RecentActions}). */
export const MAX_REMEMBERED_PER_CLIENT = 1_000;

/**
 * The action ids a host's run has seen, with their outcomes, bounded in age
 * (`forgetOlderThan`) and in count. When a bound is passed, the id forgotten is the oldest
 * finished one of the client that holds the most: a client sending actions by the thousand
 * (from one address or many) loses its own ids before a phone loses any, and an action still
 * running is never forgotten, so a duplicate arriving meanwhile always shares its outcome.
 */
export class RecentActions {
  private readonly byId = new Map<string, RecentAction>();
  /** Each client's ids, oldest first. */
  private readonly byClient = new Map<string, Set<string>>();
  /** Ids whose action has not finished yet. */
  private readonly running = new Set<string>();

  get(id: string): RecentAction | undefined {
    return this.byId.get(id);
  }

  remember(id: string, entry: RecentAction): void {
    this.byId.set(id, entry);
    this.running.add(id);
    const done = () => {
      this.running.delete(id);
    };
    entry.outcome.then(done, done);
    let ids = this.byClient.get(entry.client);
    if (!ids) {
      ids = new Set();
      this.byClient.set(entry.client, ids);
    }
    ids.add(id);
    if (ids.size > MAX_REMEMBERED_PER_CLIENT) this.forgetOldestFinished(ids);
    if (this.byId.size > MAX_REMEMBERED) this.forgetOldestFinished(this.largestClient());
  }

  /** Forgets the ids first seen at `horizon` or before. */
  forgetOlderThan(horizon: number): void {
    for (const [id, entry] of this.byId) {
      if (entry.at > horizon) break;
      if (!this.running.has(id)) this.forget(id);
    }
  }

  /** How many ids are remembered (for tests). */
  get size(): number {
    return this.byId.size;
  }

  /** The ids of the client that holds the most. */
  private largestClient(): Set<string> {
    let largest = new Set<string>();
    for (const ids of this.byClient.values()) if (ids.size > largest.size) largest = ids;
    return largest;
  }

  /** Forgets the oldest id of `ids` whose action has finished (none while all still run). */
  private forgetOldestFinished(ids: ReadonlySet<string>): void {
    for (const id of ids) {
      if (this.running.has(id)) continue;
      this.forget(id);
      return;
    }
  }

  private forget(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    this.byId.delete(id);
    this.running.delete(id);
    const ids = this.byClient.get(entry.client);
    ids?.delete(id);
    if (ids?.size === 0) this.byClient.delete(entry.client);
  }
}
