import type { HostMessage, Projection } from '@webbridge/contract';
import { diffProjection } from './diffProjection';
import { type MessageChanges, replayMessages } from './replayMessages';

/** How much recent history a {@link ResumeRing} keeps; whichever bound is reached first wins. */
export interface ResumeRingLimits {
  /**
   * Projections older than this (by when they were published) are forgotten.
   * @default 60000
   */
  readonly maxAgeMs: number;
  /**
   * Estimated bytes of retained change (see {@link ResumeRing}) the ring may hold.
   * @default 1048576 (1 MiB)
   */
  readonly maxBytes: number;
}

/** The default bound: 60 s and 1 MiB of retained change. */
export const RESUME_RING_LIMITS: ResumeRingLimits = { maxAgeMs: 60_000, maxBytes: 1024 * 1024 };

/**
 * What one entry costs beyond its change, in bytes: the entry, its two shallow copies of the
 * projection's outer objects, their property slots, the change's own arrays. Measured: about
 * 640 bytes per entry of one streamed word, 60 of them the word's change (tests/bench/resumeRing.ts).
 */
const ENTRY_OVERHEAD = 576;

interface Entry {
  readonly seq: number;
  readonly at: number;
  /** The projection without its messages (they are rebuilt from the anchor and the changes). */
  readonly rest: Projection;
  /** What turned the previous entry's messages into this one's; undefined for the oldest. */
  changes: MessageChanges | undefined;
  readonly bytes: number;
}

const NO_MESSAGES: readonly HostMessage[] = Object.freeze([]);

/**
 * The recent projections a reconnecting client may resume from, bounded in time and bytes.
 *
 * Keeping every projection would keep a copy of the message list per streamed word (a
 * 240-exchange conversation's list is ~4 KB of references; a 600-word reply publishes 600
 * projections). The ring keeps instead, per projection, only what changed in its messages (a
 * streamed word: one append), its other groups by reference (the host shares unchanged ones),
 * and one list of messages: the oldest entry's (the anchor, a private copy). A projection is
 * rebuilt on demand by replaying the changes onto a copy of the anchor; resumes are rare and
 * the rebuild costs one list copy plus the changes.
 *
 * The byte bound counts the change each entry retains: twice the JSON length of its message
 * changes (strings are UTF-16 at worst) and of the groups that are new objects since the
 * entry before, plus a fixed overhead per entry. The anchor's list of references (8 bytes
 * per message) is not counted: it exists once, whatever the number of entries.
 */
export class ResumeRing {
  private entries: Entry[] = [];
  /** The messages at `entries[0]`, owned by the ring (updated in place as entries expire). */
  private anchor: HostMessage[] = [];
  private latest: { seq: number; state: Projection } | undefined;
  private retained = 0;

  constructor(
    private readonly limits: ResumeRingLimits = RESUME_RING_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets everything: no seq can be resumed until the next {@link ResumeRing.push}. */
  clear(): void {
    this.entries = [];
    this.anchor = [];
    this.retained = 0;
    this.latest = undefined;
  }

  /** Records the projection published at `seq` (seqs increase). */
  push(seq: number, state: Projection): void {
    const previous = this.latest;
    const changes = previous === undefined ? undefined : messageChanges(previous.state, state);
    const bytes =
      ENTRY_OVERHEAD +
      (changes === undefined ? 0 : 2 * JSON.stringify(changes).length) +
      (previous === undefined ? 0 : newGroupBytes(previous.state, state));
    if (this.entries.length === 0) this.anchor = [...state.conversations.messages];
    this.entries.push({ seq, at: this.now(), rest: withoutMessages(state), changes, bytes });
    this.retained += bytes;
    this.latest = { seq, state };
    this.expire();
  }

  /** The projection at `seq`, while the ring still holds it. */
  at(seq: number): Projection | undefined {
    this.expire();
    if (this.latest?.seq === seq) return this.latest.state;
    const index = this.indexOf(seq);
    if (index < 0) return undefined;
    const messages = [...this.anchor];
    for (let i = 1; i <= index; i++) {
      const changes = this.entries[i]?.changes;
      if (changes !== undefined) replayMessages(messages, changes);
    }
    const { rest } = this.entries[index]!;
    return { ...rest, conversations: { ...rest.conversations, messages } };
  }

  /** How many projections are held, their estimated retained bytes and the oldest's age. */
  get size(): { entries: number; bytes: number; oldestMs: number } {
    const oldest = this.entries[0];
    return {
      entries: this.entries.length,
      bytes: this.retained,
      oldestMs: oldest === undefined ? 0 : this.now() - oldest.at,
    };
  }

  /** Drops the oldest entries past either bound, always keeping the latest. */
  private expire(): void {
    const cutoff = this.now() - this.limits.maxAgeMs;
    let drop = 0;
    let bytes = this.retained;
    while (this.entries.length - drop > 1) {
      const oldest = this.entries[drop]!;
      if (oldest.at >= cutoff && bytes <= this.limits.maxBytes) break;
      bytes -= oldest.bytes;
      drop++;
      // The next entry becomes the oldest: its messages become the anchor.
      const next = this.entries[drop]!;
      if (next.changes !== undefined) replayMessages(this.anchor, next.changes);
      next.changes = undefined;
    }
    if (drop === 0) return;
    // One splice per call, not one shift per entry: a burst of expiries stays linear.
    this.entries.splice(0, drop);
    this.retained = bytes;
  }

  private indexOf(seq: number): number {
    let low = 0;
    let high = this.entries.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.entries[middle]!.seq;
      if (found === seq) return middle;
      if (found < seq) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

function messageChanges(prev: Projection, next: Projection): MessageChanges | undefined {
  if (prev.conversations.messages === next.conversations.messages) return undefined;
  const { cut, put, set, ap, add } = diffProjection(prev, next);
  const changes: MessageChanges = {};
  if (cut !== undefined) changes.cut = cut;
  if (put !== undefined) changes.put = put;
  if (set !== undefined) changes.set = set;
  if (ap !== undefined) changes.ap = ap;
  if (add !== undefined) changes.add = add;
  return changes;
}

/** A shallow copy without the message list, so the ring does not keep one list per entry. */
function withoutMessages(state: Projection): Projection {
  return { ...state, conversations: { ...state.conversations, messages: NO_MESSAGES as HostMessage[] } };
}

/** Bytes of the groups that are new objects in `next` (the host shares unchanged ones). */
function newGroupBytes(prev: Projection, next: Projection): number {
  let bytes = 0;
  const a = prev as unknown as Record<string, unknown>;
  const b = next as unknown as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (key !== 'conversations' && a[key] !== b[key]) bytes += 2 * (JSON.stringify(b[key])?.length ?? 0);
  }
  const ca = prev.conversations as unknown as Record<string, unknown>;
  const cb = next.conversations as unknown as Record<string, unknown>;
  for (const key of Object.keys(cb)) {
    if (key !== 'messages' && ca[key] !== cb[key]) bytes += 2 * (JSON.stringify(cb[key])?.length ?? 0);
  }
  return bytes;
}
