/**
 * Concurrent event streams held by one host on this machine, with heartbeats on time: opens up
 * to 5,000 streams to a host in a child process (heartbeat every second), watches them for a
 * while, and reports late heartbeats and the host's RSS per stream.
 * Run: node --expose-gc --import tsx tests/bench/streams.ts [streams] (BENCH_TLS=1: over HTTPS)
 */
import { BENCH_CODE, BENCH_TLS, startHostProcess } from './hostProcess';
import { openRawStream, type RawStream } from './rawStream';
import { printTable, quantile, rssKiB } from './table';

const HEARTBEAT_MS = 1000;
const WATCH_MS = 10_000;
const BATCH = 250;

interface Watched {
  stream: RawStream;
  snapshot: boolean;
  lastFrameAt: number;
  /** Longest silence seen while watching, in milliseconds. */
  maxGap: number;
  heartbeats: number;
}

async function measure(count: number): Promise<Record<string, string | number>> {
  const host = await startHostProcess({ heartbeatMs: HEARTBEAT_MS });
  try {
    await host.gc();
    const baseRss = await rssKiB(host.pid);
    const watched: Watched[] = [];
    let watching = false;
    const openStart = performance.now();
    for (let i = 0; i < count; i += BATCH) {
      for (let j = i; j < Math.min(count, i + BATCH); j++) {
        const w: Watched = {
          snapshot: false,
          lastFrameAt: 0,
          maxGap: 0,
          heartbeats: 0,
          stream: undefined as unknown as RawStream,
        };
        w.stream = openRawStream({
          port: host.port,
          accessCode: BENCH_CODE,
          ca: host.ca,
          onFrame(frame) {
            const now = performance.now();
            if (frame.event === 'state') w.snapshot = true;
            if (watching) {
              w.maxGap = Math.max(w.maxGap, now - w.lastFrameAt);
              if (frame.event === 'heartbeat') w.heartbeats++;
            }
            w.lastFrameAt = now;
          },
        });
        watched.push(w);
      }
      while (watched.some((w) => !w.snapshot)) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const openMs = performance.now() - openStart;
    const subscribers = await host.subscriberCount();
    const watchStart = performance.now();
    for (const w of watched) w.lastFrameAt = watchStart;
    watching = true;
    await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
    watching = false;
    const end = performance.now();
    for (const w of watched) w.maxGap = Math.max(w.maxGap, end - w.lastFrameAt);
    await host.gc();
    const rss = await rssKiB(host.pid);
    const statuses = await Promise.all(watched.slice(0, 10).map((w) => w.stream.status));
    for (const w of watched) w.stream.close();
    const gaps = watched.map((w) => w.maxGap);
    const late = watched.filter((w) => w.maxGap > 2 * HEARTBEAT_MS).length;
    return {
      streams: count,
      'open (s)': openMs / 1000,
      'subscribers (host)': subscribers,
      'HTTP status': [...new Set(statuses)].join(','),
      'heartbeats/stream': watched.reduce((sum, w) => sum + w.heartbeats, 0) / count,
      'longest silence p50 ms': quantile(gaps, 0.5),
      'p99 ms': quantile(gaps, 0.99),
      'max ms': quantile(gaps, 1),
      'streams > 2 intervals silent': late,
      'host RSS before (MiB)': baseRss / 1024,
      'after (MiB)': rss / 1024,
      'KiB/stream': (rss - baseRss) / count,
    };
  } finally {
    await host.close();
  }
}

const counts = process.argv.slice(2).map(Number);
const rows = [];
for (const count of counts.length > 0 ? counts : [1000, 5000]) rows.push(await measure(count));
printTable(
  `(c) concurrent streams${BENCH_TLS ? ' over HTTPS' : ''} with a ${HEARTBEAT_MS} ms heartbeat, watched for ${WATCH_MS / 1000} s (host in its own process)`,
  rows,
);
