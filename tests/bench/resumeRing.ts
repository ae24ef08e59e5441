/**
 * The server's resume ring (server/src/events/ResumeRing.ts), measured: what it holds and what
 * it really costs in memory after a long reply streams in a 240-exchange conversation, against
 * its own estimate and against the 128 projections the event hub kept before it. Projections
 * are built as the reference host publishes them (a new message list per streamed word, every
 * other message and group shared). The retained heap is measured after a full GC.
 *
 * Run: node --expose-gc --import tsx tests/bench/resumeRing.ts (also run by tests/bench/run.ts)
 */
import type { HostMessage, Projection } from '@webbridge/contract';
import { aHostMessage, aProjection } from '@webbridge/contract/testing';
import { RESUME_RING_LIMITS, ResumeRing } from '../../server/src/events/ResumeRing';
import { printTable } from './table';

const EXCHANGES = 240;
/** A long reply: 3,000 words at the echo model's default 30 ms is 90 s, past the 60 s bound. */
const WORDS = 3_000;
const WORD_MS = 30;

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

function message(id: string, role: HostMessage['role'], text: string): HostMessage {
  return aHostMessage({ id, role, text });
}

/** Every projection a streamed reply publishes, oldest first, with its publication time. */
function publish(): { at: number; state: Projection }[] {
  const history: HostMessage[] = [];
  for (let i = 0; i < EXCHANGES; i++) {
    history.push(message(`q${i}`, 'user', `Question ${i}: ${'how does it work? '.repeat(3)}`));
    history.push(
      message(`a${i}`, 'assistant', `Answer ${i}: ${'it keeps the state and sends deltas. '.repeat(8)}`),
    );
  }
  let state: Projection = aProjection({
    instanceId: 'bench',
    sessionRevision: 1,
    conversations: { messages: history },
  });
  const out = [{ at: 0, state }];
  let reply: HostMessage = { ...message('r', 'assistant', ''), status: 'streaming' };
  const run = { state: 'streaming', messageId: 'r' } as const;
  state = {
    ...state,
    conversations: { ...state.conversations, run, messages: [...history, message('u', 'user', 'go'), reply] },
  };
  out.push({ at: WORD_MS, state });
  for (let i = 0; i < WORDS; i++) {
    reply = { ...reply, text: `${reply.text} word${i}` };
    const messages = state.conversations.messages.slice();
    messages[messages.length - 1] = reply;
    state = { ...state, conversations: { ...state.conversations, messages } };
    out.push({ at: (i + 2) * WORD_MS, state });
  }
  return out;
}

/** Heap used after a full collection, in bytes. */
function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

/**
 * Pushes every projection of {@link publish} into a fresh ring, in a function of its own: the
 * projections must be unreachable once it returns (a loop in the module's top level keeps its
 * iterator, and so every projection, alive in the frame).
 */
function fillRing(): { ring: ResumeRing; latest: Projection; setNow: (ms: number) => void } {
  let now = 0;
  const ring = new ResumeRing(RESUME_RING_LIMITS, () => now);
  const states = publish();
  for (const [seq, { at, state }] of states.entries()) {
    now = at;
    ring.push(seq, state);
  }
  return { ring, latest: states.at(-1)!.state, setNow: (ms) => (now = ms) };
}

/** The same projections in the hub's former history: a Map of the last 128. */
function fillMap(): { map: Map<number, Projection>; latest: Projection } {
  const map = new Map<number, Projection>();
  const states = publish();
  for (const [seq, { state }] of states.entries()) {
    map.set(seq, state);
    if (map.size > 128) map.delete(map.keys().next().value!);
  }
  return { map, latest: states.at(-1)!.state };
}

const rows: Record<string, string | number>[] = [];

{
  const { ring, latest } = fillRing();
  const withRing = heap();
  const { entries, bytes, oldestMs } = ring.size;
  // A resume 20 s back: what it rebuilds, and how long that takes.
  const seq = WORDS + 1 - Math.round(20_000 / WORD_MS);
  const started = performance.now();
  const rebuilt = ring.at(seq) !== undefined;
  const rebuildMs = performance.now() - started;
  // What the ring alone keeps: the heap with it, less the heap once it holds only the latest.
  ring.clear();
  ring.push(WORDS + 1, latest);
  const held = withRing - heap();
  rows.push({
    kept: 'resume ring (60 s, 1 MiB)',
    entries,
    'oldest (s)': (oldestMs / 1000).toFixed(1),
    estimate: kib(bytes),
    'measured heap': kib(held),
    'rebuild 20 s back (ms)': rebuilt ? rebuildMs.toFixed(2) : 'gone',
  });
}

{
  const { map, latest } = fillMap();
  const withMap = heap();
  const oldest = Math.min(...map.keys());
  map.clear();
  map.set(WORDS + 1, latest);
  const held = withMap - heap();
  rows.push({
    kept: 'before: last 128 projections',
    entries: 128,
    'oldest (s)': (((WORDS + 1 - oldest) * WORD_MS) / 1000).toFixed(1),
    estimate: '-',
    'measured heap': kib(held),
    'rebuild 20 s back (ms)': 'gone',
  });
}

printTable(
  `Resume ring after a ${WORDS}-word reply (${WORD_MS} ms a word) in a ${EXCHANGES}-exchange conversation`,
  rows,
);
