import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/api';

// The secret handover's fallback (host/src/cli/secretHandover.ts): where a secret cannot be
// erased from the process's own environment, the CLI starts again without its secrets and passes
// them on descriptor 3, then stays as the parent that forwards signals and the exit status. On
// this Linux the erasing works, so the CLI's own tests (cliSecretsEnviron.test.ts) never take
// this path; secretHandoverProbe.ts enters the same functions so that they must take it.

const PROBE = fileURLToPath(new URL('./secretHandoverProbe.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const CODE = 'fallback-secret-code-4h7j';
const KEY = 'sk-fallback-secret-key-2m9w';
const TOKEN = 'tok-fallback-secret-6t3r';

interface Report {
  readonly pid: number;
  readonly ppid: number;
  readonly received: Record<string, string>;
  readonly environ: string;
}

interface Probe {
  readonly child: ChildProcessByStdio<null, Readable, null>;
  readonly report: Promise<Report>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Probe[] = [];
afterEach(async () => {
  for (const probe of started.splice(0)) {
    if (probe.child.exitCode === null) probe.child.kill('SIGKILL');
    // The process started again, should a failed test have left it running.
    const pid = await probe.report.then(
      (report) => report.pid,
      () => undefined,
    );
    if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
  }
});

function startProbe(mode: 'exit' | 'wait'): Probe {
  const { WEBBRIDGE_ACCESS_CODE: _a, WEBBRIDGE_VIEW_CODE: _v, OPENAI_API_KEY: _k, ...base } = process.env;
  const child = spawn(process.execPath, ['--import', TSX, PROBE, mode], {
    env: {
      ...base,
      WEBBRIDGE_ACCESS_CODE: CODE,
      OPENAI_API_KEY: KEY,
      SOME_SERVICE_TOKEN: TOKEN,
      // A copy under a plain name would give the key away all the same.
      KEY_BACKUP: KEY,
      WEBBRIDGE_PLAIN_MARK: 'still-visible',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const report = new Promise<Report>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end !== -1) resolve(JSON.parse(text.slice(0, end)) as Report);
    });
    child.once('exit', () => reject(new Error(`the probe ended without a report: ${text}`)));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const probe = { child, report, exited };
  started.push(probe);
  return probe;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the secret handover when a secret cannot be erased in place', () => {
  it('starts again without the secrets in its environment, gets them on descriptor 3, and ends with its status', async () => {
    const probe = startProbe('exit');
    const report = await probe.report;
    // A second process did the work: the one started is its parent.
    expect(report.ppid).toBe(probe.child.pid);
    expect(report.pid).not.toBe(probe.child.pid);
    // Every secret arrived (the copy under a plain name is not one of them)...
    expect(report.received).toEqual({
      WEBBRIDGE_ACCESS_CODE: CODE,
      OPENAI_API_KEY: KEY,
      SOME_SERVICE_TOKEN: TOKEN,
    });
    // ...and none is in what /proc/<pid>/environ shows of the process that runs the host.
    const entries = report.environ.split('\0');
    expect(entries).toContain('WEBBRIDGE_PLAIN_MARK=still-visible');
    for (const secret of [CODE, KEY, TOKEN]) expect(report.environ).not.toContain(secret);
    expect(entries.some((entry) => entry.startsWith('KEY_BACKUP='))).toBe(false);
    // The exit status of the process started again is the status of the one started.
    expect(await probe.exited).toEqual({ code: 7, signal: null });
    expect(alive(report.pid)).toBe(false);
  });

  it('passes a SIGTERM on and ends by the same signal', async () => {
    const probe = startProbe('wait');
    const report = await probe.report;
    expect(alive(report.pid)).toBe(true);
    probe.child.kill('SIGTERM');
    expect(await probe.exited).toEqual({ code: null, signal: 'SIGTERM' });
    await waitFor(() => (alive(report.pid) ? undefined : true), 5_000);
  });

  it('never outlives the process started: killed with SIGKILL, the other one ends too', async () => {
    const probe = startProbe('wait');
    const report = await probe.report;
    probe.child.kill('SIGKILL');
    await probe.exited;
    await waitFor(() => (alive(report.pid) ? undefined : true), 5_000);
  });
});
