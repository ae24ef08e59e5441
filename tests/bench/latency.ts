/**
 * Host change → client state applied, on loopback, with 1, 100 and 2,000 open streams. The host
 * runs in a child process and stamps each change when it notifies; each client applies every
 * frame with the SDK's reducer and stamps it; a change counts as applied when a frame whose seq
 * covers it has been applied (a coalesced delta covers several changes).
 * Run: node --expose-gc --import tsx tests/bench/latency.ts [streams...]
 */
import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import { BENCH_CODE, startHostProcess } from './hostProcess';
import { eventOf, openRawStream, type RawStream } from './rawStream';
import { cpuMs, preciseNow, printTable, quantile } from './table';
import { words } from './words';

const REPLY_WORDS = 150;
/**
 * Pause between streamed words. 20 ms (50 words/s) is faster than most models stream; the
 * CLI's echo default is 30 ms. Set BENCH_ECHO_DELAY_MS to measure another cadence.
 */
const ECHO_DELAY_MS = Number(process.env.BENCH_ECHO_DELAY_MS ?? 20);

interface Client {
  state: SyncState | null;
  stream: RawStream;
  /** [seq, applied at] of every state frame applied after the measurement started. */
  applied: number[];
}

async function measure(count: number): Promise<Record<string, string | number>> {
  const host = await startHostProcess({ echoDelayMs: ECHO_DELAY_MS });
  try {
    const clients: Client[] = [];
    let resyncs = 0;
    let recording = false;
    const open = () => {
      const client: Client = { state: null, applied: [], stream: undefined as unknown as RawStream };
      client.stream = openRawStream({
        port: host.port,
        accessCode: BENCH_CODE,
        onFrame(frame) {
          const event = eventOf(frame);
          if (event === undefined) return;
          const result = applyEvent(client.state, event);
          const at = preciseNow();
          if (result.kind !== 'applied') {
            resyncs++;
            return;
          }
          client.state = result.state;
          if (recording) client.applied.push(result.state.seq, at);
        },
      });
      clients.push(client);
    };
    for (let i = 0; i < count; i++) {
      open();
      if (i % 200 === 199) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    while (clients.some((c) => c.state === null)) await new Promise((resolve) => setTimeout(resolve, 20));
    const start = await host.seq();
    recording = true;
    const serverCpu = await cpuMs(host.pid);
    const clientCpu = process.cpuUsage();
    await host.send(words(REPLY_WORDS, 5));
    const { seq: end } = await host.waitIdle();
    while (clients.some((c) => (c.state?.seq ?? -1) < end)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const serverCpuMs = (await cpuMs(host.pid)) - serverCpu;
    const clientUsage = process.cpuUsage(clientCpu);
    const clientCpuMs = (clientUsage.user + clientUsage.system) / 1000;
    const times = await host.changeTimes(start + 1);
    const latencies: number[] = [];
    let frames = 0;
    for (const client of clients) {
      let upTo = start;
      for (let i = 0; i < client.applied.length; i += 2) {
        const seq = client.applied[i]!;
        const at = client.applied[i + 1]!;
        frames++;
        for (let change = upTo + 1; change <= seq; change++) latencies.push(at - times[change - start - 1]!);
        upTo = Math.max(upTo, seq);
      }
    }
    for (const client of clients) client.stream.close();
    const changes = end - start;
    return {
      streams: count,
      'host changes': changes,
      'frames/stream': frames / count,
      'p50 ms': quantile(latencies, 0.5),
      'p99 ms': quantile(latencies, 0.99),
      'max ms': quantile(latencies, 1),
      'server CPU µs/frame': (serverCpuMs * 1000) / frames,
      'client CPU µs/frame': (clientCpuMs * 1000) / frames,
      resyncs,
    };
  } finally {
    await host.close();
  }
}

const counts = process.argv.slice(2).map(Number);
const rows = [];
for (const count of counts.length > 0 ? counts : [1, 100, 2000]) rows.push(await measure(count));
printTable(
  `(b) host change → client state applied (loopback; a ${REPLY_WORDS}-word reply, one word every ${ECHO_DELAY_MS} ms)`,
  rows,
);
