import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set once the run's folder is made: the unit, HTTP and browser projects share one. */
const OWNER = 'WEBBRIDGE_TEST_TMPDIR';

/**
 * Every temporary folder the tests make (hosts' data, workspaces, uploads, certificates, MCP
 * logs, Chromium profiles) goes under one folder of this run, removed when the run ends: a run
 * used to leave a hundred folders or more in the system's temporary folder. The test workers
 * and the processes they start inherit TMPDIR, which `os.tmpdir()` reads at every call.
 */
export default function setup(): (() => void) | undefined {
  // Each project runs its global setup: the first one makes the folder and removes it.
  if (process.env[OWNER] !== undefined) return undefined;
  const root = mkdtempSync(join(tmpdir(), 'webbridge-tests-'));
  process.env[OWNER] = root;
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
