/**
 * Writes of which only the last value counts (the current model, the current conversation):
 * held in memory, keyed by what they overwrite, and run together later. A turn that switches
 * the model thirty times (thirty sockets read in one poll phase) then writes it once instead of
 * sixty times: each statement costs more than the rest of the action
 * (docs/PERFORMANCE.md, "Request rate"). {@link GroupCommit} decides when they run: before any
 * other statement of the store, and before the turn's COMMIT.
 */
export class LastValueWrites {
  private readonly pending = new Map<string, () => void>();

  /** Records `write` as the one to run for `key`, replacing the one recorded before. */
  set(key: string, write: () => void): void {
    this.pending.set(key, write);
  }

  /** Whether some write waits. */
  get waiting(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Runs the waiting writes in the order their keys were first recorded, and forgets them even
   * if one throws (the caller then treats the turn as failed).
   */
  run(): void {
    if (this.pending.size === 0) return;
    const writes = [...this.pending.values()];
    this.pending.clear();
    for (const write of writes) write();
  }

  /** Forgets the waiting writes (their turn is being rolled back). */
  drop(): void {
    this.pending.clear();
  }
}
