/**
 * A program that hides its secrets the way the CLI does (host/src/cli/secretHandover.ts), for
 * tests/host/secretHandoverFallback.test.ts, but always through the fallback: it hands
 * `handOverSecrets` a copy of its environment, so erasing them in place (which works on this
 * Linux) is not tried, as on a system where `/proc/self/mem` cannot be written. The process
 * started again prints one JSON line (its pid, its parent's, what `receiveSecrets` gave it and
 * its own `/proc/self/environ`), then, by the first argument: `exit` ends with status 7,
 * `wait` waits for a signal.
 * Run: node --import tsx tests/host/secretHandoverProbe.ts exit|wait
 */
import { readFileSync } from 'node:fs';
import { handOverSecrets, receiveSecrets } from '../../host/src/cli/secretHandover';

const mode = process.argv[2];
const handedOver = handOverSecrets(process.argv.slice(2), { ...process.env });
if (handedOver) {
  process.exitCode = await handedOver;
} else {
  const received = receiveSecrets();
  const environ = readFileSync('/proc/self/environ', 'latin1');
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ppid: process.ppid, received, environ })}\n`);
  if (mode === 'exit') process.exitCode = 7;
  // Kept alive until a signal ends it (or its parent goes away: receiveSecrets arranged that).
  else setInterval(() => undefined, 60_000);
}
