import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import type { AgentSessionScope } from './AgentClientServices';
import { WorkspaceClient } from './WorkspaceClient';

let dir: string;
let client: WorkspaceClient;
let changed: string[];
let scope: AgentSessionScope;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-client-')));
  client = new WorkspaceClient(new WorkspaceAuthoriser([dir]), { maxTerminals: 2, terminalChangedMs: 10 });
  changed = [];
  scope = {
    sessionId: 's1',
    cwd: client.workspaceOf(dir),
    handlers: {
      sessionUpdate: () => {},
      requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
      approveWrite: async () => true,
      terminalChanged: (id) => changed.push(id),
    },
  };
});

afterEach(async () => {
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('WorkspaceClient', () => {
  it('reads a window of lines (1-based line, limit)', async () => {
    fs.writeFileSync(path.join(dir, 'f.txt'), 'a\nb\nc\nd');
    const read = (line: number | null = null, limit: number | null = null) =>
      client.readTextFile(scope, { sessionId: 's1', path: path.join(dir, 'f.txt'), line, limit });
    expect((await read(2, 2)).content).toBe('b\nc');
    expect((await read(3)).content).toBe('c\nd');
    expect((await read()).content).toBe('a\nb\nc\nd');
    await expect(client.readTextFile(scope, { sessionId: 's1', path: 'f.txt' })).rejects.toThrow(/absolute/);
  });

  it('refuses a cwd outside the authorised roots', () => {
    expect(() => client.workspaceOf(os.homedir())).toThrow(/not a workspace/);
    expect(() => client.workspaceOf('relative')).toThrow(/not a workspace/);
  });

  it("tells about terminal output, bounds how many run, and kills a session's terminals on release", async () => {
    const long = await client.createTerminal(scope, { sessionId: 's1', command: 'sleep', args: ['30'] });
    const echo = await client.createTerminal(scope, { sessionId: 's1', command: 'echo hi there' });
    await expect(client.createTerminal(scope, { sessionId: 's1', command: 'true' })).rejects.toThrow(
      /at most 2/,
    );
    const exit = await client.waitForTerminalExit(
      scope,
      { sessionId: 's1', terminalId: echo.terminalId },
      new AbortController().signal,
    );
    expect(exit).toMatchObject({ exitCode: 0 });
    expect(client.peekTerminal(echo.terminalId)?.output).toBe('hi there\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(changed).toContain(echo.terminalId);
    const other = { ...scope, sessionId: 's2' };
    expect(() => client.terminalOutput(other, { sessionId: 's2', terminalId: long.terminalId })).toThrow();
    const aborting = new AbortController();
    const waiting = client.waitForTerminalExit(
      scope,
      { sessionId: 's1', terminalId: long.terminalId },
      aborting.signal,
    );
    aborting.abort();
    await expect(waiting).rejects.toThrow(/cancel/i);
    client.releaseSession('s1');
    expect(client.peekTerminal(long.terminalId)).toBeUndefined();
  });
});
