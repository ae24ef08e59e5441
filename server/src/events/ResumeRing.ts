import type { HostMessage, Projection } from '@webbridge/contract';
import { diffProjection } from './diffProjection';
import { newJsonLength } from './newJsonLength';
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
 * The byte bound counts the change each entry retains: twice the JSON length (strings are
 * UTF-16 at worst) of its message changes and of what is new in its other groups since the
 * entry before (a group that is a new object counts its members that are new objects or
 * values, not the ones it shares: {@link newJsonLength}), plus a fixed overhead per entry. The
 * anchor's list of references (8 bytes per message) is not counted: it exists once, whatever
 * the number of entries.
 *
 * A push is on the path of every applied action, so it allocates only the entry and its two
 * shallow copies: the estimate walks the values instead of stringifying them, and expired
 * entries are dropped by moving a start index (the array is compacted once half of it is
 * expired), not by a splice per push (docs/PERFORMANCE.md, "Request rate: the applied action
 * again").
 */
export class ResumeRing {
  /** Oldest first from {@link ResumeRing.head}; the slots before it are expired (undefined). */
  private entries: (Entry | undefined)[] = [];
  /** Index of the oldest entry still held. */
  private head = 0;
  /** The messages at `entries[head]`, owned by the ring (updated in place as entries expire). */
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
    this.head = 0;
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
      (changes === undefined ? 0 : 2 * newJsonLength(undefined, changes)) +
      (previous === undefined ? 0 : newGroupBytes(previous.state, state));
    if (this.head === this.entries.length) this.anchor = [...state.conversations.messages];
    const now = this.now();
    this.entries.push({ seq, at: now, rest: withoutMessages(state), changes, bytes });
    this.retained += bytes;
    this.latest = { seq, state };
    this.expire(now);
  }

  /** The projection at `seq`, while the ring still holds it. */
  at(seq: number): Projection | undefined {
    this.expire(this.now());
    if (this.latest?.seq === seq) return this.latest.state;
    const index = this.indexOf(seq);
    if (index < 0) return undefined;
    const messages = [...this.anchor];
    for (let i = this.head + 1; i <= index; i++) {
      const changes = this.entries[i]?.changes;
      if (changes !== undefined) replayMessages(messages, changes);
    }
    const { rest } = this.entries[index]!;
    return { ...rest, conversations: { ...rest.conversations, messages } };
  }

  /** How many projections are held, their estimated retained bytes and the oldest's age. */
  get size(): { entries: number; bytes: number; oldestMs: number } {
    const oldest = this.entries[this.head];
    return {
      entries: this.entries.length - this.head,
      bytes: this.retained,
      oldestMs: oldest === undefined ? 0 : this.now() - oldest.at,
    };
  }

  /** Drops the oldest entries past either bound, always keeping the latest. */
  private expire(now: number): void {
    const { entries } = this;
    const cutoff = now - this.limits.maxAgeMs;
    const last = entries.length - 1;
    let head = this.head;
    let bytes = this.retained;
    while (head < last) {
      const oldest = entries[head]!;
      if (oldest.at >= cutoff && bytes <= this.limits.maxBytes) break;
      bytes -= oldest.bytes;
      // The slot lets go of the entry now: an expired projection must not outlive the bound.
      entries[head] = undefined;
      head++;
      // The next entry becomes the oldest: its messages become the anchor.
      const next = entries[head]!;
      if (next.changes !== undefined) replayMessages(this.anchor, next.changes);
      next.changes = undefined;
    }
    if (head === this.head) return;
    this.head = head;
    this.retained = bytes;
    // Compacted once half the array is expired slots: linear in the pushes, not one splice of
    // the whole ring per push (a full ring expires one entry per push).
    if (head >= 64 && head * 2 >= entries.length) {
      this.entries = entries.slice(head);
      this.head = 0;
    }
  }

  private indexOf(seq: number): number {
    let low = this.head;
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

/** Bytes of what is new in the groups of `next` since `prev` (the host shares unchanged ones). */
function newGroupBytes(prev: Projection, next: Projection): number {
  let bytes = 0;
  const a = prev as unknown as Record<string, unknown>;
  const b = next as unknown as Record<string, unknown>;
  for (const key in b) {
    if (key !== 'conversations') bytes += 2 * newJsonLength(a[key], b[key]);
  }
  if (prev.conversations === next.conversations) return bytes;
  const ca = prev.conversations as unknown as Record<string, unknown>;
  const cb = next.conversations as unknown as Record<string, unknown>;
  for (const key in cb) {
    if (key !== 'messages') bytes += 2 * newJsonLength(ca[key], cb[key]);
  }
  return bytes;
}
