/**
 * Structural sharing: returns `next`, except that every part of it that is deeply equal to the
 * matching part of `prev` is replaced by `prev`'s object. The result is `prev` itself when
 * nothing changed. Array elements that carry a string `id` are matched by id (so a message
 * keeps its identity when the messages before it change); other elements by position.
 *
 * The bridge diffs projections by reference, so this is what keeps its deltas small.
 *
 * @example
 * ```ts
 * const a = { list: [{ id: 'x', n: 1 }], other: { k: 1 } };
 * const b = share(a, { list: [{ id: 'x', n: 1 }], other: { k: 2 } });
 * b.list === a.list; // true
 * ```
 */
export function share<T>(prev: unknown, next: T): T {
  if (Object.is(prev, next)) return next;
  if (Array.isArray(next)) return Array.isArray(prev) ? (shareArray(prev, next) as T) : next;
  if (isPlainObject(next)) return isPlainObject(prev) ? (shareObject(prev, next) as T) : next;
  return next;
}

function shareArray(prev: readonly unknown[], next: readonly unknown[]): readonly unknown[] {
  const byId = new Map<string, unknown>();
  for (const item of prev) {
    const id = idOf(item);
    if (id !== undefined) byId.set(id, item);
  }
  let same = prev.length === next.length;
  const out = next.map((item, index) => {
    const id = idOf(item);
    const match = id !== undefined ? byId.get(id) : prev[index];
    const shared = share(match, item);
    if (shared !== prev[index]) same = false;
    return shared;
  });
  return same ? prev : out;
}

function shareObject(prev: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(next);
  let same = keys.length === Object.keys(prev).length;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const shared = Object.hasOwn(prev, key) ? share(prev[key], next[key]) : next[key];
    if (shared !== prev[key] || !Object.hasOwn(prev, key)) same = false;
    out[key] = shared;
  }
  return same ? prev : out;
}

function idOf(item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  const id = item.id;
  return typeof id === 'string' ? id : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
