import type { Message, Snapshot } from '@webbridge/contract';
import { ALL_PARTS, MESSAGES_PART } from './snapshotParts';

/**
 * A fresh snapshot that reuses the parts of `previous` it equals: each message equal to the
 * previous message with the same id, and each part of the contract's split (`STATE_PARTS`:
 * conversation list, projects, models, tools, approvals, settings, pending, run…) equal to the
 * previous one, keep their previous identity. A full snapshot (reconnect, a configuration
 * change, the code check before the stream) then re-renders only what changed, as a delta
 * does. The result deep-equals `next`; the cost is one comparison of each message, without
 * parsing anything again.
 *
 * @example
 * ```ts
 * store.replaceSnapshot(shareUnchanged(store.getState().snapshot, fresh));
 * ```
 */
export function shareUnchanged(previous: Snapshot | null, next: Snapshot): Snapshot {
  if (previous === null || previous === next) return next;
  const before = previous as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  // Keys outside the parts (the protocol number) come from `next` as they are.
  const shared: Record<string, unknown> = { ...after };
  // The groups split per field, each a copy of `next`'s that the loop fills in.
  let groups: Map<string, Record<string, unknown>> | undefined;
  for (const part of ALL_PARTS) {
    const was = part.read(previous);
    const now = part.read(next);
    const value =
      part === MESSAGES_PART ? shareMessages(was as readonly Message[], now as Message[]) : same(was, now);
    const [key, inner] = part.path;
    // An optional group (the agents) that the fresh snapshot does not have stays absent: a key
    // holding undefined would make every snapshot of an older host look changed.
    if (!Object.hasOwn(after, key)) continue;
    if (inner === undefined) {
      shared[key] = value;
      continue;
    }
    groups ??= new Map();
    let group = groups.get(key);
    if (group === undefined) {
      group = { ...(after[key] as Record<string, unknown>) };
      groups.set(key, group);
    }
    group[inner] = value;
  }
  for (const [key, group] of groups ?? []) shared[key] = sameParts(before[key], group);
  return sameParts(before, shared) as unknown as Snapshot;
}

function shareMessages(before: readonly Message[], after: Message[]): Message[] {
  if (before.length === 0 || after.length === 0) return after;
  // Usually the same ids at the same places; an id map covers branch switches and cuts.
  let byId: Map<string, Message> | undefined;
  let changed = before.length !== after.length;
  const shared = after.map((message, i) => {
    let old = before[i];
    if (old?.id !== message.id) {
      byId ??= new Map(before.map((m) => [m.id, m]));
      old = byId.get(message.id);
    }
    if (old !== undefined && equal(old, message)) return old;
    changed = true;
    return message;
  });
  return changed ? shared : (before as Message[]);
}

/** `previous` when `next` has the same keys holding the very same values, else `next`. */
function sameParts(previous: unknown, next: Record<string, unknown>): Record<string, unknown> {
  if (typeof previous !== 'object' || previous === null) return next;
  const a = previous as Record<string, unknown>;
  const b = next;
  const keys = Object.keys(b);
  if (keys.length !== Object.keys(a).length) return next;
  for (const key of keys) if (!Object.hasOwn(a, key) || a[key] !== b[key]) return next;
  return a;
}

function same<T>(previous: T, next: T): T {
  return equal(previous, next) ? previous : next;
}

/** Deep equality of JSON data (what a snapshot is made of). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) if (!Object.hasOwn(y, key) || !equal(x[key], y[key])) return false;
  return true;
}
