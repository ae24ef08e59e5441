import { describe, expect, it } from 'vitest';
import { shallowEqual } from './shallowEqual';

describe('shallowEqual', () => {
  it('compares the values of two objects by identity, one level deep', () => {
    const run = { state: 'idle' };
    expect(shallowEqual({ run, n: 1 }, { run, n: 1 })).toBe(true);
    expect(shallowEqual({ run, n: 1 }, { run: { state: 'idle' }, n: 1 })).toBe(false);
    expect(shallowEqual<object>({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(shallowEqual<object>({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(false);
    expect(shallowEqual<unknown>([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(shallowEqual([run], [run])).toBe(true);
  });

  it('compares anything else as Object.is does', () => {
    expect(shallowEqual(Number.NaN, Number.NaN)).toBe(true);
    expect(shallowEqual<unknown>(null, {})).toBe(false);
    expect(shallowEqual<unknown>('a', 'a')).toBe(true);
    expect(shallowEqual<unknown>(undefined, null)).toBe(false);
  });
});
