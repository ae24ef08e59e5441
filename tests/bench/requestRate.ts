/**
 * Request rate of webbridge next to bare Hono, measured side by side in one run with the same
 * Node flags: autocannon, 50 connections, a warm-up, then a timed run per request. Prints each
 * rate, its ratio to bare Hono's, p99 latency and the server's CPU time per request (from
 * /proc, so Linux only). Run: node --import tsx tests/bench/requestRate.ts [seconds]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cliNodeFlags } from '../support/cliNodeFlags';
import { RATE_CODE } from './requestRateServer';

const SECONDS = Number(process.argv[2] ?? 8);
const CONNECTIONS = 50;

interface Server {
  readonly child: ChildProcess;
  readonly port: number;
  readonly identity: Record<string, unknown>;
}

async function startServer(kind: 'bare' | 'webbridge'): Promise<Server> {
  const script = fileURLToPath(new URL('./requestRateServer.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [...cliNodeFlags(), '--import', import.meta.resolve('tsx'), script, kind],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const end = buffered.indexOf('\n');
      if (end !== -1) resolve(buffered.slice(0, end));
    });
    child.once('exit', () => reject(new Error(`${kind} server exited`)));
  });
  const [, port, json] = /^ready (\d+) (.*)$/.exec(line) ?? [];
  return { child, port: Number(port), identity: JSON.parse(json ?? '{}') as Record<string, unknown> };
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat; after the ") " split they are 11 and 12.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Measured {
  readonly rate: number;
  readonly p99: number;
  readonly cpuMicros: number;
  readonly non2xx: number;
}

async function measure(server: Server, requests: autocannon.Request[], seconds: number): Promise<Measured> {
  const options: autocannon.Options = {
    url: `http://127.0.0.1:${server.port}`,
    connections: CONNECTIONS,
    requests,
  };
  await autocannon({ ...options, duration: 1 });
  const before = cpuSeconds(server.child.pid!);
  const result = await autocannon({ ...options, duration: seconds });
  const cpu = cpuSeconds(server.child.pid!) - before;
  return {
    rate: result.requests.average,
    p99: result.latency.p99,
    cpuMicros: (cpu * 1e6) / Math.max(1, result.requests.total),
    non2xx: result.non2xx,
  };
}

const auth = { authorization: `Bearer ${RATE_CODE}`, 'content-type': 'application/json' };
const bare = await startServer('bare');
const host = await startServer('webbridge');
try {
  const bareRequest: autocannon.Request[] = [
    { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
  ];
  const floor = await measure(bare, bareRequest, SECONDS);
  const id = host.identity;
  const cases: [string, autocannon.Request[], number][] = [
    ['GET /api/locale', [{ method: 'GET', path: '/api/locale' }], 200],
    ['GET /api/state', [{ method: 'GET', path: '/api/state', headers: auth }], 200],
    [
      'POST /api/action model (applied)',
      ['echo-b', 'echo'].map((modelId) => ({
        method: 'POST' as const,
        path: '/api/action',
        headers: auth,
        body: JSON.stringify({ action: 'model', modelId, ...id }),
      })),
      200,
    ],
    [
      'POST /api/action → 409',
      [
        {
          method: 'POST',
          path: '/api/action',
          headers: auth,
          body: JSON.stringify({
            action: 'send',
            text: 'hi',
            ...id,
            sessionRevision: Number(id.sessionRevision) + 1000,
          }),
        },
      ],
      409,
    ],
  ];
  console.log(`\nRequest rate, ${CONNECTIONS} connections, ${SECONDS} s each, Node ${process.version}`);
  console.log(
    '| request | req/s | bare Hono req/s (adjacent run) | of bare Hono | p99 ms (bare) | server CPU µs/req (bare) |',
  );
  console.log('|---|---|---|---|---|---|');
  const row = (name: string, m: Measured, pair = m) =>
    console.log(
      `| ${name} | ${Math.round(m.rate)} | ${Math.round(pair.rate)} | ${((m.rate / pair.rate) * 100).toFixed(0)} % | ${m.p99} (${pair.p99}) | ${m.cpuMicros.toFixed(1)} (${pair.cpuMicros.toFixed(1)}) |`,
    );
  row('bare Hono POST JSON → JSON', floor);
  for (const [name, requests, status] of cases) {
    // Each case is measured right after a fresh bare-Hono run, and its ratio is to that run:
    // on a shared machine the floor drifts, and adjacent runs see the same conditions.
    const pair = await measure(bare, bareRequest, SECONDS);
    const m = await measure(host, requests, SECONDS);
    // A 409 row is all non-2xx by design; any other row must be all 2xx.
    if (status === 200 && m.non2xx > 0) throw new Error(`${name}: ${m.non2xx} answers were not 2xx`);
    row(name, m, pair);
  }
} finally {
  bare.child.kill('SIGTERM');
  host.child.kill('SIGTERM');
}
