import { describe, expect, it } from 'vitest';
import { MediaRegistry } from './MediaRegistry';

describe('MediaRegistry', () => {
  it('issues 128-bit base64url ids that resolve to one attachment until they expire', () => {
    let now = 1_000;
    const registry = new MediaRegistry(60_000, () => now);
    const ref = registry.refFor('att-1');
    expect(ref.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(ref.expiresAt).toBe(61_000);
    expect(registry.resolve(ref.id)).toBe('att-1');
    now = 61_000;
    expect(registry.resolve(ref.id)).toBeUndefined();
  });

  it('reuses an id with more than half its life left, then issues a fresh one', () => {
    let now = 0;
    const registry = new MediaRegistry(60_000, () => now);
    const first = registry.refFor('a');
    now = 20_000;
    expect(registry.refFor('a').id).toBe(first.id);
    now = 40_000;
    const second = registry.refFor('a');
    expect(second.id).not.toBe(first.id);
    expect(registry.resolve(first.id)).toBe('a');
    expect(registry.resolve(second.id)).toBe('a');
  });

  it('answers unknown ids like expired ones', () => {
    const registry = new MediaRegistry(1000);
    expect(registry.resolve('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
  });
});
