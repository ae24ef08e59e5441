/**
 * Aborts its signal when `reset()` has not been called for `ms` milliseconds: a request times
 * out on silence, not on length, so a long answer that keeps streaming is never cut.
 */
export class IdleTimer {
  private readonly controller = new AbortController();
  private readonly ms: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(ms: number) {
    this.ms = ms;
    this.reset();
  }

  /** Aborted once the silence lasted too long. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  /** Something arrived: the silence starts over. */
  reset(): void {
    this.clear();
    if (this.expired) return;
    this.timer = setTimeout(() => this.controller.abort(new Error('idle timeout')), this.ms);
    this.timer.unref();
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
