/**
 * Keys that are never taken from the wire: a peer that sends them is trying to reach an
 * object's prototype (prototype pollution), never describing state.
 */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A forbidden key as it must appear in a text without escapes that decode to its letters: in
 * quotes, then JSON's whitespace and a colon (a key, not a string value that is the word).
 */
const FORBIDDEN_KEY_TOKEN = /"(?:__proto__|constructor|prototype)"[\t\n\r ]*:/;

/**
 * A `\u` escape of a character from U+0040 to U+007F, where every character of the three words
 * lies: `"\u005f_proto__"` is the key `__proto__` once parsed. JSON has no other escape that
 * makes one of them (`\/` and the control escapes make none), and `JSON.stringify` never writes
 * this one, so a server's text practically never has it.
 */
const ESCAPED_KEY_CHARACTER = /\\u00[4-7]/;

/**
 * `JSON.parse` that drops `__proto__`, `constructor` and `prototype` keys at every depth.
 *
 * A reviver drops them, but it is called for every value: on a long conversation's state it
 * cost as much as the parse (docs/PERFORMANCE.md, "The SDK's check of the state"). So a text
 * that cannot hold such a key is parsed plainly: one with none of the three words as a key
 * token and no escape that could spell one. The test is conservative: a text where the words
 * are only string values, or with an escaped letter anywhere, takes the reviver (same result).
 *
 * @example
 * ```ts
 * parseJsonSafely('{"__proto__":{"admin":true},"a":1}'); // → { a: 1 }
 * ```
 */
export function parseJsonSafely(text: string): unknown {
  if (!FORBIDDEN_KEY_TOKEN.test(text) && !ESCAPED_KEY_CHARACTER.test(text)) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value));
}

/**
 * Returns `value` without `__proto__`, `constructor` and `prototype` own keys at any depth.
 * Clean parts keep their identity (the usual case costs one walk and no allocation), so the
 * reducer can call it on every payload without breaking structural sharing.
 */
export function withoutForbiddenKeys<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const cleaned = clean(item);
      if (cleaned !== item) {
        copy ??= value.slice();
        copy[i] = cleaned;
      }
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    if (FORBIDDEN_KEYS.has(key)) {
      copy ??= copyWithoutForbidden(record);
      continue;
    }
    const item = record[key];
    const cleaned = clean(item);
    if (cleaned !== item) {
      copy ??= copyWithoutForbidden(record);
      copy[key] = cleaned;
    }
  }
  return copy ?? value;
}

function copyWithoutForbidden(record: Record<string, unknown>): Record<string, unknown> {
  // defineProperty, not assignment: assignment to a key named `__proto__` would call the
  // prototype setter instead of creating a property.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (!FORBIDDEN_KEYS.has(key)) Object.defineProperty(out, key, descriptor(record[key]));
  }
  return out;
}

function descriptor(value: unknown): PropertyDescriptor {
  return { value, writable: true, enumerable: true, configurable: true };
}
