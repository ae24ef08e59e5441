import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parseRetryAfter';

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('30')).toBe(30);
    expect(parseRetryAfter(' 0 ')).toBe(0);
  });

  it('reads an HTTP date as the seconds left, rounded up and never negative', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:09 GMT', now - 500)).toBe(10);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', now)).toBe(0);
  });

  it('says null for what it does not understand', () => {
    for (const value of [null, undefined, '', 'soon', '-5', '1.5']) expect(parseRetryAfter(value)).toBeNull();
  });
});
