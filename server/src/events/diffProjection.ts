import { DELTA_PARTS, type HostMessage, type Projection, type ProjectionDelta } from '@webbridge/contract';

/**
 * The delta parts other than the messages, each replaced whole in the delta field named after
 * it (`approvals`, `run`, `pending`), derived from the contract's split (`STATE_PARTS`).
 */
const REPLACED_PARTS = DELTA_PARTS.filter((part) => part.path.at(-1) !== 'messages').map((part) => ({
  field: part.path.at(-1) as Exclude<keyof ProjectionDelta, 'cut' | 'put' | 'set' | 'ap' | 'add'>,
  read: part.read,
}));

/**
 * Computes the delta that turns `prev` into `next` over the contract's delta parts
 * (`DELTA_PARTS`: current messages, approvals, run state, pending attachments).
 *
 * The host keeps unchanged messages by identity, so the work is a pointer walk over the
 * common prefix plus the size of what changed: a streamed word costs one `ap` entry whatever
 * the history length. Returns an empty object when nothing a client sees has changed.
 */
export function diffProjection(prev: Projection, next: Projection): ProjectionDelta {
  const delta: ProjectionDelta = {};
  const before = prev.conversations.messages;
  const after = next.conversations.messages;
  if (before !== after) {
    const shared = Math.min(before.length, after.length);
    let prefix = 0;
    while (prefix < shared && before[prefix]?.id === after[prefix]?.id) prefix++;
    if (prefix < before.length) delta.cut = prefix;
    for (let i = 0; i < prefix; i++) {
      const old = before[i]!;
      const now = after[i]!;
      if (old === now) continue;
      diffMessage(old, now, delta);
    }
    if (prefix < after.length) delta.add = after.slice(prefix);
  }
  for (const { field, read } of REPLACED_PARTS) {
    const was = read(prev);
    const now = read(next);
    if (was !== now && !sameJson(was, now)) (delta as Record<string, unknown>)[field] = now;
  }
  return delta;
}

/** Whether a delta carries nothing. */
export function isEmptyDelta(delta: ProjectionDelta): boolean {
  for (const _ in delta) return false;
  return true;
}

/**
 * The smallest description of one message's change: grown text as an append, other changed
 * fields as a patch, and the whole message only when a field was removed (JSON cannot say
 * "undefined").
 */
function diffMessage(old: HostMessage, now: HostMessage, delta: ProjectionDelta): void {
  const a = old as unknown as Record<string, unknown>;
  const b = now as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  let changed = false;
  for (const key of Object.keys(a)) {
    if (!(key in b) || b[key] === undefined) {
      if (a[key] !== undefined) {
        delta.put ??= [];
        delta.put.push(now);
        return;
      }
    }
  }
  for (const key of Object.keys(b)) {
    if (key === 'text' || key === 'id' || a[key] === b[key] || sameJson(a[key], b[key])) continue;
    fields[key] = b[key];
    changed = true;
  }
  const appended = now.text.length > old.text.length && now.text.startsWith(old.text);
  if (now.text !== old.text && !appended) {
    fields.text = now.text;
    changed = true;
  }
  if (changed) {
    delta.set ??= [];
    delta.set.push([now.id, fields as Partial<Omit<HostMessage, 'id'>>]);
  }
  if (appended) {
    delta.ap ??= [];
    delta.ap.push([now.id, old.text.length, now.text.slice(old.text.length)]);
  }
}

/** Structural equality for the small JSON values of a message (sibling, tool, attachments). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const key of ka) if (!sameJson(ra[key], rb[key])) return false;
  return true;
}
