/** A repeating timer that a sign of life puts back to a full interval. */
export interface IdleTimer {
  /** Starts the interval over (the stream just sent a frame). */
  rearm(): void;
  stop(): void;
}

/**
 * Calls `fire` every `ms` of idleness. On Node the timer is re-armed in place (`refresh`, no
 * new timer per frame) and does not keep the process alive (`unref`); where timers are plain
 * numbers (a page: the web client's offline mocks) re-arming starts a new interval.
 */
export function idleTimer(fire: () => void, ms: number): IdleTimer {
  let timer = setInterval(fire, ms);
  const node = timer as { unref?: () => void; refresh?: () => void };
  node.unref?.();
  const refresh = node.refresh?.bind(timer);
  return {
    rearm:
      refresh ??
      (() => {
        clearInterval(timer);
        timer = setInterval(fire, ms);
      }),
    stop: () => clearInterval(timer),
  };
}
