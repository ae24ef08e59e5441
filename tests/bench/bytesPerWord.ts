/**
 * Bytes on the wire per streamed word while a 2,000-word reply streams after a history of
 * 0, 60 and 240 exchanges, counted off the socket between the send and the end of the run,
 * on two streams at once: one with the default named frames (every append an `event: state`)
 * and one with the SDK's `?frames=compact` (appends without the event line).
 * Run: node --expose-gc --import tsx tests/bench/bytesPerWord.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import type { EventFrames } from '@webbridge/contract';
import { startHost } from '@webbridge/host';
import { BENCH_CODE } from './hostProcess';
import { eventOf, openRawStream } from './rawStream';
import { printTable } from './table';
import { words } from './words';

const REPLY_WORDS = 2000;
const EXCHANGE_WORDS = 40;

/** HTTP/1.1 chunk framing around one write of `n` bytes: `<hex>\r\n...\r\n`. */
const chunkOverhead = (n: number) => n.toString(16).length + 4;

type Row = Record<string, string | number>;

/** One event stream of the benchmark and what it counted while the reply streamed. */
function watch(port: number, frames: EventFrames) {
  let state: SyncState | null = null;
  let counting = false;
  let before = 0;
  const kinds = { append: { n: 0, bytes: 0 }, delta: { n: 0, bytes: 0 }, snapshot: { n: 0, bytes: 0 } };
  let appendPayload = 0;
  const stream = openRawStream({
    port,
    accessCode: BENCH_CODE,
    query: frames === 'compact' ? '?frames=compact' : '',
    onFrame(frame) {
      const event = eventOf(frame);
      if (event === undefined) return;
      if (event.kind === 'append' && (frame.event === undefined) !== (frames === 'compact')) {
        throw new Error(`${frames} stream got an append framed as ${frame.event ?? 'compact'}`);
      }
      const result = applyEvent(state, event);
      if (result.kind !== 'applied') throw new Error(`resync: ${result.reason}`);
      state = result.state;
      if (!counting) return;
      // Close-delimited streams carry no chunk framing; a chunked one would pay it per write.
      const framing = stream.chunked ? chunkOverhead(frame.sseBytes) : 0;
      kinds[event.kind].n++;
      kinds[event.kind].bytes += frame.sseBytes + framing;
      if (event.kind === 'append') appendPayload += Buffer.byteLength(event.text);
    },
  });
  return {
    state: () => state,
    start() {
      counting = true;
      before = stream.socketBytes;
    },
    row(history: number): Row {
      return {
        history,
        frames,
        'append/delta/snapshot frames': `${kinds.append.n}/${kinds.delta.n}/${kinds.snapshot.n}`,
        'B/word, all (send→idle)': (stream.socketBytes - before) / REPLY_WORDS,
        'B/word, append frames': kinds.append.bytes / kinds.append.n,
        'of which the word': appendPayload / kinds.append.n,
        'B in snapshot frames': kinds.snapshot.bytes,
        'B in delta frames': kinds.delta.bytes,
      };
    },
    close: () => stream.close(),
  };
}

async function measure(history: number): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-bench-'));
  const host = await startHost({
    dataDir,
    accessCode: BENCH_CODE,
    echoDelayMs: 1,
    staticDir: null,
    logLevel: 'silent',
  });
  const { controller } = host;
  const idle = () => controller.readState().conversations.run.state === 'idle';
  const waitIdle = async () => {
    while (!idle()) await new Promise((resolve) => setTimeout(resolve, 2));
  };
  try {
    for (let i = 0; i < history; i++) {
      await controller.executor.run(() => controller.messages.send(words(EXCHANGE_WORDS, i + 7)));
      await waitIdle();
    }
    const streams = [watch(host.address.port, 'named'), watch(host.address.port, 'compact')];
    while (streams.some((s) => s.state() === null)) await new Promise((resolve) => setTimeout(resolve, 2));
    const seen = streams[0]?.state();
    if (!seen) throw new Error('no snapshot');
    const text = words(REPLY_WORDS, 99);
    for (const s of streams) s.start();
    const response = await fetch(`${host.url}/api/action`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${BENCH_CODE}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        action: 'send',
        text,
        sessionRevision: seen.snapshot.sessionRevision,
        conversationId: seen.snapshot.conversationId,
        projectId: seen.snapshot.projectId,
      }),
    });
    if (response.status !== 200) throw new Error(`send: ${response.status} ${await response.text()}`);
    const done = (state: SyncState | null) => {
      const s = state?.snapshot;
      const last = s?.conversations.messages.at(-1);
      return s?.conversations.run.state === 'idle' && last?.status === 'complete' && last.text === text;
    };
    while (!streams.every((s) => done(s.state()))) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const s of streams) s.close();
    const snapshotBytes = Buffer.byteLength(
      await (
        await fetch(`${host.url}/api/state`, { headers: { Authorization: `Bearer ${BENCH_CODE}` } })
      ).text(),
    );
    return streams.map((s) => ({ ...s.row(history), 'snapshot at end (B)': snapshotBytes }));
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const history of [0, 60, 240]) rows.push(...(await measure(history)));
printTable(
  `(a) bytes on the wire per streamed word: ${REPLY_WORDS}-word reply, history of ${EXCHANGE_WORDS}-word exchanges, named frames (default) and compact (?frames=compact, the SDK)`,
  rows,
);
