/**
 * About how many characters `JSON.stringify(next)` writes for the parts of `next` that are not
 * shared with `prev`, without building the string: what the resume ring counts as the change an
 * entry retains.
 *
 * A value identical to `prev` (`===`) counts nothing: the host shares what did not change, and
 * the ring already counted it when it was new. An object or array that is new counts its own
 * punctuation and keys and then each member the same way against `prev`'s member of the same
 * key or index, so a new group whose list is shared counts a few characters, not the list. Pass
 * `undefined` as `prev` to count all of `next`. Numbers that are not integers count as 20
 * characters; `undefined` members count their key. An estimate for a byte bound, not an
 * encoder: what matters is that it grows with what is retained and costs no allocation (a
 * `JSON.stringify` per published change cost more than the rest of a model switch's bookkeeping;
 * docs/PERFORMANCE.md, "Request rate: the applied action again").
 *
 * @example
 * ```ts
 * newJsonLength(undefined, { ap: [['r', 12, ' word']] }); // 25, as JSON.stringify writes
 * const list = [{ id: 'a' }, { id: 'b' }];
 * newJsonLength({ current: 'a', list }, { current: 'b', list }); // 23: the list is shared
 * ```
 */
export function newJsonLength(prev: unknown, next: unknown): number {
  if (prev === next) return 0;
  if (typeof next === 'string') return next.length + 2;
  if (typeof next === 'number') return numberLength(next);
  if (typeof next === 'boolean') return next ? 4 : 5;
  if (next === null) return 4;
  if (typeof next !== 'object') return 0;
  const before = typeof prev === 'object' && prev !== null ? prev : undefined;
  if (Array.isArray(next)) {
    const old: readonly unknown[] | undefined = Array.isArray(before) ? before : undefined;
    // Brackets and commas: `[a,b]` is 2 + 1 besides its items.
    let length = next.length === 0 ? 2 : next.length + 1;
    for (let i = 0; i < next.length; i++) length += newJsonLength(old?.[i], next[i]);
    return length;
  }
  const old =
    before !== undefined && !Array.isArray(before) ? (before as Record<string, unknown>) : undefined;
  const members = next as Record<string, unknown>;
  // Braces, and per member its quoted key, a colon and a comma (one comma too many: `{}` is 2).
  let length = 1;
  // for…in, not Object.keys: no array per object. The values are plain JSON objects (no
  // enumerable inherited keys).
  for (const key in members) length += key.length + 4 + newJsonLength(old?.[key], members[key]);
  return length === 1 ? 2 : length;
}

/** Characters of a number in JSON: the digits of an integer, 20 for anything else. */
function numberLength(value: number): number {
  if (!Number.isSafeInteger(value)) return 20;
  let length = value < 0 ? 2 : 1;
  for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) length++;
  return length;
}
