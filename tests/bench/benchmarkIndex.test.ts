import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BENCHMARK_INDEX, calibrateCpu } from './benchmarkIndex';

describe('calibrateCpu', () => {
  it('finds the rate of a target index when the index falls as 1 / rate', async () => {
    const found = await calibrateCpu(async (rate) => 1500 / rate, 100);
    expect(found.machineIndex).toBe(1500);
    expect(found.rate).toBeCloseTo(15, 1);
    expect(Math.abs(found.emulatedIndex - 100)).toBeLessThanOrEqual(15);
  });

  it('finds it when the index falls more slowly than 1 / rate (as Chromium throttling did here)', async () => {
    // 8.5× took 851 to 358 on the machine: an exponent of about −0.4.
    const found = await calibrateCpu(async (rate) => 1600 * rate ** -0.6, 100);
    expect(Math.abs(found.emulatedIndex - 100)).toBeLessThanOrEqual(15);
    expect(found.rate).toBeGreaterThan(60);
  });

  it('keeps the fitted rate whose check came nearest when the measurements are noisy', async () => {
    let n = 0;
    // Every other measurement twice as fast as the law says: a machine whose load comes and goes.
    const found = await calibrateCpu(async (rate) => (n++ % 2 === 0 ? 2 : 1) * (1200 / rate), 100);
    const checks = found.steps.slice(6);
    const nearest = Math.min(...checks.map((s) => Math.abs(s.index - 100)));
    expect(Math.abs(found.emulatedIndex - 100)).toBe(nearest);
    expect(found.rate).toBeGreaterThanOrEqual(1);
  });
});

describe('BENCHMARK_INDEX', () => {
  it('is an expression that yields Lighthouse-sized figures (hundreds to thousands)', () => {
    const index = runInNewContext(BENCHMARK_INDEX) as number;
    expect(typeof index).toBe('number');
    expect(index).toBeGreaterThan(10);
    expect(index).toBeLessThan(100_000);
  });
});
