import { describe, expect, it } from 'vitest';
import { titleFrom } from './titleFrom';

describe('titleFrom', () => {
  it('takes the first line of text without markdown markup', () => {
    expect(titleFrom('Hello from **the browser**!\n\n- one\n- two', [])).toBe('Hello from the browser!');
    expect(titleFrom('# Plan\nrest', [])).toBe('Plan');
    expect(titleFrom('```js\nconsole.log(1)\n```', [])).toBe('console.log(1)');
    expect(titleFrom('see [the docs](https://example.com) now', [])).toBe('see the docs now');
    expect(titleFrom('/tool read_file {"path":"a.txt"}', [])).toBe('/tool read_file {"path":"a.txt"}');
  });

  it('falls back to attachment names and cuts long titles', () => {
    const file = { name: 'photo.png' } as Parameters<typeof titleFrom>[1][number];
    expect(titleFrom('   ', [file])).toBe('photo.png');
    expect(titleFrom('x'.repeat(100), [])).toHaveLength(60);
  });
});
