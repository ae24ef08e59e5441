/**
 * 10,000 event-stream open/close cycles against a host in a child process: each opens a
 * stream, reads its snapshot and drops the socket. Reports the host's RSS before and after
 * (both after a full GC in the host) and the subscriptions left.
 * Run: node --expose-gc --import tsx tests/bench/openClose.ts [cycles]
 */
import { BENCH_CODE, type HostProcess, startHostProcess } from './hostProcess';
import { openRawStream } from './rawStream';
import { printTable, rssKiB } from './table';

const CONCURRENCY = 25;

/** Opens a stream, waits for its first frame (the snapshot), closes it; `cycles` times. */
async function cycle(host: HostProcess, cycles: number): Promise<void> {
  let started = 0;
  const worker = async () => {
    while (started < cycles) {
      started++;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no snapshot within 5 s')), 5000);
        const stream = openRawStream({
          port: host.port,
          accessCode: BENCH_CODE,
          onFrame(frame) {
            if (frame.event !== 'state') return;
            clearTimeout(timer);
            stream.close();
            stream.closed.then(() => resolve());
          },
        });
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function settledRss(host: HostProcess): Promise<{ rss: number; heap: number }> {
  for (let i = 0; i < 50 && (await host.subscriberCount()) > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const { heapUsedKiB } = await host.gc();
  return { rss: await rssKiB(host.pid), heap: heapUsedKiB };
}

const cycles = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 3);
const host = await startHostProcess({ heartbeatMs: 15_000 });
try {
  // A warm-up, so that lazily created things (JIT code, pools, module state) count as baseline.
  await cycle(host, 1000);
  const before = await settledRss(host);
  const rows = [];
  // Several rounds tell a one-time growth (allocator and heap reserve) from a leak, which grows
  // with every round.
  for (let round = 1; round <= rounds; round++) {
    const start = performance.now();
    await cycle(host, cycles);
    const seconds = (performance.now() - start) / 1000;
    const after = await settledRss(host);
    rows.push({
      'after cycles': round * cycles,
      'cycles/s': cycles / seconds,
      'RSS before (MiB)': before.rss / 1024,
      'RSS after (MiB)': after.rss / 1024,
      'RSS change %': ((after.rss - before.rss) / before.rss) * 100,
      'heap before (MiB)': before.heap / 1024,
      'heap after (MiB)': after.heap / 1024,
      'subscriptions left': await host.subscriberCount(),
    });
  }
  printTable(
    `(e) stream open/close cycles, ${rounds} rounds of ${cycles.toLocaleString('en')} (host in its own process)`,
    rows,
  );
} finally {
  await host.close();
}
