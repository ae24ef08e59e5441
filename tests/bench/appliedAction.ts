/**
 * What one applied `model` action costs inside the host process, without HTTP: the reference
 * host's whole action (executor task, last-value writes, projection patch, the bridge's resume
 * ring, the group commit), then the resume ring's `push` alone for the projections such an
 * action and a streamed word publish. The request-rate benchmark (requestRate.ts) measures the
 * same action over sockets, where one microsecond is ~4 % of its ratio to bare Hono.
 *
 * The ring is measured full (at its 1 MiB bound, so every push also expires an entry), as it is
 * after a few seconds of the request-rate run. Each figure is the median of 7 timed batches, in
 * CPU time of this process (user + system, all its threads, so the collector's helpers too): on
 * a machine shared with other work, wall time counts their turns as well.
 *
 * Run: node --expose-gc --max-semi-space-size=2 --import tsx tests/bench/appliedAction.ts (the CLI's
 * young generation: what is promoted depends on its size)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import type { HostMessage, Projection } from '@webbridge/contract';
import { aHostMessage } from '@webbridge/contract/testing';
import { EchoModel, startHost } from '@webbridge/host';
import { ResumeRing } from '../../server/src/events/ResumeRing';
import { printTable } from './table';

const BATCHES = 7;
/** Actions in flight at once, as the request-rate run's 50 connections have. */
const CONCURRENT = 50;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Median CPU µs per call of `run(n)` over {@link BATCHES} batches of `n` calls, after one warm-up batch. */
async function timed(n: number, run: (n: number) => void | Promise<void>): Promise<number> {
  await run(n);
  const batches: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const started = process.cpuUsage();
    await run(n);
    const { user, system } = process.cpuUsage(started);
    batches.push((user + system) / n);
  }
  return median(batches);
}

const rows: Record<string, string | number>[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-applied-'));
const second = new EchoModel();
const host = await startHost({
  dataDir,
  accessCode: 'applied-code-7hq2-k3m9',
  port: 0,
  hostname: '127.0.0.1',
  staticDir: null,
  logLevel: 'silent',
  providers: [
    {
      id: 'echo-b',
      models: second.models.map((m) => ({ ...m, id: 'echo-b', name: 'Echo B', provider: 'echo-b' })),
      followsToolResults: false,
      stream: second.stream.bind(second),
    },
  ],
});
try {
  const { controller } = host;
  let flip = 0;
  const switches = async (n: number) => {
    for (let done = 0; done < n; done += CONCURRENT) {
      const wave: Promise<unknown>[] = [];
      for (let i = 0; i < CONCURRENT; i++) {
        const modelId = flip++ % 2 === 0 ? 'echo-b' : 'echo';
        wave.push(controller.runCommitted(() => controller.conversations.setModel(modelId)));
      }
      await Promise.all(wave);
    }
  };
  const action = await timed(20_000, switches);
  rows.push({
    measured: `applied model action, host + bridge, ${CONCURRENT} at a time`,
    'CPU µs per call': action,
  });

  // What outlives the young generation per action: each promoted byte is copied by a scavenge
  // and later marked and swept by a major collection (the bridge's resume ring kept ~220 B of
  // every action until it recorded only the seqs it hands out).
  const oldSpace = () =>
    v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0;
  const promoted: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    globalThis.gc?.();
    const before = oldSpace();
    await switches(10_000);
    promoted.push((oldSpace() - before) / 10_000);
  }
  rows.push({
    measured: `bytes promoted to the old generation per applied action (${globalThis.gc ? 'after a full collection' : 'run with --expose-gc'})`,
    'bytes per call': median(promoted),
  });

  // The ring alone, fed the projections a model switch publishes (the host's own shape).
  const base = controller.readState();
  const switched = (p: Projection, modelId: string): Projection => ({
    ...p,
    models: { ...p.models, current: modelId },
  });
  const ring = new ResumeRing();
  let seq = 0;
  let state = base;
  const pushSwitches = (n: number) => {
    for (let i = 0; i < n; i++) {
      state = switched(state, seq % 2 === 0 ? 'echo-b' : 'echo');
      ring.push(seq++, state);
    }
  };
  pushSwitches(20_000);
  rows.push({
    measured: `ResumeRing.push, a model switch (ring full: ${ring.size.entries} entries)`,
    'CPU µs per call': await timed(100_000, pushSwitches),
  });

  // A streamed word in a 480-message conversation: the streaming path must not get dearer.
  const history: HostMessage[] = Array.from({ length: 480 }, (_, i) =>
    aHostMessage({
      id: `m${i}`,
      parentId: i === 0 ? null : `m${i - 1}`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      text: `message ${i}: ${'some words of a conversation '.repeat(6)}`,
      createdAt: i,
    }),
  );
  let reply: HostMessage = { ...history[479]!, id: 'r', text: '', status: 'streaming' };
  state = { ...base, conversations: { ...base.conversations, messages: [...history, reply] } };
  const words = new ResumeRing();
  const pushWords = (n: number) => {
    for (let i = 0; i < n; i++) {
      reply = { ...reply, text: `${reply.text} w${seq % 1000}` };
      const messages = state.conversations.messages.slice();
      messages[messages.length - 1] = reply;
      state = { ...state, conversations: { ...state.conversations, messages } };
      words.push(seq++, state);
      // A reply ends now and then, so texts stay of a reply's length.
      if (seq % 2000 === 0) reply = { ...reply, text: '' };
    }
  };
  pushWords(5_000);
  rows.push({
    measured: `ResumeRing.push, a streamed word, 480 messages (${words.size.entries} entries)`,
    'CPU µs per call': await timed(5_000, pushWords),
  });
} finally {
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
}

printTable(`One applied action inside the host, Node ${process.version}`, rows);
