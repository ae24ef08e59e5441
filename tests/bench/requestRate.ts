/**
 * Request rate of webbridge next to bare Hono, measured side by side in one run with the same
 * Node flags: autocannon, 50 connections, a warm-up, then a timed run per request, each right
 * after a bare-Hono run of its own. Rounds interleave the cases, and each figure printed is the
 * median over the rounds (with the range of the ratio): single runs on a shared 2-core machine
 * swing by ±30 %. Prints each rate, its ratio to bare Hono's, p99 latency and the server's CPU
 * time per request (from /proc, so Linux only).
 * Run: node --import tsx tests/bench/requestRate.ts [seconds per run, 5] [rounds, 3] [cases]
 * where `cases` (optional) keeps only the requests whose name contains one of its comma-separated
 * words, e.g. `action` for the two actions: a shorter run for comparing builds back to back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cliNodeFlags } from '../support/cliNodeFlags';
import { RATE_CODE } from './requestRateServer';

const SECONDS = Number(process.argv[2] ?? 5);
const ROUNDS = Number(process.argv[3] ?? 3);
const ONLY = process.argv[4]?.split(',');
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
  const id = host.identity;
  const allCases: [string, autocannon.Request[], number][] = [
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
  const cases = allCases.filter(([name]) => ONLY === undefined || ONLY.some((word) => name.includes(word)));
  console.log(
    `\nRequest rate, ${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} rounds, Node ${process.version}`,
  );
  console.log(
    '| request | req/s | bare Hono req/s (adjacent runs) | of bare Hono (range) | p99 ms (bare) | server CPU µs/req (bare) |',
  );
  console.log('|---|---|---|---|---|---|');
  const pairs = new Map<string, { m: Measured; bare: Measured }[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, requests, status] of cases) {
      // Each case is measured right after a fresh bare-Hono run, and its ratio is to that run:
      // on a shared machine the floor drifts, and adjacent runs see the same conditions.
      const pair = await measure(bare, bareRequest, SECONDS);
      const m = await measure(host, requests, SECONDS);
      // A 409 row is all non-2xx by design; any other row must be all 2xx.
      if (status === 200 && m.non2xx > 0) throw new Error(`${name}: ${m.non2xx} answers were not 2xx`);
      pairs.set(name, [...(pairs.get(name) ?? []), { m, bare: pair }]);
    }
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  const bareRuns = [...pairs.values()].flat().map((p) => p.bare);
  const of = (runs: Measured[], key: keyof Measured) => median(runs.map((r) => r[key]));
  console.log(
    `| bare Hono POST JSON → JSON | ${Math.round(of(bareRuns, 'rate'))} | — | 100 % | ${of(bareRuns, 'p99')} | ${of(bareRuns, 'cpuMicros').toFixed(1)} |`,
  );
  for (const [name, runs] of pairs) {
    const ratios = runs.map((r) => (r.m.rate / r.bare.rate) * 100);
    const ms = runs.map((r) => r.m);
    const bs = runs.map((r) => r.bare);
    console.log(
      `| ${name} | ${Math.round(of(ms, 'rate'))} | ${Math.round(of(bs, 'rate'))} | ${median(ratios).toFixed(0)} % (${Math.min(...ratios).toFixed(0)}–${Math.max(...ratios).toFixed(0)}) | ${of(ms, 'p99')} (${of(bs, 'p99')}) | ${of(ms, 'cpuMicros').toFixed(1)} (${of(bs, 'cpuMicros').toFixed(1)}) |`,
    );
  }
} finally {
  await Promise.all([stop(bare.child), stop(host.child)]);
}
// Something of autocannon's stays referenced after its runs (the loop never empties), so the
// benchmark ends itself once its servers are gone.
process.exit(0);

/** Ends a server process: SIGTERM, and SIGKILL if it has not gone within 5 s. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
