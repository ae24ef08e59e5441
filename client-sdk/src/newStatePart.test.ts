import type { Snapshot } from '@webbridge/contract';
import { deltaEventSchema, snapshotEventSchema, snapshotSchema } from '@webbridge/contract';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type ApplyResult, applyEvent, type SyncState } from './reducer';
import { shareUnchanged } from './shareUnchanged';
import { createStore } from './store';
import { message, snapshot } from './testing/fixtures';

/**
 * A copy of the contract with groups it does not have yet, put on a side of the state split
 * as the contract demands of a new group: `drafts` (a whole group that travels in deltas),
 * `conversations.typing` (a field of a split group that travels in deltas) and `theme` (a
 * configuration group, which only snapshots carry). The SDK must carry them without being told.
 */
vi.mock('@webbridge/contract', async (importOriginal) => {
  const contract = await importOriginal<typeof import('@webbridge/contract')>();
  const read = (path: string[]) => (state: unknown) =>
    path.reduce((value, key) => (value as Record<string, unknown>)[key], state);
  return {
    ...contract,
    STATE_PARTS: {
      ...contract.STATE_PARTS,
      conversations: { ...contract.STATE_PARTS.conversations, typing: 'delta' },
      drafts: 'delta',
      theme: 'configuration',
    },
    CONFIGURATION_PARTS: [...contract.CONFIGURATION_PARTS, { path: ['theme'], read: read(['theme']) }],
    DELTA_PARTS: [
      ...contract.DELTA_PARTS,
      { path: ['conversations', 'typing'], read: read(['conversations', 'typing']) },
      { path: ['drafts'], read: read(['drafts']) },
    ],
  };
});

/** The copy of the schema: the wire carries the new groups (zod would strip unknown keys). */
const draftSchema = z.object({ conversationId: z.string(), text: z.string() });
const typingSchema = z.array(z.string());
const wideSnapshotEvent = snapshotEventSchema.extend({
  snapshot: snapshotSchema.extend({
    conversations: snapshotSchema.shape.conversations.extend({ typing: typingSchema }),
    drafts: z.array(draftSchema),
    theme: z.object({ accent: z.string() }),
  }),
});
const wideDeltaEvent = deltaEventSchema.extend({
  drafts: z.array(draftSchema).optional(),
  typing: typingSchema.optional(),
});

type Wide = Snapshot & {
  conversations: Snapshot['conversations'] & { typing: string[] };
  drafts: { conversationId: string; text: string }[];
  theme: { accent: string };
};

function wide(typing: string[] = [], drafts: Wide['drafts'] = []): Wide {
  const base = snapshot([message('a', 'hi')]);
  return {
    ...base,
    conversations: { ...base.conversations, typing },
    drafts,
    theme: { accent: 'teal' },
  };
}

/** A snapshot event read from the wire through the copy of the schema. */
function snapshotFromWire(seq: number, state: Wide) {
  return wideSnapshotEvent.parse(
    JSON.parse(JSON.stringify({ kind: 'snapshot', seq, signature: 'sig-1', snapshot: state })),
  ) as never;
}

function applied(result: ApplyResult): SyncState {
  if (result.kind !== 'applied') throw new Error(`expected applied, got resync (${result.reason})`);
  return result.state;
}

describe('a group added to the contract reaches the client state', () => {
  it('a delta carrying a new group, whole or a field of a split group, changes it in the state', () => {
    const start = applied(applyEvent(null, snapshotFromWire(10, wide())));
    const event = wideDeltaEvent.parse({
      kind: 'delta',
      seq: 11,
      base: 10,
      drafts: [{ conversationId: 'c1', text: 'half a thought' }],
      typing: ['phone'],
    });
    const next = applied(applyEvent(start, event as never)).snapshot as Wide;
    expect(next.drafts).toEqual([{ conversationId: 'c1', text: 'half a thought' }]);
    expect(next.conversations.typing).toEqual(['phone']);
    // The parts the delta did not name keep their identity.
    expect(next.conversations.messages).toBe(start.snapshot.conversations.messages);
    expect(next.theme).toBe((start.snapshot as Wide).theme);
  });

  it('a delta that names only the new group leaves the rest of the state alone', () => {
    const start = applied(applyEvent(null, snapshotFromWire(10, wide(['desk']))));
    const event = wideDeltaEvent.parse({ kind: 'delta', seq: 11, base: 10, typing: [] });
    const next = applied(applyEvent(start, event as never)).snapshot as Wide;
    expect(next.conversations.typing).toEqual([]);
    expect(next.conversations.list).toBe(start.snapshot.conversations.list);
    expect(next.approvals).toBe(start.snapshot.approvals);
  });

  it('a fresh snapshot keeps the new groups, and the identity of those it leaves unchanged', () => {
    const before = wide(['desk'], [{ conversationId: 'c1', text: 'draft' }]);
    const again = JSON.parse(JSON.stringify(before)) as Wide;
    const shared = shareUnchanged(before, again) as Wide;
    expect(shared).toEqual(again);
    expect(shared).toBe(before);

    const changed = JSON.parse(JSON.stringify(before)) as Wide;
    changed.drafts = [];
    const next = shareUnchanged(before, changed) as Wide;
    expect(next).toEqual(changed);
    expect(next.drafts).toEqual([]);
    expect(next.conversations.typing).toBe(before.conversations.typing);
    expect(next.theme).toBe(before.theme);
  });

  it('the store shows the new groups after a snapshot, a delta and a second snapshot', () => {
    const store = createStore();
    store.apply(snapshotFromWire(10, wide()));
    store.apply(wideDeltaEvent.parse({ kind: 'delta', seq: 11, base: 10, typing: ['phone'] }) as never);
    const seen = store.getState().snapshot as Wide;
    expect(seen.conversations.typing).toEqual(['phone']);
    store.apply(snapshotFromWire(12, wide(['phone'])));
    const after = store.getState().snapshot as Wide;
    expect(after.conversations.typing).toBe(seen.conversations.typing);
    expect(after.theme).toBe(seen.theme);
  });
});
