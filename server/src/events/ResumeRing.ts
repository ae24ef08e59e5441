import type { HostMessage, Projection } from '@webbridge/contract';
import { diffProjection } from './diffProjection';
import { applyMembers, type MemberChanges, memberChanges } from './memberChanges';
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
 * What one entry costs beyond its change, in bytes: the entry, the small objects of its changed
 * members and message changes, their property slots. Measured: about 430 bytes of heap per
 * entry of one streamed word, against this plus ~64 estimated for the word's change
 * (tests/bench/resumeRing.ts; 576 while each entry kept two copies of the projection's outer
 * objects).
 */
const ENTRY_OVERHEAD = 400;

interface Entry {
  readonly seq: number;
  readonly at: number;
  /**
   * The projection's members (other than `conversations`) that are new objects or values since
   * the entry before; undefined when none is, and for the oldest (the anchor holds its members).
   */
  members: MemberChanges | undefined;
  /** The same for the members of `conversations` other than `messages`. */
  conversationMembers: MemberChanges | undefined;
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
 * projections). The ring keeps instead, per projection, only what changed since the one before:
 * in its messages (a streamed word: one append), and which of its other members are new
 * objects (a model switch: `models`), by reference (the host shares unchanged ones); and one
 * whole projection: the oldest entry's (the anchor, private copies of its outer objects and
 * message list). A projection is rebuilt on demand by replaying the changes onto copies of the
 * anchor; resumes are rare and the rebuild costs one list copy plus the changes.
 *
 * The byte bound counts the change each entry retains: twice the JSON length (strings are
 * UTF-16 at worst) of its message changes and of what is new in its other groups since the
 * entry before (a group that is a new object counts its members that are new objects or
 * values, not the ones it shares: {@link newJsonLength}), plus a fixed overhead per entry. The
 * anchor's list of references (8 bytes per message) is not counted: it exists once, whatever
 * the number of entries.
 *
 * A push is on the path of every applied action, and what it keeps outlives the young
 * generation (so each retained object is copied by the collector before it is promoted): it
 * allocates the entry and a small object per changed part only, not a copy of the projection;
 * the estimate walks the values instead of stringifying them; expired entries are dropped by
 * moving a start index (the array is compacted once half of it is expired), not by a splice
 * per push (docs/PERFORMANCE.md, "Request rate: the applied action again").
 */
export class ResumeRing {
  /** Oldest first from {@link ResumeRing.head}; the slots before it are expired (undefined). */
  private entries: (Entry | undefined)[] = [];
  /** Index of the oldest entry still held. */
  private head = 0;
  /**
   * The projection at `entries[head]`: copies of its outer object and of its `conversations`
   * (without messages) and of its message list, owned by the ring and updated in place as
   * entries expire.
   */
  private anchor: Anchor | undefined;
  private latestSeq = -1;
  private latestState: Projection | undefined;
  private retained = 0;

  constructor(
    private readonly limits: ResumeRingLimits = RESUME_RING_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets everything: no seq can be resumed until the next {@link ResumeRing.push}. */
  clear(): void {
    this.entries = [];
    this.head = 0;
    this.anchor = undefined;
    this.retained = 0;
    this.latestSeq = -1;
    this.latestState = undefined;
  }

  /** Records the projection published at `seq` (seqs increase). */
  push(seq: number, state: Projection): void {
    const previous = this.latestState;
    const now = this.now();
    this.latestSeq = seq;
    this.latestState = state;
    if (previous === undefined || this.anchor === undefined) {
      this.anchor = anchorOf(state);
      this.entries.push({
        seq,
        at: now,
        members: undefined,
        conversationMembers: undefined,
        changes: undefined,
        bytes: ENTRY_OVERHEAD,
      });
      this.retained += ENTRY_OVERHEAD;
      return;
    }
    const changes = messageChanges(previous, state);
    const members = memberChanges(previous, state, 'conversations');
    const conversationMembers =
      previous.conversations === state.conversations
        ? undefined
        : memberChanges(previous.conversations, state.conversations, 'messages');
    const bytes =
      ENTRY_OVERHEAD +
      (changes === undefined ? 0 : 2 * newJsonLength(undefined, changes)) +
      newMemberBytes(previous, members) +
      newMemberBytes(previous.conversations, conversationMembers);
    this.entries.push({ seq, at: now, members, conversationMembers, changes, bytes });
    this.retained += bytes;
    this.expire(now);
  }

  /** The projection at `seq`, while the ring still holds it. */
  at(seq: number): Projection | undefined {
    this.expire(this.now());
    if (this.latestState !== undefined && this.latestSeq === seq) return this.latestState;
    const index = this.indexOf(seq);
    if (index < 0 || this.anchor === undefined) return undefined;
    const messages = [...this.anchor.messages];
    const rest = { ...this.anchor.rest };
    const conversations = { ...this.anchor.conversations };
    for (let i = this.head + 1; i <= index; i++) {
      const entry = this.entries[i]!;
      if (entry.changes !== undefined) replayMessages(messages, entry.changes);
      if (entry.members !== undefined) applyMembers(rest, entry.members);
      if (entry.conversationMembers !== undefined) applyMembers(conversations, entry.conversationMembers);
    }
    conversations.messages = messages;
    rest.conversations = conversations;
    return rest as unknown as Projection;
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
      // The next entry becomes the oldest: its projection becomes the anchor.
      const next = entries[head]!;
      advance(this.anchor!, next);
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

/** The ring's own copies of a projection's outer objects and message list. */
interface Anchor {
  readonly rest: Record<string, unknown>;
  readonly conversations: Record<string, unknown>;
  readonly messages: HostMessage[];
}

function anchorOf(state: Projection): Anchor {
  const conversations: Record<string, unknown> = { ...state.conversations, messages: NO_MESSAGES };
  return {
    rest: { ...state, conversations },
    conversations,
    messages: [...state.conversations.messages],
  };
}

/** Moves `anchor` forward onto `entry`, which becomes the oldest: it no longer needs its changes. */
function advance(anchor: Anchor, entry: Entry): void {
  if (entry.changes !== undefined) replayMessages(anchor.messages, entry.changes);
  if (entry.members !== undefined) applyMembers(anchor.rest, entry.members);
  if (entry.conversationMembers !== undefined) applyMembers(anchor.conversations, entry.conversationMembers);
  entry.changes = undefined;
  entry.members = undefined;
  entry.conversationMembers = undefined;
}

/** Bytes of what is new in the changed `members` since `prev` (the host shares unchanged ones). */
function newMemberBytes(prev: object, members: MemberChanges | undefined): number {
  if (members === undefined) return 0;
  const before = prev as Record<string, unknown>;
  let bytes = 0;
  for (const key in members) bytes += 2 * newJsonLength(before[key], members[key]);
  return bytes;
}
