import { describe, expect, it } from 'vitest';
import { MainExecutor } from './MainExecutor';

describe('MainExecutor', () => {
  it('runs tasks one at a time in arrival order', async () => {
    const main = new MainExecutor();
    const order: number[] = [];
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        main.run(() => {
          order.push(n);
          return n * 10;
        }),
      ),
    );
    expect(order).toEqual([1, 2, 3, 4]);
    expect(results).toEqual([10, 20, 30, 40]);
  });

  it('never runs a task inside the caller or nested in another task', async () => {
    const main = new MainExecutor();
    const order: string[] = [];
    const done = main.run(() => {
      order.push('outer start');
      void main.run(() => order.push('inner'));
      order.push('outer end');
    });
    order.push('caller');
    await done;
    await main.idle();
    expect(order).toEqual(['caller', 'outer start', 'outer end', 'inner']);
  });

  it('rejects the promise of a throwing task and keeps running the next ones', async () => {
    const main = new MainExecutor();
    const failing = main.run(() => {
      throw new Error('boom');
    });
    const after = main.run(() => 'still running');
    await expect(failing).rejects.toThrow('boom');
    await expect(after).resolves.toBe('still running');
  });

  it('interleaves tasks queued by long work with tasks queued later by others', async () => {
    const main = new MainExecutor();
    const log: string[] = [];
    const stream = (async () => {
      for (const word of ['a', 'b', 'c']) {
        await main.run(() => log.push(word));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 2));
    await main.run(() => log.push('stop'));
    await stream;
    expect(log.indexOf('stop')).toBeGreaterThan(0);
    expect(log.indexOf('stop')).toBeLessThan(log.length - 1);
  });
});
