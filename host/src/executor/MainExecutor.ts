interface QueuedTask {
  readonly task: () => void;
  readonly onThrow: (reason: unknown) => void;
}

/**
 * The host's serial "main thread". Tasks run one at a time in arrival order, and each runs to
 * completion before the next starts, so a task can check state and apply a change with no
 * other task slipping in between. Tasks are synchronous; long work (a streamed reply) is not a
 * task but schedules later tasks of its own, so a `stop` never waits behind a reply.
 *
 * @example
 * ```ts
 * const main = new MainExecutor();
 * const title = await main.run(() => controller.readState().conversations.list[0]?.title);
 * ```
 */
export class MainExecutor {
  private readonly queue: QueuedTask[] = [];
  private head = 0;
  private draining = false;
  private readonly idleWaiters: (() => void)[] = [];

  /**
   * Queues `task`; the promise settles with its result or its throw. A task queued from inside
   * another task runs after it (and after everything queued before it), never nested.
   */
  run<T>(task: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => this.post(() => resolve(task()), reject));
  }

  /**
   * {@link run} without a promise: queues `task`, and hands what it throws to `onThrow`. For a
   * caller that settles a promise of its own later (ChatController.runCommitted).
   */
  post(task: () => void, onThrow: (reason: unknown) => void): void {
    this.queue.push({ task, onThrow });
    if (!this.draining) {
      this.draining = true;
      // Deferred even when idle, so a caller never has a task run inside its own stack frame.
      queueMicrotask(() => this.drain());
    }
  }

  /** Resolves once no task is queued or running. */
  idle(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** How many tasks wait to run. */
  get size(): number {
    return this.queue.length - this.head;
  }

  private drain(): void {
    while (this.head < this.queue.length) {
      const next = this.queue[this.head]!;
      this.head++;
      try {
        next.task();
      } catch (error) {
        next.onThrow(error);
      }
    }
    this.queue.length = 0;
    this.head = 0;
    this.draining = false;
    for (const waiter of this.idleWaiters.splice(0)) waiter();
  }
}
