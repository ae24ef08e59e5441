/**
 * The long contract fuzz: at least 100,000 requests (FUZZ_REQUESTS) of schema-derived valid,
 * near-valid and malformed requests against a reference host in its own process, with every
 * check of tests/fuzz/contractFuzz.test.ts. Prints requests, requests/s and failures; exits 1 on
 * a failure or a crash. Not part of `pnpm bench` (it takes minutes). Run after a build:
 *   pnpm build && node --import tsx tests/bench/fuzz.ts
 * FUZZ_SEED picks another seed (a failure names the seed and chunk that reproduce it).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Fuzzer } from '../fuzz/Fuzzer';
import { describeFailures, FUZZ_CODE, FUZZ_UPLOAD_LIMIT } from '../fuzz/fuzzHost';
import { STEP } from '../fuzz/plans';
import { WireClient } from '../fuzz/wire';
import { printTable } from './table';

const TARGET = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/** Steps generated per chunk; chunk `i` uses seed `SEED + i`. */
const CHUNK = 500;

type ChildMessage = { type: 'ready'; port: number } | { type: 'logged'; lines: string[] };

const child: ChildProcess = fork(fileURLToPath(new URL('../fuzz/hostChild.ts', import.meta.url)), [], {
  execArgv: ['--import', import.meta.resolve('tsx')],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const unhandled: string[] = [];
let crashed: string | undefined;
child.on('exit', (code, signal) => {
  crashed = `the host process ended (${code ?? signal})`;
});
const port = await new Promise<number>((resolve, reject) => {
  child.on('message', (message: ChildMessage) => {
    if (message.type === 'ready') resolve(message.port);
    else unhandled.push(...message.lines);
  });
  child.once('exit', () => reject(new Error('the host process ended before it listened')));
});

const client = new WireClient(port);
const fuzzer = new Fuzzer({ port, code: FUZZ_CODE, uploadLimit: FUZZ_UPLOAD_LIMIT }, client);
console.log(
  `contract fuzz — ${new Date().toISOString()}, Node ${process.version}, seed ${SEED}, target ${TARGET} requests`,
);
const started = performance.now();
let chunk = 0;
let lastReport = started;
while (fuzzer.requests < TARGET && crashed === undefined) {
  const before = fuzzer.failures.length;
  for (const step of fc.sample(STEP, { seed: SEED + chunk, numRuns: CHUNK })) {
    await fuzzer.run(step);
    if (crashed !== undefined) break;
  }
  await fuzzer.alive();
  if (fuzzer.failures.length > before) console.log(`chunk ${chunk} (seed ${SEED + chunk}) failed:`);
  chunk++;
  if (performance.now() - lastReport > 15_000) {
    lastReport = performance.now();
    const seconds = (lastReport - started) / 1000;
    console.log(
      `  ${fuzzer.requests} requests, ${(fuzzer.requests / seconds).toFixed(0)}/s, ${fuzzer.failures.length} failures`,
    );
  }
}
const seconds = (performance.now() - started) / 1000;
client.close();
child.disconnect();

const byRoute = new Map<string, Record<string, string | number>>();
for (const [key, count] of fuzzer.statuses) {
  const [route = '', status = ''] = key.split(' ');
  const row = byRoute.get(route) ?? { route, requests: 0 };
  row.requests = Number(row.requests) + count;
  row[status[0] === '0' ? 'no answer' : `${status[0]}xx`] = Number(row[`${status[0]}xx`] ?? 0) + count;
  byRoute.set(route, row);
}
printTable(
  'Requests by route and status class',
  [...byRoute.values()].sort((a, b) => Number(b.requests) - Number(a.requests)),
);
printTable('Contract fuzz', [
  {
    requests: fuzzer.requests,
    'requests/s': Math.round(fuzzer.requests / seconds),
    seconds: Math.round(seconds),
    'applied (actions, uploads)': fuzzer.applied,
    failures: fuzzer.failures.length + unhandled.length + (crashed ? 1 : 0),
  },
]);
if (crashed) console.log(`\nCRASH: ${crashed}`);
if (unhandled.length > 0)
  console.log(`\nUnhandled errors logged by the bridge:\n${unhandled.slice(0, 5).join('\n')}`);
if (fuzzer.failures.length > 0) console.log(`\nFailures:\n${describeFailures(fuzzer.failures, 20)}`);
process.exitCode = fuzzer.failures.length + unhandled.length === 0 && !crashed ? 0 : 1;
