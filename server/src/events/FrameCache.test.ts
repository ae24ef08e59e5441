import { describe, expect, it } from 'vitest';
import { MediaRegistry } from '../media/MediaRegistry';
import { WireMapper } from '../media/WireMapper';
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

  it('shares a frame without media ids between holders, and builds one with ids per holder', () => {
    const cache = new FrameCache();
    const media = new MediaRegistry(60_000);
    const wire = new WireMapper(media);
    const attachment = { id: 'att-1', name: 'a.png', type: 'image/png', size: 1 };
    const builtFor: string[] = [];
    const plain = (holder: string) =>
      cache.frameFor('plain', holder, wire, () => {
        builtFor.push(`plain ${holder}`);
        return new TextEncoder().encode('word');
      });
    const withMedia = (holder: string) =>
      cache.frameFor('media', holder, wire, (mapper) => {
        builtFor.push(`media ${holder}`);
        return new TextEncoder().encode(mapper.attachment(attachment).media.id);
      });
    expect(plain('phone')).toBe(plain('tablet'));
    const phone = new TextDecoder().decode(withMedia('phone') ?? undefined);
    const tablet = new TextDecoder().decode(withMedia('tablet') ?? undefined);
    expect(phone).not.toBe(tablet);
    expect(withMedia('phone')).toBe(withMedia('phone'));
    expect(builtFor).toEqual(['plain phone', 'media phone', 'media tablet']);
    // Forgetting the phone revokes its id, not the tablet's.
    media.revokeHolder('phone');
    expect(media.resolve(phone)).toBeUndefined();
    expect(media.resolve(tablet)).toBe('att-1');
  });
});
