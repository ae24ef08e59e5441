import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { cliNodeFlags } from '../support/cliNodeFlags';
import { type CliProcess, startCli } from './cliProcess';

let cli: CliProcess | undefined;
afterEach(() => {
  if (cli && cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  cli = undefined;
});

// The bound on V8's young generation is what keeps RSS within 5 % after bursts of stream opens
// and closes (docs/PERFORMANCE.md). It is written twice: the CLI's shebang and `pnpm start`.
it('the webbridge command runs Node with the young-generation bound', async () => {
  expect(cliNodeFlags()).toEqual(['--max-semi-space-size=2']);
  // A data dir of its own: the default (~/.webbridge) may hold another build's database.
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-cli-flags-'));
  cli = await startCli([
    '--port',
    '0',
    '--no-console',
    '--data-dir',
    dataDir,
    '--access-code',
    'test-code-1234',
  ]);
  const argv = readFileSync(`/proc/${cli.child.pid}/cmdline`, 'utf8').split('\0');
  expect(argv).toContain('--max-semi-space-size=2');
  expect(argv.some((arg) => arg.endsWith('cli.js'))).toBe(true);
  cli.child.kill('SIGTERM');
  expect((await cli.exited()).code).toBe(0);
});

it('`pnpm start` gives Node the same flags as the shebang', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(manifest.scripts.start).toContain(`node ${cliNodeFlags().join(' ')} host/dist/cli.js serve`);
});
