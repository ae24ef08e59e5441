import { describe, expect, it } from 'vitest';
import { createSerialQueue } from './createSerialQueue';

describe('createSerialQueue', () => {
  it('runs tasks one after another in arrival order, a task queued by a task after it', async () => {
    const run = createSerialQueue();
    const order: string[] = [];
    let inner: Promise<void> | undefined;
    const first = run(() => {
      order.push('first');
      inner = run(() => void order.push('queued by first'));
      return 1;
    });
    const second = run(() => {
      order.push('second');
      return 2;
    });
    expect(order).toEqual([]); // never inside the caller's own stack frame
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    await inner;
    expect(order).toEqual(['first', 'second', 'queued by first']);
  });

  it('rejects only the promise of a task that throws, and goes on', async () => {
    const run = createSerialQueue();
    const failing = run(() => {
      throw new Error('boom');
    });
    const after = run(() => 'still running');
    await expect(failing).rejects.toThrow('boom');
    await expect(after).resolves.toBe('still running');
  });
});
