import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import type { DeltaEvent, Message, Snapshot, StreamEvent } from '@webbridge/contract';
import { mockSnapshotEvent } from './mockEventStream';
import { mockScenario } from './mockScenario';

/** The mock backend's state: the synced snapshot, per-conversation histories, forks and files. */
export interface MockStore {
  /** The current state. */
  state(): Snapshot;
  /** The current state with its seq and signature. */
  sync(): SyncState;
  /** The messages of the current conversation. */
  messages(): Message[];
  /** The last message of the current conversation. */
  last(): Message | undefined;
  /** A fresh id with `prefix`. */
  nextId(prefix: string): string;
  /** A new message that follows the last one. */
  message(role: Message['role'], text: string, status: Message['status'], extra?: Partial<Message>): Message;
  /** Replaces the configuration (anything but messages/run/approvals/pending): a snapshot. */
  reconfigure(next: Snapshot): void;
  /** Sends a delta and applies it to our own state with the SDK's reducer. */
  delta(fields: Omit<DeltaEvent, 'kind' | 'seq' | 'base'>): void;
  /** Replaces the tail from index `at` with `tail`, remembering the old one as a sibling. */
  fork(at: number, tail: Message[]): Message[];
  /** Moves to another conversation, with its remembered history. */
  moveTo(conversationId: string, list: Snapshot['conversations']['list']): void;
  /** Moves to `conversationId`, or to any other conversation (a host-side switch). */
  hostSwitch(conversationId?: string): void;
  /** Runs `step` after `ms`, in place of any step still waiting. */
  schedule(step: () => void, ms: number): void;
  /** Cancels the step still waiting, if any. */
  cancel(): void;
  /** Message histories by conversation id. */
  readonly histories: Map<string, Message[]>;
  /** Versions of a tail, by `conversationId:index`. */
  readonly forks: Map<string, Message[][]>;
  /** Uploaded files by attachment id. */
  readonly files: Map<string, Blob>;
}

/** Creates the store, starting from the mock scenario; every change is written to `write`. */
export function createMockStore(write: (event: StreamEvent) => void): MockStore {
  let sync: SyncState = { seq: 1, signature: 'mock-1', snapshot: mockScenario() };
  const histories = new Map<string, Message[]>([
    [sync.snapshot.conversationId, sync.snapshot.conversations.messages],
  ]);
  const forks = new Map<string, Message[][]>();
  const files = new Map<string, Blob>();
  let ids = 100;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const nextId = (prefix: string) => `${prefix}${++ids}`;
  const state = () => sync.snapshot;
  const messages = () => state().conversations.messages;
  const last = () => messages().at(-1);

  const reconfigure = (next: Snapshot) => {
    histories.set(next.conversationId, next.conversations.messages);
    sync = { seq: sync.seq + 1, signature: `mock-${sync.seq + 1}`, snapshot: next };
    write(mockSnapshotEvent(sync));
  };
  const delta = (fields: Omit<DeltaEvent, 'kind' | 'seq' | 'base'>) => {
    const event: DeltaEvent = { kind: 'delta', seq: sync.seq + 1, base: sync.seq, ...fields };
    const result = applyEvent(sync, event);
    if (result.kind !== 'applied') throw new Error(`mock delta refused: ${result.reason}`);
    const run = sync.snapshot.conversations.run.messageId;
    sync = result.state;
    histories.set(sync.snapshot.conversationId, sync.snapshot.conversations.messages);
    // As the bridge does: one word added to the reply being produced goes out as an append.
    const only = Object.keys(fields).length === 1 && fields.ap?.length === 1 ? fields.ap[0] : undefined;
    write(
      only && only[0] === run ? { kind: 'append', seq: event.seq, base: event.base, text: only[2] } : event,
    );
  };
  const message = (
    role: Message['role'],
    text: string,
    status: Message['status'],
    extra: Partial<Message> = {},
  ): Message => ({
    id: nextId('m'),
    parentId: last()?.id ?? null,
    role,
    text,
    status,
    createdAt: Date.now(),
    attachments: [],
    sibling: { index: 0, count: 1 },
    ...extra,
  });
  const fork = (at: number, tail: Message[]) => {
    const key = `${state().conversationId}:${at}`;
    const tails = forks.get(key) ?? [messages().slice(at)];
    tails.push(tail);
    forks.set(key, tails);
    const heads = tails.map((t, index) =>
      t[0] ? { ...t[0], sibling: { index, count: tails.length } } : undefined,
    );
    tails.forEach((t, i) => {
      const head = heads[i];
      if (head) t[0] = head;
    });
    return tails[tails.length - 1] ?? tail;
  };
  const moveTo = (conversationId: string, list: Snapshot['conversations']['list']) => {
    clearTimeout(timer);
    reconfigure({
      ...state(),
      conversationId,
      sessionRevision: state().sessionRevision + 1,
      conversations: {
        list,
        messages: histories.get(conversationId) ?? [],
        pending: [],
        run: { state: 'idle', messageId: null },
      },
    });
  };
  const hostSwitch = (conversationId?: string) => {
    const target =
      conversationId ?? state().conversations.list.find((c) => c.id !== state().conversationId)?.id;
    if (target) moveTo(target, state().conversations.list);
  };

  return {
    state,
    sync: () => sync,
    messages,
    last,
    nextId,
    message,
    reconfigure,
    delta,
    fork,
    moveTo,
    hostSwitch,
    schedule(step, ms) {
      timer = setTimeout(step, ms);
    },
    cancel() {
      clearTimeout(timer);
    },
    histories,
    forks,
    files,
  };
}
