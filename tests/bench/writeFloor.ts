/**
 * The floor under the bridge's fan-out: how long plain Node takes to write one 31-byte frame to
 * each of 2,000 loopback sockets whose reader is another process, with `socket.write` and with
 * a bare write(2) on the socket's descriptor. No HTTP, no bridge: what is left when the bridge's
 * own work is taken away. Compare with "all written" in latency.ts.
 * Run: node --import tsx tests/bench/writeFloor.ts [sockets]
 */
import { fork } from 'node:child_process';
import { writeSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { printTable, quantile } from './table';

const READER_FLAG = '--webbridge-write-floor-reader';
const ROUNDS = 100;
const PAUSE_MS = 30;
const FRAME = Buffer.from('id:12345\ndata:[12344," word"]\n\n');

/** The reading side: connects `count` sockets (in batches, as the accept queue is finite). */
async function runReader(port: number, count: number): Promise<void> {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (let i = 0; i < count; i++) {
    const socket = connect({ port, host: '127.0.0.1', onread: { buffer, callback: () => true } });
    socket.on('error', (error) => {
      console.error(`reader: ${error.message}`);
      process.exit(1);
    });
    if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function measure(count: number): Promise<Record<string, string | number>[]> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const reader = fork(fileURLToPath(import.meta.url), [READER_FLAG, String(port), String(count)], {
    execArgv: ['--import', import.meta.resolve('tsx')],
  });
  const readerExited = new Promise<never>((_, reject) =>
    reader.once('exit', (code) => reject(new Error(`the reader exited (${code})`))),
  );
  // Killing the reader at the end rejects this too: not an error then.
  readerExited.catch(() => undefined);
  try {
    while (sockets.length < count) {
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 50)), readerExited]);
    }
    const ways: [string, (socket: Socket) => void][] = [
      ['socket.write', (socket) => socket.write(FRAME)],
      // Node's internal handle: acceptable in a measurement, never in the bridge.
      [
        'write(2) on the fd',
        (socket) => writeSync((socket as unknown as { _handle: { fd: number } })._handle.fd, FRAME),
      ],
    ];
    const rows = [];
    for (const [way, write] of ways) {
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const start = performance.now();
        for (const socket of sockets) write(socket);
        times.push(performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
      rows.push({
        sockets: count,
        write: way,
        'all written p50 ms': quantile(times, 0.5),
        'p99 ms': quantile(times, 0.99),
        'µs/socket (p50)': (quantile(times, 0.5) * 1000) / count,
      });
    }
    return rows;
  } finally {
    reader.kill();
    for (const socket of sockets) socket.destroy();
    server.close();
  }
}

const readerAt = process.argv.indexOf(READER_FLAG);
if (readerAt !== -1) {
  await runReader(Number(process.argv[readerAt + 1]), Number(process.argv[readerAt + 2]));
} else {
  const rows = await measure(Number(process.argv[2] ?? 2000));
  printTable(
    `(f) the floor: one ${FRAME.length}-byte frame to every loopback socket, plain Node (${ROUNDS} rounds, ${PAUSE_MS} ms apart)`,
    rows,
  );
}
