import { describe, expect, it, vi } from 'vitest';
import { createFrameBatch, type FrameHost } from './frameBatch';

/** A host whose frames, timers and microtasks run only when the test says so. */
function fakeHost(hidden = false) {
  const frames = new Map<number, () => void>();
  const timers = new Map<number, () => void>();
  const microtasks: (() => void)[] = [];
  let next = 0;
  const state = { hidden };
  const host: FrameHost = {
    requestAnimationFrame: (callback) => {
      frames.set(++next, callback);
      return next;
    },
    cancelAnimationFrame: (handle) => frames.delete(handle),
    setTimeout: (callback) => {
      timers.set(++next, callback);
      return next as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimeout: (handle) => timers.delete(handle as unknown as number),
    queueMicrotask: (callback) => microtasks.push(callback),
    hidden: () => state.hidden,
  };
  const runAll = (queue: Map<number, () => void>) => {
    const callbacks = [...queue.values()];
    queue.clear();
    for (const callback of callbacks) callback();
  };
  return {
    host,
    state,
    frames,
    timers,
    frame: () => runAll(frames),
    timeout: () => runAll(timers),
    microtasks: () => {
      for (const callback of microtasks.splice(0)) callback();
    },
  };
}

describe('createFrameBatch', () => {
  it('runs the tasks queued within a frame once each, in that frame', () => {
    const fake = fakeHost();
    const batch = createFrameBatch(fake.host);
    const a = vi.fn();
    const b = vi.fn();
    batch.schedule(a);
    batch.schedule(b);
    batch.schedule(a);
    expect(fake.frames.size).toBe(1);
    expect(a).not.toHaveBeenCalled();
    fake.frame();
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    // The frame ran them: the fallback is cancelled, so nothing runs twice.
    expect(fake.timers.size).toBe(0);
    batch.schedule(a);
    fake.frame();
    expect(a).toHaveBeenCalledTimes(2);
  });

  it('runs them after the fallback delay when no frame comes (a page hidden since)', () => {
    const fake = fakeHost();
    const batch = createFrameBatch(fake.host);
    const task = vi.fn();
    batch.schedule(task);
    fake.state.hidden = true;
    fake.timeout();
    expect(task).toHaveBeenCalledTimes(1);
    expect(fake.frames.size).toBe(0);
  });

  it('on a hidden page runs them in a microtask, without waiting for a frame', () => {
    const fake = fakeHost(true);
    const batch = createFrameBatch(fake.host);
    const a = vi.fn();
    const b = vi.fn();
    batch.schedule(a);
    batch.schedule(b);
    expect(fake.frames.size).toBe(0);
    fake.microtasks();
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
  });

  it('does not run a cancelled task', () => {
    const fake = fakeHost();
    const batch = createFrameBatch(fake.host);
    const task = vi.fn();
    batch.schedule(task);
    batch.cancel(task);
    fake.frame();
    expect(task).not.toHaveBeenCalled();
  });
});
