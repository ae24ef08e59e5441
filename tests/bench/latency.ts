/**
 * Host change → client state applied, on loopback, with 1, 100 and 2,000 open streams. The host
 * runs in a child process and stamps each change when it notifies, and again once the frames
 * are on every socket; emulated browsers (worker threads, `latencyClients.ts`) apply every frame
 * with the SDK's reducer and stamp it. A change counts as applied when a frame whose seq covers
 * it has been applied (a coalesced delta covers several changes).
 * Run: node --expose-gc --import tsx tests/bench/latency.ts [streams...] (BENCH_TLS=1: over HTTPS)
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { BENCH_CODE, BENCH_TLS, startHostProcess } from './hostProcess';
import type { ClientsAnswer, ClientsCommand, ClientsInput } from './latencyClients';
import { cpuMs, printTable, quantile } from './table';
import { words } from './words';

const REPLY_WORDS = 150;
/**
 * Pauses between streamed words: 30 ms is the CLI's echo default (33 words/s); 20 ms (50
 * words/s) is a stress run. At 2,000 streams and 20 ms this machine runs out of CPU: the host
 * spends ≈ 10 µs per frame and the emulated browsers ≈ 12 µs, so 100,000 frames a second need
 * ≈ 2.2 of its 2 cores; the 'machine CPU' column shows it. BENCH_ECHO_DELAY_MS picks one.
 */
const CADENCES_MS = process.env.BENCH_ECHO_DELAY_MS ? [Number(process.env.BENCH_ECHO_DELAY_MS)] : [30, 20];
/**
 * Worker threads the emulated browsers are split over. Each has its own heap: a browser holds
 * one state, but one heap holding 2,000 states that are all replaced on every frame collects
 * garbage for 5–15 ms at a time, stalling every emulated client at once.
 */
const CLIENT_THREADS = Number(process.env.BENCH_CLIENT_THREADS ?? 2);

/** Workers do not inherit the TypeScript loader: the entry registers it, then loads the code. */
const WORKER_ENTRY = new URL(
  `data:text/javascript,${encodeURIComponent(
    `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
     register();
     await import(${JSON.stringify(new URL('./latencyClients.ts', import.meta.url).href)});`,
  )}`,
);

/** A worker thread of emulated browsers, driven one command at a time. */
class ClientThread {
  private readonly worker: Worker;
  private readonly answers: ClientsAnswer[] = [];
  private readonly waiting: ((answer: ClientsAnswer) => void)[] = [];

  constructor(input: ClientsInput) {
    this.worker = new Worker(WORKER_ENTRY, {
      workerData: input,
      resourceLimits: { maxYoungGenerationSizeMb: 48 },
    });
    // The worker answers commands in order, so answers go to waiters in order.
    this.worker.on('message', (answer: ClientsAnswer) => {
      const waiting = this.waiting.shift();
      if (waiting) waiting(answer);
      else this.answers.push(answer);
    });
    this.worker.on('error', (error) => {
      console.error(error);
      process.exit(1);
    });
  }

