import { chmodSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';
import { startCli } from './cliProcess';

/**
 * Keeping the host machine awake, with a stand-in `systemd-inhibit` first on PATH that records
 * when it is held (started) and released (its `cat` saw the host close the pipe), as the real
 * one holds its lock exactly that long.
 */
const dir = mkdtempSync(join(tmpdir(), 'webbridge-inhibit-'));
const log = join(dir, 'inhibit.log');
writeFileSync(
  join(dir, 'systemd-inhibit'),
  `#!/bin/sh\necho "held $*" >> '${log}'\ncat > /dev/null\necho released >> '${log}'\n`,
);
chmodSync(join(dir, 'systemd-inhibit'), 0o755);
const PATH = `${dir}${delimiter}${process.env.PATH ?? ''}`;
const events = () => readFileSync(log, { encoding: 'utf8', flag: 'a+' }).split('\n').filter(Boolean);
const settled = (h: TestHost) =>
  waitFor(async () => {
    const s = await getState(h);
    return s.conversations.run.state === 'idle' && s.approvals.length === 0 ? s : undefined;
  }, 10_000);

// Linux's inhibitor (the project's CI runs Debian); caffeinate is found the same way on macOS.
describe('keep awake', () => {
  let h: TestHost;
  beforeAll(async () => {
    writeFileSync(log, '');
    h = await startTestHost({ echoDelayMs: 40, keepAwake: { env: { PATH } } });
  });
  afterAll(() => h.close(true));

  it('holds the inhibitor from the first word of a reply until it ends, then releases it', async () => {
    expect(events()).toEqual([]);
    await act(h, {
      action: 'send',
      text: 'one two three four five six seven eight',
      ...guardOf(await getState(h)),
    });
    await waitFor(() => (events()[0]?.startsWith('held') ? true : undefined), 5_000);
    expect(events()[0]).toContain('--what=idle:sleep');
    expect(h.host.keepAwake?.held).toBe(true);
    await settled(h);
    await waitFor(() => (events().length === 2 ? true : undefined), 5_000);
    expect(events().map((e) => e.split(' ')[0])).toEqual(['held', 'released']);
    expect(h.host.keepAwake?.held).toBe(false);
  });

  it('holds it while an approval waits, and releases it once the approval and its reply are over', async () => {
    writeFileSync(log, '');
    await act(h, {
      action: 'send',
      text: '/tool write_file {"path":"awake.txt","content":"x"}',
      ...guardOf(await getState(h)),
    });
    const waiting = await waitFor(async () => {
      const s = await getState(h);
      return s.approvals.length === 1 ? s : undefined;
    });
    await waitFor(() => (events().length === 1 ? true : undefined), 5_000);
    // Nobody answers for a while: still held.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events()).toHaveLength(1);
    await act(h, { action: 'approve', approvalId: waiting.approvals[0]!.id, decision: 'allow' });
    await settled(h);
    await waitFor(() => (events().at(-1) === 'released' ? true : undefined), 5_000);
    expect(events().filter((e) => e.startsWith('held'))).toHaveLength(1);
  });

  it('reports an inhibitor that ends at once, once, and does not start it again on every word', async () => {
    const failing = mkdtempSync(join(tmpdir(), 'webbridge-inhibit-fails-'));
    const tries = join(failing, 'tries.log');
    writeFileSync(join(failing, 'systemd-inhibit'), `#!/bin/sh\necho try >> '${tries}'\nexit 1\n`);
    chmodSync(join(failing, 'systemd-inhibit'), 0o755);
    const reports: string[] = [];
    const other = await startTestHost({
      echoDelayMs: 20,
      keepAwake: { env: { PATH: `${failing}${delimiter}${process.env.PATH ?? ''}` } },
      keepAwakeLog: (message) => reports.push(message),
    });
    try {
      await act(other, { action: 'send', text: 'a b c d e f g h i j', ...guardOf(await getState(other)) });
      await settled(other);
      await waitFor(() => (reports.length > 0 ? true : undefined), 5_000);
      expect(readFileSync(tries, 'utf8').trim().split('\n')).toEqual(['try']);
      expect(reports).toEqual([
        'systemd-inhibit ended at once (exit code 1): the machine may sleep during a reply',
      ]);
      expect(other.host.keepAwake?.supported).toBe(false);
    } finally {
      await other.close(true);
    }
  });

  it('says in the banner whether it can, and is off with --no-keep-awake', async () => {
    const env = { ...process.env, PATH, WEBBRIDGE_ACCESS_CODE: 'awake-code-7k2m-4q9x' };
    const data = () => mkdtempSync(join(tmpdir(), 'webbridge-awake-'));
    const banner = async (args: string[], runEnv: NodeJS.ProcessEnv) => {
      const cli = await startCli(
        ['--port', '0', '--data-dir', data(), '--no-console', ...args],
        20_000,
        runEnv,
      );
      try {
        return await waitFor(() => cli.lines.find((l) => l.startsWith('keep awake:')), 10_000);
      } finally {
        cli.child.kill('SIGTERM');
        await cli.exited();
      }
    };
    expect(await banner([], env)).toBe(
      'keep awake: with systemd-inhibit while a reply runs or an approval waits',
    );
    expect(await banner(['--no-keep-awake'], env)).toMatch(/^keep awake: off \(--no-keep-awake\)/);
    // No inhibitor on PATH (a folder with node alone): it says so.
    const nodeOnly = mkdtempSync(join(tmpdir(), 'webbridge-node-only-'));
    symlinkSync(process.execPath, join(nodeOnly, 'node'));
    const bare = { ...env, PATH: nodeOnly };
    expect(await banner([], bare)).toBe(
      'keep awake: unavailable (no systemd-inhibit on PATH): the machine may sleep during a reply',
    );
  }, 60_000);
});
