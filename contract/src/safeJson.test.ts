import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseJsonSafely } from './safeJson';

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** What `parseJsonSafely` must always return: the reviver on every value. */
function withReviver(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (FORBIDDEN.has(key) ? undefined : value));
}

/** `word` with its i-th character written as a `\uXXXX` escape (lower or upper hex). */
function escapedAt(word: string, i: number, upper = false): string {
  const hex = word.charCodeAt(i).toString(16).padStart(4, '0');
  return `${word.slice(0, i)}\\u${upper ? hex.toUpperCase() : hex}${word.slice(i + 1)}`;
}

/** Whether the last parse went through a reviver (the slow, always safe path). */
function tookReviver(parse: ReturnType<typeof vi.spyOn>): boolean {
  return parse.mock.calls.some((call: unknown[]) => typeof call[1] === 'function');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseJsonSafely', () => {
  it('drops the keys at every depth: objects, arrays, objects in arrays', () => {
    const text = '{"a":{"__proto__":{"x":1},"prototype":2,"b":[{"constructor":3,"c":4}]},"__proto__":[1]}';
    const parsed = parseJsonSafely(text);
    expect(parsed).toStrictEqual({ a: { b: [{ c: 4 }] } });
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('drops a key spelled with any one of its characters escaped, in lower or upper hex', () => {
    for (const word of FORBIDDEN) {
      for (let i = 0; i < word.length; i++) {
        for (const upper of [false, true]) {
          const key = escapedAt(word, i, upper);
          const text = `{"ok":1,"deep":[{"${key}":{"polluted":true}}],"${key}":{"polluted":true}}`;
          // The text really holds the forbidden key: JSON.parse alone keeps it.
          expect(Object.hasOwn((JSON.parse(text) as { deep: object[] }).deep[0]!, word), key).toBe(true);
          expect(parseJsonSafely(text), key).toStrictEqual({ ok: 1, deep: [{}] });
        }
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('drops a key spelled wholly in escapes, and one with whitespace before its colon', () => {
    const escaped = [...'__proto__']
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('');
    expect(parseJsonSafely(`{"${escaped}":{"x":1},"a":2}`)).toStrictEqual({ a: 2 });
    expect(parseJsonSafely('{"constructor" \t\r\n : {"x":1},"a":2}')).toStrictEqual({ a: 2 });
    expect(parseJsonSafely('[{"b":[[{"prototype"\n:1}]]}]')).toStrictEqual([{ b: [[{}]] }]);
  });

  it('keeps the words as string values, and parses such a text without the reviver', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const text =
      '{"a":"__proto__","b":["constructor","prototype"],"c":{"d":"prototype"},' +
      '"e":"say \\"constructor\\": it is a key","f":"__proto__ , constructor : prototype"}';
    expect(parseJsonSafely(text)).toStrictEqual({
      a: '__proto__',
      b: ['constructor', 'prototype'],
      c: { d: 'prototype' },
      e: 'say "constructor": it is a key',
      f: '__proto__ , constructor : prototype',
    });
    expect(tookReviver(parse)).toBe(false);
  });

  it('keeps keys that only contain the words or differ from them', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const text = '{"__proto__x":1,"constructors":2,"Prototype":3,"_proto_":4,"a__proto__":5,"__PROTO__":6}';
    expect(parseJsonSafely(text)).toStrictEqual(JSON.parse(text));
    expect(tookReviver(parse)).toBe(false);
  });

  it('takes the reviver for any escape that could spell a letter, and returns the same value', () => {
    const parse = vi.spyOn(JSON, 'parse');
    // \u0061 is "a": harmless here, but the cheap test cannot tell it from a key's letter.
    const text = '{"\\u0061":"\\u0070rototype","b":"\\\\u005f"}';
    expect(parseJsonSafely(text)).toStrictEqual({ a: 'prototype', b: '\\u005f' });
    expect(tookReviver(parse)).toBe(true);
  });

  it('parses without the reviver escapes JSON.stringify writes (control characters, lone surrogates)', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const value = { text: 'tab\there\u0001\u001f', lone: '\ud800', emoji: '😀', quote: '"\\/' };
    const text = JSON.stringify(value);
    expect(text).toContain('\\u0001');
    expect(parseJsonSafely(text)).toStrictEqual(value);
    expect(tookReviver(parse)).toBe(false);
  });

  it('equals the reviver on keys built from the words, escapes and neighbours', () => {
    const pieces = [
      ...['__proto__', 'constructor', 'prototype', '_proto__', 'rototype', 'onstructor'],
      ...['\\u005f', '\\u0070', '\\u0063', '_', 'p', 'x', '"', ' '],
    ];
    // Every key of one to three pieces, at the top and nested in an array's object.
    const keys: string[] = [];
    for (const a of pieces) {
      keys.push(a);
      for (const b of pieces) {
        keys.push(a + b);
        for (const c of pieces) keys.push(a + b + c);
      }
    }
    let checked = 0;
    for (const raw of keys) {
      const key = raw.replaceAll('"', '\\"');
      for (const text of [`{"${key}":{"v":1},"k":2}`, `[1,{"n":[{"${key}" :3}]}]`]) {
        expect(parseJsonSafely(text), text).toStrictEqual(withReviver(text));
        checked++;
      }
    }
    expect(checked).toBe(keys.length * 2);
  });

  it('throws on what is not JSON, as JSON.parse does', () => {
    expect(() => parseJsonSafely('{"a":')).toThrow(SyntaxError);
    expect(() => parseJsonSafely('{"\\U005f_proto__":1}')).toThrow(SyntaxError);
  });
});
