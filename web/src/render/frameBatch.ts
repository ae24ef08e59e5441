/**
 * How long a task waits for an animation frame before it runs anyway: a visible page draws a
 * frame well within it, and a page hidden after the task was queued (no more frames) still
 * runs it.
 */
const FRAME_FALLBACK_MS = 100;

/** The window functions a batch uses (the real window by default; a test may pass its own). */
export interface FrameHost {
  readonly requestAnimationFrame: (callback: () => void) => number;
  readonly cancelAnimationFrame: (handle: number) => void;
  readonly setTimeout: (callback: () => void, ms: number) => ReturnType<typeof setTimeout>;
  readonly clearTimeout: (handle: ReturnType<typeof setTimeout>) => void;
  readonly queueMicrotask: (callback: () => void) => void;
  /** Whether the page is hidden now (no frames are drawn while it is). */
  readonly hidden: () => boolean;
}

/** Runs queued tasks together, at most once per animation frame. */
export interface FrameBatch {
  /** Queues `task` for the next flush; a task queued twice before it runs runs once. */
  schedule(task: () => void): void;
  /** Takes `task` out of the queue (its component went away). */
  cancel(task: () => void): void;
}

/**
 * A batch that runs its tasks in the next animation frame, so that several store changes
 * arriving within one frame (stream events come in separate network reads) cause one render.
 * A hidden page draws no frames and runs no `requestAnimationFrame` callbacks: there the tasks
 * run in a microtask, as if there were no batch, so that what reads the rendered state while
 * hidden (notifications, tests) never waits for a frame that does not come.
 */
export function createFrameBatch(host: FrameHost = windowHost()): FrameBatch {
  const due = new Set<() => void>();
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let microtask = false;

  const flush = (): void => {
    if (frame !== null) host.cancelAnimationFrame(frame);
    if (timer !== null) host.clearTimeout(timer);
    frame = null;
    timer = null;
    microtask = false;
    const tasks = [...due];
    due.clear();
    for (const task of tasks) task();
  };

  return {
    schedule(task) {
      due.add(task);
      if (host.hidden()) {
        if (!microtask) {
          microtask = true;
          host.queueMicrotask(flush);
        }
        return;
      }
      if (frame !== null || microtask) return;
      frame = host.requestAnimationFrame(flush);
      timer = host.setTimeout(flush, FRAME_FALLBACK_MS);
    },
    cancel(task) {
      due.delete(task);
    },
  };
}

function windowHost(): FrameHost {
  return {
    requestAnimationFrame: (callback) => window.requestAnimationFrame(callback),
    cancelAnimationFrame: (handle) => window.cancelAnimationFrame(handle),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle),
    queueMicrotask: (callback) => queueMicrotask(callback),
    hidden: () => document.visibilityState === 'hidden',
  };
}
