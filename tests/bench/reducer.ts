/**
 * The SDK's reducer on a 10,000-message state: one compact append, one `ap` delta, one `add`
 * delta. Median of many batches, in microseconds per applied event.
 * Run: node --expose-gc --import tsx tests/bench/reducer.ts
 */
import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import type { Message, StreamEvent } from '@webbridge/contract';
import { aConversationSummary, aMessage, aSnapshot } from '@webbridge/contract/testing';
import { printTable, quantile } from './table';
import { words } from './words';

const MESSAGES = 10_000;
const BATCHES = 200;
const PER_BATCH = 200;

function message(i: number, status: Message['status'] = 'complete'): Message {
  return aMessage({
    id: `m${i.toString(36).padStart(8, '0')}`,
    parentId: i === 0 ? null : `m${(i - 1).toString(36).padStart(8, '0')}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    text: words(30, i + 1),
    status,
    createdAt: 1_700_000_000_000 + i,
  });
}

function state(): SyncState {
  const messages = Array.from({ length: MESSAGES }, (_, i) =>
    message(i, i === MESSAGES - 1 ? 'streaming' : 'complete'),
  );
  const last = messages[MESSAGES - 1]!;
  return {
    seq: 1000,
    signature: 'bench',
    snapshot: aSnapshot({
      instanceId: 'bench-instance',
      sessionRevision: 3,
      conversationId: 'c1',
      projectId: 'p1',
      conversations: {
        list: [aConversationSummary({ title: 'bench' })],
        messages,
        run: { state: 'streaming', messageId: last.id },
      },
    }),
  } as SyncState;
}

/** Median µs per `applyEvent(base, event)` over many batches. */
function time(base: SyncState, event: StreamEvent): number {
  const samples: number[] = [];
  let sink = 0;
  for (let b = 0; b < BATCHES; b++) {
    const start = performance.now();
    for (let i = 0; i < PER_BATCH; i++) {
      const result = applyEvent(base, event);
      if (result.kind !== 'applied') throw new Error(`resync: ${result.reason}`);
      sink += result.state.seq;
    }
    samples.push(((performance.now() - start) * 1000) / PER_BATCH);
  }
  if (sink === 0) console.log(sink);
  return quantile(samples, 0.5);
}

const base = state();
const last = base.snapshot.conversations.messages.at(-1)!;
const events: [string, StreamEvent][] = [
  ['compact append [base, "word "]', { kind: 'append', seq: 1001, base: 1000, text: 'word ' }],
  [
    'delta { ap: [[id, offset, "word "]] }',
    { kind: 'delta', seq: 1001, base: 1000, ap: [[last.id, last.text.length, 'word ']] },
  ],
  ['delta { add: [message] }', { kind: 'delta', seq: 1001, base: 1000, add: [message(MESSAGES)] }],
];
// Warm up the JIT on every shape before measuring.
for (const [, event] of events) time(base, event);
const gc = (globalThis as { gc?: () => void }).gc;
const rows = events.map(([name, event]) => {
  gc?.();
  return { event: name, messages: MESSAGES, 'µs/op (median)': time(base, event) };
});
printTable(`(d) reducer: one event into a ${MESSAGES.toLocaleString('en')}-message state`, rows);
