import type { DeltaEvent, Message, Snapshot, SnapshotEvent } from '@webbridge/contract';
import { aConversationSummary, aMessage, aSnapshot } from '@webbridge/contract/testing';

/** Test fixtures: a message with defaults. Not exported from the package. */
export function message(id: string, text = `text of ${id}`, extra: Partial<Message> = {}): Message {
  return aMessage({ id, text, ...extra });
}

/**
 * Test fixtures: a snapshot whose conversation `c1` ("First", listed) holds `messages`, in project
 * `p1` (listed, with its workspace) at revision 1, with model `echo` listed.
 */
export function snapshot(messages: Message[], extra: Partial<Snapshot> = {}): Snapshot {
  const base = aSnapshot({
    instanceId: 'instance-1',
    sessionRevision: 1,
    conversationId: 'c1',
    projectId: 'p1',
    conversations: { list: [aConversationSummary()], messages },
    projects: {
      list: [{ id: 'p1', name: 'P', workspace: { uri: 'file:///w', name: 'w' }, createdAt: 1 }],
      roots: [{ uri: 'file:///w', name: 'w' }],
    },
    models: { current: 'echo', list: [{ id: 'echo', name: 'Echo', provider: 'local' }] },
  });
  return { ...base, ...extra };
}

/** Test fixtures: a snapshot event. */
export function snapshotEvent(seq: number, state: Snapshot, signature = 'sig-1'): SnapshotEvent {
  return { kind: 'snapshot', seq, signature, snapshot: state };
}

/** Test fixtures: a delta event from `base` to `base + 1`. */
export function delta(base: number, fields: Omit<DeltaEvent, 'kind' | 'seq' | 'base'> = {}): DeltaEvent {
  return { kind: 'delta', seq: base + 1, base, ...fields };
}
