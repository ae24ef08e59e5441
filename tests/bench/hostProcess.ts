import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliNodeFlags } from '../support/cliNodeFlags';
import { preciseNow } from './table';

/**
 * A reference host in a child process, so that its RSS is its own and a client in the parent
 * does not share its event loop. The parent talks to it over IPC, never over HTTP, so that
 * measuring does not open streams or requests of its own.
 */

/** Options of the child host. */
export interface HostProcessOptions {
  readonly heartbeatMs?: number;
  readonly echoDelayMs?: number;
  /**
   * Serve HTTPS on loopback with a certificate from the local authority, to measure what TLS
   * costs. @default true when the environment has BENCH_TLS=1
   */
  readonly tls?: boolean;
}

/** Whether benchmarks run over HTTPS (`BENCH_TLS=1`). */
export const BENCH_TLS = process.env.BENCH_TLS === '1';

/** The access code of every benchmark host. */
export const BENCH_CODE = 'bench-code-4k9p-2xq7';

type Request =
  | { type: 'info' }
  | { type: 'subscriberCount' }
  | { type: 'gc' }
  | { type: 'send'; text: string }
  | { type: 'newConversation' }
  | { type: 'waitIdle' }
  | { type: 'changeTimes'; from: number };

/** The answers, by request type. */
interface Answers {
  info: { port: number; seq: number; ca: string | undefined };
  subscriberCount: number;
  gc: { rssKiB: number; heapUsedKiB: number };
  send: { seq: number };
  newConversation: { seq: number };
  waitIdle: { seq: number };
  /**
   * When the host notified change `from + i`, and when the bridge had written its frames to
   * every stream's socket, in {@link preciseNow} milliseconds.
   */
  changeTimes: { notified: number[]; written: number[] };
}

/** The parent's handle on a child host. */
export interface HostProcess {
  readonly pid: number;
  readonly port: number;
  /** The local authority's certificate (PEM) when the host speaks HTTPS; clients trust it. */
  readonly ca: string | undefined;
  /** Number of open event streams (`bridge.subscriberCount`). */
  subscriberCount(): Promise<number>;
  /** Runs a full GC in the child (it runs with --expose-gc) and returns its memory afterwards. */
  gc(): Promise<Answers['gc']>;
  /** Sends a user message through the controller, as the phone's user would. */
  send(text: string): Promise<Answers['send']>;
  /** Starts a new conversation and switches to it (a configuration change: a snapshot). */
  newConversation(): Promise<Answers['newConversation']>;
  /** Resolves once the reply has finished; `seq` is the host's change count then. */
  waitIdle(): Promise<Answers['waitIdle']>;
  /** The host's change count now (the seq the next stream's snapshot carries). */
  seq(): Promise<number>;
  changeTimes(from: number): Promise<Answers['changeTimes']>;
  close(): Promise<void>;
}

const CHILD_FLAG = '--webbridge-bench-host';

