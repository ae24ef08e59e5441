import { describe, expect, it } from 'vitest';
import { FrameCache } from './FrameCache';

describe('FrameCache', () => {
  it('builds a frame once per key and shares it', () => {
    const cache = new FrameCache();
    let builds = 0;
    const build = () => {
      builds++;
      return new Uint8Array(10);
    };
    const first = cache.frame('k', build);
    expect(cache.frame('k', build)).toBe(first);
    expect(builds).toBe(1);
    expect(cache.frame('empty', () => null)).toBeNull();
  });

  it('keeps at most 16 MiB of frames, forgetting the oldest first', () => {
    const cache = new FrameCache();
    for (let i = 0; i < 40; i++) cache.frame(`s${i}`, () => new Uint8Array(1024 * 1024));
    expect(cache.size.bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(cache.size.frames).toBe(16);
    let rebuilt = false;
    cache.frame('s0', () => {
      rebuilt = true;
      return new Uint8Array(1);
    });
    expect(rebuilt).toBe(true);
    // A frame larger than the budget is returned but not kept.
    const huge = cache.frame('huge', () => new Uint8Array(17 * 1024 * 1024));
    expect(huge?.byteLength).toBe(17 * 1024 * 1024);
    expect(cache.size.bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});
