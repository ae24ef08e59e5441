import type { Approval, HostAttachment, HostMessage, Projection, RunStatus } from '@webbridge/contract';

/** What changed between two projections, over host messages (media ids are added on the wire). */
export interface ProjectionDelta {
  cut?: number;
  put?: HostMessage[];
  ap?: [string, number, string][];
  add?: HostMessage[];
  approvals?: Approval[];
  run?: RunStatus;
  pending?: HostAttachment[];
}

/**
 * Computes the delta that turns `prev` into `next`, outside the configuration signature
 * (current messages, approvals, run state, pending attachments).
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
      if (isTextAppend(old, now)) {
        delta.ap ??= [];
        delta.ap.push([now.id, old.text.length, now.text.slice(old.text.length)]);
      } else if (!sameMessage(old, now)) {
        delta.put ??= [];
        delta.put.push(now);
      }
    }
    if (prefix < after.length) delta.add = after.slice(prefix);
  }
  if (prev.approvals !== next.approvals && !sameJson(prev.approvals, next.approvals)) {
    delta.approvals = next.approvals;
  }
  const run = next.conversations.run;
  if (prev.conversations.run !== run && !sameJson(prev.conversations.run, run)) delta.run = run;
  const pending = next.conversations.pending;
  if (prev.conversations.pending !== pending && !sameJson(prev.conversations.pending, pending)) {
    delta.pending = pending;
  }
  return delta;
}

/** Whether a delta carries nothing. */
export function isEmptyDelta(delta: ProjectionDelta): boolean {
  for (const _ in delta) return false;
  return true;
}

/** `now` is `old` with text appended and nothing else changed. */
function isTextAppend(old: HostMessage, now: HostMessage): boolean {
  return now.text.length > old.text.length && now.text.startsWith(old.text) && sameExceptText(old, now);
}

function sameMessage(old: HostMessage, now: HostMessage): boolean {
  return old.text === now.text && sameExceptText(old, now);
}

function sameExceptText(old: HostMessage, now: HostMessage): boolean {
  const a = old as unknown as Record<string, unknown>;
  const b = now as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (key === 'text' || a[key] === b[key]) continue;
    if (!sameJson(a[key], b[key])) return false;
  }
  return true;
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
