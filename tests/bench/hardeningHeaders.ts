/**
 * What adding the hardening headers costs per answer, in Node's own header work: a response
 * written by `writeHead(status, object)` with the action lane's headers as is; with the
 * hardening headers set by `setHeader` first (which sends Node's `writeHead` down its slow path:
 * every passed header is then set one by one); and through server/src/guards/hardenResponse.ts's
 * `HardenedResponse` (the headers added to the caller's object). No socket: only header work is
 * measured, as CPU time (user + system), so a busy machine's waits do not count. Each case runs
 * in a process of its own (one response class per process, as in a server: mixing them in one
 * process makes Node's internals polymorphic and slows every case), rounds interleaved; prints
 * ns per answer, the median of the rounds.
 * Run: node --import tsx tests/bench/hardeningHeaders.ts [rounds, 5]
 */
import { execFileSync } from 'node:child_process';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { HardenedResponse } from '../../server/src/adapters/hardenResponse';
import { printTable } from './table';

const ANSWERS = 300_000;
const laneHeaders = () => ({
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Webbridge-Protocol': '1',
  'X-Webbridge-Access': 'control',
  'Content-Length': 42,
});

const CASES: Record<string, (req: IncomingMessage) => void> = {
  'writeHead(object), no hardening': (req) => {
    new ServerResponse(req).writeHead(200, laneHeaders());
  },
  // The floor: Node's own work for the same eight headers, with nothing deciding which to add.
  'writeHead(object with the 3 hardening headers), no hardening': (req) => {
    new ServerResponse(req).writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'X-Webbridge-Protocol': '1',
      'X-Webbridge-Access': 'control',
      'Content-Length': 42,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': "frame-ancestors 'none'",
    });
  },
  'setHeader ×3, then writeHead(object)': (req) => {
    const res = new ServerResponse(req);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
    res.writeHead(200, laneHeaders());
  },
  'HardenedResponse.writeHead(object)': (req) => {
    new HardenedResponse(req).writeHead(200, laneHeaders());
  },
};

/** Runs one case in this process; prints its CPU ns per answer (after a warm-up). */
function measure(name: string): void {
  const run = CASES[name];
  if (!run) throw new Error(`no case ${name}`);
  const req = new IncomingMessage(new Socket());
  req.headers.host = '127.0.0.1:7878';
  for (let i = 0; i < ANSWERS / 3; i++) run(req);
  const start = process.cpuUsage();
  for (let i = 0; i < ANSWERS; i++) run(req);
  const used = process.cpuUsage(start);
  process.stdout.write(String(((used.user + used.system) * 1000) / ANSWERS));
}

const only = process.env.HARDENING_CASE;
if (only !== undefined) {
  measure(only);
} else {
  const rounds = Number(process.argv[2] ?? 5);
  const script = fileURLToPath(import.meta.url);
  const results = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(CASES)) {
      const out = execFileSync(process.execPath, [...process.execArgv, script], {
        env: { ...process.env, HARDENING_CASE: name },
        encoding: 'utf8',
      });
      results.set(name, [...(results.get(name) ?? []), Number(out)]);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  printTable(
    `Header work per answer, CPU, median of ${rounds} processes per case, Node ${process.version}`,
    [...results].map(([name, values]) => ({ case: name, 'ns per answer': Math.round(median(values)) })),
  );
}
