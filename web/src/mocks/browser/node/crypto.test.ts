import * as node from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as page from './crypto';

describe("the page's stand-in for node:crypto answers as Node does", () => {
  const inputs = ['', 'abc', 'mock', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é€😀'.repeat(40)];

  it('SHA-256 (hex, base64url, bytes) and HMAC-SHA-256, across block boundaries and UTF-8', () => {
    for (const text of inputs) {
      expect(page.hash('sha256', text, 'hex'), text).toBe(node.hash('sha256', text, 'hex'));
      expect(page.createHash('sha256').update(text).digest('base64url')).toBe(
        node.createHash('sha256').update(text).digest('base64url'),
      );
      expect([...(page.hash('sha256', text, 'buffer') as Uint8Array)]).toEqual([
        ...node.hash('sha256', text, 'buffer'),
      ]);
      for (const key of ['k', 'k'.repeat(64), 'k'.repeat(100)]) {
        expect(page.createHmac('sha256', key).update(text).digest('hex')).toBe(
          node.createHmac('sha256', key).update(text).digest('hex'),
        );
      }
    }
  });

  it('random bytes encode as Node encodes them, and timingSafeEqual refuses different lengths', () => {
    const bytes = page.randomBytes(18);
    expect(bytes.toString('base64url')).toBe(Buffer.from(bytes).toString('base64url'));
    expect(bytes.toString('hex')).toBe(Buffer.from(bytes).toString('hex'));
    expect(page.timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(page.timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(() => page.timingSafeEqual(new Uint8Array(1), new Uint8Array(2))).toThrow(RangeError);
  });
});
