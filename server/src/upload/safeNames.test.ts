import { describe, expect, it } from 'vitest';
import { safeFileName, safeMediaType } from './safeNames';

describe('safeFileName', () => {
  it('keeps the last path segment and refuses unusable names', () => {
    expect(safeFileName('photo.png')).toBe('photo.png');
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\me\\cat.jpg')).toBe('cat.jpg');
    expect(safeFileName('..')).toBeUndefined();
    expect(safeFileName('a\nb')).toBeUndefined();
    expect(safeFileName('')).toBeUndefined();
    expect(safeFileName('x'.repeat(256))).toBeUndefined();
  });
});

describe('safeMediaType', () => {
  it('keeps well-formed types and drops parameters and junk', () => {
    expect(safeMediaType('image/png')).toBe('image/png');
    expect(safeMediaType('Text/Plain; charset=utf-8')).toBe('text/plain');
    expect(safeMediaType('text/html\r\nSet-Cookie: x')).toBe('application/octet-stream');
    expect(safeMediaType(undefined)).toBe('application/octet-stream');
  });
});
