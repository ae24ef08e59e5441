/**
 * Bytes on the wire per streamed word while a 2,000-word reply streams after a history of
 * 0, 60 and 240 exchanges, counted off the socket between the send and the end of the run.
 * Run: node --expose-gc --import tsx tests/bench/bytesPerWord.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import { startHost } from '@webbridge/host';
import { BENCH_CODE } from './hostProcess';
import { eventOf, openRawStream } from './rawStream';
import { printTable } from './table';
import { words } from './words';

const REPLY_WORDS = 2000;
const EXCHANGE_WORDS = 40;

/** HTTP/1.1 chunk framing around one write of `n` bytes: `<hex>\r\n...\r\n`. */
const chunkOverhead = (n: number) => n.toString(16).length + 4;

async function measure(history: number): Promise<Record<string, string | number>> {
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
      await controller.executor.run(() => controller.send(words(EXCHANGE_WORDS, i + 7)));
      await waitIdle();
    }
    let state: SyncState | null = null;
    let counting = false;
    const kinds = { append: { n: 0, bytes: 0 }, delta: { n: 0, bytes: 0 }, snapshot: { n: 0, bytes: 0 } };
    let appendPayload = 0;
    const stream = openRawStream({
      port: host.address.port,
      accessCode: BENCH_CODE,
      onFrame(frame) {
        const event = eventOf(frame);
        if (event === undefined) return;
        const result = applyEvent(state, event);
        if (result.kind !== 'applied') throw new Error(`resync: ${result.reason}`);
        state = result.state;
        if (!counting) return;
        kinds[event.kind].n++;
        kinds[event.kind].bytes += frame.sseBytes + chunkOverhead(frame.sseBytes);
        if (event.kind === 'append') appendPayload += Buffer.byteLength(event.text);
      },
    });
    while (state === null) await new Promise((resolve) => setTimeout(resolve, 2));
    const seen: SyncState = state;
    const text = words(REPLY_WORDS, 99);
    const before = stream.socketBytes;
    counting = true;
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
    const done = () => {
      const s = state?.snapshot;
      const last = s?.conversations.messages.at(-1);
      return s?.conversations.run.state === 'idle' && last?.status === 'complete' && last.text === text;
    };
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
    const wire = stream.socketBytes - before;
    stream.close();
    const snapshotBytes = Buffer.byteLength(
      await (
        await fetch(`${host.url}/api/state`, { headers: { Authorization: `Bearer ${BENCH_CODE}` } })
      ).text(),
    );
    return {
      history,
      'reply words': REPLY_WORDS,
      'append/delta/snapshot frames': `${kinds.append.n}/${kinds.delta.n}/${kinds.snapshot.n}`,
      'B/word, all (send→idle)': wire / REPLY_WORDS,
      'B/word, append frames': kinds.append.bytes / kinds.append.n,
      'of which the word': appendPayload / kinds.append.n,
      'B in snapshot frames': kinds.snapshot.bytes,
      'B in delta frames': kinds.delta.bytes,
      'snapshot at end (B)': snapshotBytes,
      'B/word, snapshot per update': snapshotBytes,
    };
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows = [];
for (const history of [0, 60, 240]) rows.push(await measure(history));
printTable(
  `(a) bytes on the wire per streamed word: ${REPLY_WORDS}-word reply, history of ${EXCHANGE_WORDS}-word exchanges`,
  rows,
);
