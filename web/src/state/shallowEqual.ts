/**
 * Whether two values are the same, or two plain objects (or arrays) hold the very same values
 * under the same keys. What a selector picks out of the store is compared with it: the store
 * keeps every unchanged part of the state by identity, so a selection of parts is unchanged
 * exactly when each part is.
 *
 * @example
 * ```ts
 * shallowEqual({ run, approvals }, { run, approvals }); // true
 * ```
 */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(right, key) || !Object.is(left[key], right[key])) return false;
  }
  return true;
}