  /** The next answer the worker sends. */
  next(): Promise<ClientsAnswer> {
    const queued = this.answers.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
    });
  }

  ask<T extends ClientsAnswer['type']>(
    command: ClientsCommand,
  ): Promise<Extract<ClientsAnswer, { type: T }>> {
    this.worker.postMessage(command);
    return this.next() as Promise<Extract<ClientsAnswer, { type: T }>>;
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/**
 * The latency of every change after `start` at every client: a change is applied by the first
 * frame whose seq covers it. `notified[i]` is when change `start + 1 + i` happened.
 */
async function collect(
  threads: readonly ClientThread[],
  start: number,
  notified: readonly number[],
): Promise<{ latencies: number[]; frames: number; resyncs: number }> {
  const latencies: number[] = [];
  let frames = 0;
  let resyncs = 0;
  for (const thread of threads) {
    const collected = await thread.ask<'collected'>({ type: 'collect' });
    if (collected.overflow > 0)
      throw new Error(`${collected.overflow} applied frames did not fit the records`);
    resyncs += collected.resyncs;
    collected.records.forEach((applied, c) => {
      let upTo = start;
      for (let i = 0; i < collected.counts[c]!; i += 2) {
        const seq = applied[i]!;
        const at = applied[i + 1]!;
        frames++;
        for (let change = upTo + 1; change <= seq; change++)
          latencies.push(at - notified[change - start - 1]!);
        upTo = Math.max(upTo, seq);
      }
    });
  }
  return { latencies, frames, resyncs };
}

async function measure(count: number, echoDelayMs: number): Promise<Record<string, string | number>> {
  const host = await startHostProcess({ echoDelayMs });
  const threads: ClientThread[] = [];
  try {
    const perThread = Math.ceil(count / CLIENT_THREADS);
    for (let opened = 0; opened < count; opened += perThread) {
      threads.push(
        new ClientThread({
          port: host.port,
          accessCode: BENCH_CODE,
          ca: host.ca,
          count: Math.min(perThread, count - opened),
          frames: REPLY_WORDS + 16,
        }),
      );
    }
    await Promise.all(threads.map((t) => t.next()));
    const allAt = async (seq: number) => {
      for (;;) {
        const answers = await Promise.all(threads.map((t) => t.ask<'lowestSeq'>({ type: 'lowestSeq' })));
        // A client that had to resynchronise would wait for a snapshot that never comes.
        if (answers.some((a) => a.resyncs > 0)) throw new Error('an emulated client had to resynchronise');
        if (answers.every((a) => a.seq >= seq)) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await allAt(0);
    // One exchange before measuring: the conversation gets its title (a configuration change,
    // which every stream receives as a full snapshot) and both sides' code paths are warm, as
    // in a host that has been running. The figures are for a reply that streams.
    await host.send(words(20, 3));
    const { seq: warmEnd } = await host.waitIdle();
    await allAt(warmEnd);

    const start = await host.seq();
    await Promise.all(threads.map((t) => t.ask({ type: 'record' })));
    const serverCpu = await cpuMs(host.pid);
    const clientCpu = process.cpuUsage();
    const wallStart = performance.now();
    await host.send(words(REPLY_WORDS, 5));
    const { seq: end } = await host.waitIdle();
    await allAt(end);
    const wallMs = performance.now() - wallStart;
    const serverCpuMs = (await cpuMs(host.pid)) - serverCpu;
    const clientUsage = process.cpuUsage(clientCpu);
    const clientCpuMs = (clientUsage.user + clientUsage.system) / 1000;
    const { notified, written } = await host.changeTimes(start + 1);
    const fanOut = written.map((at, i) => at - notified[i]!);
    const { latencies, frames, resyncs } = await collect(threads, start, notified);

    // Last, a configuration change: a new conversation, which every stream gets as a snapshot.
    await Promise.all(threads.map((t) => t.ask({ type: 'record' })));
    const { seq: switched } = await host.newConversation();
    await allAt(switched);
    const switchTimes = await host.changeTimes(switched);
    const snapshot = await collect(threads, switched - 1, switchTimes.notified);
    for (const thread of threads) await thread.ask({ type: 'close' });
    return {
      streams: count,
      'word every (ms)': `${echoDelayMs} → ${((notified.at(-1)! - notified[0]!) / (notified.length - 1)).toFixed(1)}`,
      'host changes': end - start,
      'frames/stream': frames / count,
      'all written p50 ms': quantile(fanOut, 0.5),
      'all written p99 ms': quantile(fanOut, 0.99),
      'applied p50 ms': quantile(latencies, 0.5),
      'applied p99 ms': quantile(latencies, 0.99),
      'applied max ms': quantile(latencies, 1),
      'new conversation → applied p50 ms': quantile(snapshot.latencies, 0.5),
      'new conversation p99 ms': quantile(snapshot.latencies, 0.99),
      'server CPU µs/frame': (serverCpuMs * 1000) / frames,
      'client CPU µs/frame': (clientCpuMs * 1000) / frames,
      'machine CPU %': ((serverCpuMs + clientCpuMs) / (wallMs * availableParallelism())) * 100,
      resyncs,
    };
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
    await host.close();
  }
}

const counts = process.argv.slice(2).map(Number);
for (const cadence of CADENCES_MS) {
  const rows = [];
  for (const count of counts.length > 0 ? counts : [1, 100, 2000]) rows.push(await measure(count, cadence));
  printTable(
    `(b) host change → client state applied (loopback${BENCH_TLS ? ', HTTPS' : ''}; a ${REPLY_WORDS}-word reply, one word every ${cadence} ms as asked → as streamed, after one warm-up exchange; clients in ${CLIENT_THREADS} worker threads)`,
    rows,
  );
}
