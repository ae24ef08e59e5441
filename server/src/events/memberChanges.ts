/** Marks a member that `next` no longer has, in {@link MemberChanges}. */
const ABSENT: unique symbol = Symbol('absent');

/**
 * The members of an object that are new since the object before it (by identity), keyed by
 * name; a member that is gone maps to a marker. What the resume ring keeps of a projection's
 * groups per entry instead of a copy of the projection.
 */
export type MemberChanges = Record<string, unknown>;

/**
 * The members of `next` that are not identical (`===`) to `prev`'s of the same name, and those
 * `prev` had and `next` has not, skipping `skip` (a member kept another way); undefined when
 * none changed. Allocates only when something changed.
 */
export function memberChanges(prev: object, next: object, skip: string): MemberChanges | undefined {
  const a = prev as Record<string, unknown>;
  const b = next as Record<string, unknown>;
  let changes: MemberChanges | undefined;
  // for…in, not Object.keys: no array per call (plain JSON objects: no inherited enumerables).
  for (const key in b) {
    if (key === skip || a[key] === b[key]) continue;
    changes ??= {};
    changes[key] = b[key];
  }
  for (const key in a) {
    if (key === skip || key in b) continue;
    changes ??= {};
    changes[key] = ABSENT;
  }
  return changes;
}

/** Applies {@link memberChanges} to `target` in place (the ring's own copy). */
export function applyMembers(target: Record<string, unknown>, changes: MemberChanges): void {
  for (const key in changes) {
    const value = changes[key];
    if (value === ABSENT) delete target[key];
    else target[key] = value;
  }
}
