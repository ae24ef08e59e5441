import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { CLI } from './cliProcess';
import { EVERYTHING } from './mcp/mcpTestHost';

const CODE = 'mcp-cli-code-8d2k';
const SECRET = 'tok-cli-secret-5e61b0';

let child: ChildProcessByStdio<null, Readable, Readable> | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

/** Pids of live processes whose environment holds `WB_SERVER=<name>` (children or orphans). */
function serversNamed(name: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
        return readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`WB_SERVER=${name}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('webbridge serve --mcp-config', () => {
  it('starts the servers of one config file; a call is approved over the web API; logs are JSON off a terminal and hold no secret', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npx pnpm build\` first.`);
    const dir = mkdtempSync(join(tmpdir(), 'webbridge-mcp-cli-'));
    const config = join(dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: 'node', args: [EVERYTHING, 'stdio'], env: { WB_SERVER: 'cli-everything' } },
          broken: { command: 'wb-missing-mcp-server', env: { API_TOKEN: SECRET } },
        },
      }),
    );
    child = spawn(
      CLI,
      ['serve', '--port', '0', '--no-console', '--data-dir', join(dir, 'data'), '--mcp-config', config],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WEBBRIDGE_ACCESS_CODE: CODE } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const url = await waitFor(
      () => /^webbridge listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1],
      10_000,
    );
    const h = {
      url,
      auth: () => ({ Authorization: `Bearer ${CODE}`, 'Content-Type': 'application/json' }),
    };
    await waitFor(() => (stdout.includes('MCP servers: everything, broken\n') ? true : undefined));
    await waitFor(async () => {
      const servers = (await getState(h)).tools.servers;
      return servers?.find((s) => s.name === 'everything')?.state === 'ready' ? true : undefined;
    }, 10_000);

    const state = await getState(h);
    await act(h, {
      action: 'send',
      text: '/tool everything__echo {"message":"from the phone"}',
      ...guardOf(state),
    });
    const approval = await waitFor(async () => (await getState(h)).approvals[0]);
    await act(h, { action: 'approve', approvalId: approval.id, decision: 'allow' });
    const answer = await waitFor(async () => {
      const last = (await getState(h)).conversations.messages.at(-1);
      return last?.role === 'tool' ? last : undefined;
    });
    expect(answer.text).toBe('Echo: from the phone');

    await waitFor(() => (stderr.includes('"broken\\" failed') ? true : undefined));
    const records = stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { name: string; level: number; msg: string });
    expect(records).toContainEqual(
      expect.objectContaining({
        name: 'mcp',
        level: 30,
        msg: 'MCP server "everything" is ready with 13 tools.',
      }),
    );
    expect(records).toContainEqual(expect.objectContaining({ name: 'mcp', level: 40 }));
    expect(stderr + stdout).not.toContain(SECRET);

    const pid = serversNamed('cli-everything');
    expect(pid).toHaveLength(1);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child?.on('exit', resolve));
    expect(code).toBe(0);
    // The server went with the host.
    await waitFor(() => (serversNamed('cli-everything').length === 0 ? true : undefined), 3_000);
  });
});
