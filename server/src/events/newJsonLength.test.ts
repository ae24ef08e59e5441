import { describe, expect, it } from 'vitest';
import { newJsonLength } from './newJsonLength';

describe('newJsonLength', () => {
  it('counts a fresh value as JSON.stringify writes it', () => {
    const values: unknown[] = [
      'word',
      '',
      0,
      -7,
      1234567,
      true,
      false,
      null,
      [],
      {},
      [1, 'two', [3]],
      { ap: [['r', 12, ' word']] },
      { cut: 3, add: [{ id: 'm1', text: 'hello', sibling: { index: 0, count: 2 }, attachments: [] }] },
      { current: 'echo', list: [{ id: 'echo', name: 'Echo', provider: 'echo' }] },
    ];
    for (const value of values)
      expect(newJsonLength(undefined, value), JSON.stringify(value)).toBe(JSON.stringify(value).length);
  });

  it('counts nothing for what is shared with the value before', () => {
    const list = Array.from({ length: 100 }, (_, i) => ({ id: `model-${i}`, name: `Model ${i}` }));
    const before = { current: 'a', list };
    expect(newJsonLength(before, before)).toBe(0);
    // A new group object whose list is shared: its keys and the new current model only.
    const after = { current: 'b', list };
    expect(newJsonLength(before, after)).toBe('{"current":"b","list":}'.length);
    expect(newJsonLength(undefined, after)).toBe(JSON.stringify(after).length);
  });

  it('counts the members of a new array that differ at their index', () => {
    const items = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const renamed = [items[0], { id: 'B' }, items[2]];
    expect(newJsonLength(items, renamed)).toBe('[,,]'.length + JSON.stringify({ id: 'B' }).length);
  });

  it('estimates non-integer numbers without formatting them', () => {
    expect(newJsonLength(undefined, 0.1)).toBe(20);
    expect(newJsonLength(undefined, Number.MAX_SAFE_INTEGER)).toBe(String(Number.MAX_SAFE_INTEGER).length);
  });
});
