import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost } from '@webbridge/host';
import { Fuzzer, type FuzzFailure } from './Fuzzer';
import { WireClient } from './wire';

/** The access code of a fuzzed host. */
export const FUZZ_CODE = 'fuzz-code-5t8w-2r6p';

/** Upload limit of a fuzzed host: small, so sending exactly the limit (and one more) is cheap. */
export const FUZZ_UPLOAD_LIMIT = 64 * 1024;

/**
 * Starts a reference host as the fuzzer wants it: echo model without pauses, no web client,
 * logging warnings and errors to `logged` (an unhandled error there is a defect).
 */
export function startFuzzedHost(dataDir: string, logged: string[], port = 0) {
  return startHost({
    dataDir,
    accessCode: FUZZ_CODE,
    port,
    hostname: '127.0.0.1',
    echoDelayMs: 0,
    uploadLimit: FUZZ_UPLOAD_LIMIT,
    staticDir: null,
    logLevel: 'warn',
    tuning: {
      // Wrong codes are part of the mix; a lockout would turn every later request into a 429.
      authThrottle: { freeFailures: Number.MAX_SAFE_INTEGER },
      logDestination: { write: (line: string) => logged.push(line) },
    },
  });
}

/** A real host on a temp data dir, a client with kept-alive sockets, and a fuzzer driving it. */
export interface FuzzSetup {
  readonly fuzzer: Fuzzer;
  /** Lines the bridge logged at level warn or above (an unhandled error among them is a defect). */
  readonly logged: readonly string[];
  /** Stops the host and starts it again on the same data dir and port (a new run). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a reference host in this process and a fuzzer for it. */
export async function startFuzzHost(): Promise<FuzzSetup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-fuzz-'));
  const logged: string[] = [];
  let host = await startFuzzedHost(dataDir, logged);
  const port = host.address.port;
  const client = new WireClient(port);
  const fuzzer = new Fuzzer({ port, code: FUZZ_CODE, uploadLimit: FUZZ_UPLOAD_LIMIT }, client);
  return {
    fuzzer,
    logged,
    async restart() {
      await host.close();
      client.closeIdle();
      host = await startFuzzedHost(dataDir, logged, port);
      fuzzer.newRun();
    },
    async close() {
      client.close();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A readable report of failures: each rule broken once, with the first request that broke it. */
export function describeFailures(failures: readonly FuzzFailure[], limit = 10): string {
  const byRule = new Map<string, FuzzFailure>();
  const counts = new Map<string, number>();
  for (const failure of failures) {
    for (const violation of failure.violations) {
      // Numbers differ from one occurrence to the next; the rule is what the text says without them.
      const rule = violation.replace(/\d+/g, 'N').slice(0, 100);
      if (!byRule.has(rule)) byRule.set(rule, failure);
      counts.set(rule, (counts.get(rule) ?? 0) + 1);
    }
  }
  return [...byRule]
    .slice(0, limit)
    .map(
      ([rule, f]) =>
        `- ${rule} (×${counts.get(rule)})\n    ${f.status} ← ${f.request.slice(0, 400)}\n    ${f.violations.join('\n    ')}`,
    )
    .join('\n');
}