/** Starts a host in a child process (`node --expose-gc --import tsx`). */
export async function startHostProcess(options: HostProcessOptions = {}): Promise<HostProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-bench-'));
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
    // WEBBRIDGE_BENCH_HOST_ARGS adds flags to the host only, e.g. `--cpu-prof` to see its costs
    // (a later flag wins: `--max-semi-space-size=16` measures V8's default).
    execArgv: [
      '--expose-gc',
      '--import',
      import.meta.resolve('tsx'),
      // The V8 flags the `webbridge` CLI runs with (its shebang), so the host measured is the
      // host shipped; see docs/HOST.md.
      ...cliNodeFlags(),
      ...(process.env.WEBBRIDGE_BENCH_HOST_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: {
      ...process.env,
      WEBBRIDGE_BENCH_HOST: JSON.stringify({ tls: BENCH_TLS, ...options, dataDir }),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, (value: unknown) => void>();
  // The child announces itself (id -1) once it listens: messages sent earlier would be lost.
  const ready = new Promise<void>((resolve) => pending.set(-1, () => resolve()));
  let nextId = 0;
  child.on('message', (message: { id: number; value: unknown }) => {
    pending.get(message.id)?.(message.value);
    pending.delete(message.id);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = <T extends Request>(request: T): Promise<Answers[T['type']]> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, resolve as (value: unknown) => void);
      child.send({ id, request }, (error) => error && reject(error));
    });
  await Promise.race([
    ready,
    exited.then(() => {
      throw new Error('the host process exited');
    }),
  ]);
  const info = await ask({ type: 'info' });
  return {
    pid: child.pid!,
    port: info.port,
    ca: info.ca,
    subscriberCount: () => ask({ type: 'subscriberCount' }),
    gc: () => ask({ type: 'gc' }),
    send: (text) => ask({ type: 'send', text }),
    newConversation: () => ask({ type: 'newConversation' }),
    waitIdle: () => ask({ type: 'waitIdle' }),
    seq: async () => (await ask({ type: 'info' })).seq,
    changeTimes: (from) => ask({ type: 'changeTimes', from }),
    async close() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The child side: starts the host and answers the parent. */
async function runChild(): Promise<void> {
  const { startHost } = await import('@webbridge/host');
  const options = JSON.parse(process.env.WEBBRIDGE_BENCH_HOST ?? '{}') as HostProcessOptions & {
    dataDir: string;
  };
  const host = await startHost({
    dataDir: options.dataDir,
    accessCode: BENCH_CODE,
    port: 0,
    hostname: '127.0.0.1',
    staticDir: null,
    echoDelayMs: options.echoDelayMs ?? 20,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    logLevel: 'silent',
    ...(options.tls ? { transport: { tlsOnLoopback: true } } : {}),
  });
  const { controller, adapter, bridge } = host;
  // The bridge's hub numbers changes from its creation; this listener, added right after,
  // counts the same changes (none happen in between), so seq n is the n-th notification.
  const changeTimes: number[] = [0];
  const writtenTimes: number[] = [0];
  adapter.subscribe(() => {
    changeTimes.push(preciseNow());
    // The hub schedules its fan-out with setImmediate from its own listener, which runs
    // before this one: this callback runs right after the fan-out wrote the frames to every
    // socket that was taking them (a stream held back by backpressure gets its frame later,
    // on drain; in the latency benchmark none is).
    const index = writtenTimes.length;
    writtenTimes.push(0);
    setImmediate(() => {
      writtenTimes[index] = preciseNow();
    });
  });
  const idle = () => controller.readState().conversations.run.state === 'idle';
  const answer = async (request: Request): Promise<unknown> => {
    switch (request.type) {
      case 'info':
        return {
          port: host.address.port,
          seq: changeTimes.length - 1,
          ca: host.address.authority?.certificatePem,
        };
      case 'subscriberCount':
        return bridge.subscriberCount;
      case 'gc': {
        const gc = (globalThis as { gc?: () => void }).gc;
        if (!gc) throw new Error('run with --expose-gc');
        for (let i = 0; i < 3; i++) {
          gc();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const memory = process.memoryUsage();
        return { rssKiB: Math.round(memory.rss / 1024), heapUsedKiB: Math.round(memory.heapUsed / 1024) };
      }
      case 'send':
        await controller.executor.run(() => controller.messages.send(request.text));
        return { seq: changeTimes.length - 1 };
      case 'newConversation':
        await controller.executor.run(() => controller.conversations.newConversation());
        return { seq: changeTimes.length - 1 };
      case 'waitIdle':
        while (!idle()) await new Promise((resolve) => setTimeout(resolve, 5));
        return { seq: changeTimes.length - 1 };
      case 'changeTimes':
        return { notified: changeTimes.slice(request.from), written: writtenTimes.slice(request.from) };
      default:
        return request satisfies never;
    }
  };
  process.on('message', (message: { id: number; request: Request }) => {
    answer(message.request).then(
      (value) => process.send?.({ id: message.id, value }),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  process.send?.({ id: -1, value: null });
  process.once('SIGTERM', () => {
    host.close().finally(() => process.exit(0));
  });
  process.once('disconnect', () => {
    host.close().finally(() => process.exit(0));
  });
}

if (process.argv.includes(CHILD_FLAG)) await runChild();
