import type { DeltaEvent, Message, Snapshot, SnapshotEvent } from '@webbridge/contract';
import { PROTOCOL_VERSION } from '@webbridge/contract';

/** Test fixtures: a message with defaults. Not exported from the package. */
export function message(id: string, text = `text of ${id}`, extra: Partial<Message> = {}): Message {
  return {
    id,
    parentId: null,
    role: 'user',
    text,
    status: 'complete',
    createdAt: 1,
    attachments: [],
    sibling: { index: 0, count: 1 },
    ...extra,
  };
}

/** Test fixtures: a snapshot whose conversation holds `messages`. */
export function snapshot(messages: Message[], extra: Partial<Snapshot> = {}): Snapshot {
  return {
    protocol: PROTOCOL_VERSION,
    instanceId: 'instance-1',
    sessionRevision: 1,
    conversationId: 'c1',
    projectId: 'p1',
    conversations: {
      list: [{ id: 'c1', title: 'First', projectId: 'p1', createdAt: 1 }],
      messages,
      pending: [],
      run: { state: 'idle', messageId: null },
    },
    projects: {
      list: [{ id: 'p1', name: 'P', workspace: { uri: 'file:///w', name: 'w' }, createdAt: 1 }],
      roots: [{ uri: 'file:///w', name: 'w' }],
    },
    models: { current: 'echo', list: [{ id: 'echo', name: 'Echo', provider: 'local' }] },
    tools: { list: [] },
    approvals: [],
    settings: { theme: 'system', autoApprove: [], allowCommands: false, systemPrompt: '' },
    ...extra,
  };
}

/** Test fixtures: a snapshot event. */
export function snapshotEvent(seq: number, state: Snapshot, signature = 'sig-1'): SnapshotEvent {
  return { kind: 'snapshot', seq, signature, snapshot: state };
}

/** Test fixtures: a delta event from `base` to `base + 1`. */
export function delta(base: number, fields: Omit<DeltaEvent, 'kind' | 'seq' | 'base'> = {}): DeltaEvent {
  return { kind: 'delta', seq: base + 1, base, ...fields };
}
