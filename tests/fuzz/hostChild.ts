/**
 * A fuzzed host in a process of its own (run by tests/bench/fuzz.ts), so that a crash shows as
 * the process ending and the fuzzing client does not share the host's event loop. It tells
 * its parent the port over IPC and reports unhandled errors the bridge logs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFuzzedHost } from './fuzzHost';

const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-fuzz-'));
const logged: string[] = [];
const host = await startFuzzedHost(dataDir, logged);
let reported = 0;
const report = setInterval(() => {
  const fresh = logged.slice(reported).filter((line) => line.includes('unhandled'));
  reported = logged.length;
  if (fresh.length > 0) process.send?.({ type: 'logged', lines: fresh });
}, 200);
process.send?.({ type: 'ready', port: host.address.port });
// The parent ending (or asking) ends the host; the data dir goes with it.
process.on('disconnect', async () => {
  clearInterval(report);
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
