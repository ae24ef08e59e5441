import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionNotification } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import type { AgentClientHandlers, AgentFileWrite } from './AgentClientHandlers';
import type { AgentConnection } from './AgentConnection';
import type { AgentCommandEntry } from './AgentEntry';
import { AgentError } from './AgentError';
import { Agents } from './Agents';
import { agentsCommand } from './agentsConsole';
import { processAlive } from './testing/processAlive';
import { writeStdioAgent } from './testing/stdioAgent';

let dir: string;
let workspace: string;
let script: string;
let agents: Agents | undefined;
let logLines: string[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-process-'));
  workspace = path.join(dir, 'ws');
  fs.mkdirSync(workspace);
  script = writeStdioAgent(dir);
  logLines = [];
});

afterEach(async () => {
  await agents?.close();
  agents = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

function entry(name: string, env: Record<string, string> = {}): AgentCommandEntry {
  return { name, command: process.execPath, args: [script], env, cwd: undefined, signIn: undefined };
}

function open(
  entries: AgentCommandEntry[],
  maxMessageBytes = 16 * 1024 * 1024,
  backoffInitialMs = 100,
): Agents {
  agents = new Agents({
    entries,
    authoriser: new WorkspaceAuthoriser([workspace]),
    log: (level, message, agent) => logLines.push(`${level} ${agent ?? ''} ${message}`),
    tuning: {
      backoffInitialMs,
      backoffMaxMs: Math.max(200, backoffInitialMs),
      killGraceMs: 300,
      maxMessageBytes,
    },
  });
  return agents;
}

/** Handlers that keep the text of every message chunk; writes are allowed unless `deny`. */
function textHandlers(options: { deny?: boolean; writes?: AgentFileWrite[] } = {}) {
  const texts: string[] = [];
  const handlers: AgentClientHandlers = {
    sessionUpdate: (n: SessionNotification) => {
      if (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text')
        texts.push(n.update.content.text);
    },
    requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
    approveWrite: async (write) => {
      options.writes?.push(write);
      return options.deny !== true;
    },
  };
  return { texts, handlers };
}

async function ask(connection: AgentConnection, text: string, handlers = textHandlers()): Promise<string> {
  const { sessionId } = await connection.newSession({
    cwd: workspace,
    mcpServers: [],
    handlers: handlers.handlers,
  });
  await connection.prompt(sessionId, [{ type: 'text', text }]);
  return handlers.texts.join('');
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('AgentProcess (a real child process)', () => {
  it('starts on first use, reads initialize, and streams a reply', async () => {
    const registry = open([entry('one')]);
    expect(registry.list()).toEqual([{ name: 'one', builtin: false, state: 'idle' }]);
    const connection = await registry.connection('one');
    expect(registry.list()[0]).toMatchObject({ state: 'ready', version: '0.0.1' });
    expect(await ask(connection, 'hello')).toBe('Hello world');
    // The same connection while it lives.
    expect(await registry.connection('one')).toBe(connection);
  });

  it('a crash mid-turn rejects the prompt with the stderr tail, marks it failed, and restarts it', async () => {
    const registry = open([entry('one')]);
    const connection = await registry.connection('one');
    const error = await ask(connection, 'crash').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).kind).toBe('crashed');
    expect((error as AgentError).message).toContain('exited with code 3');
    expect((error as AgentError).message).toContain('boom: the agent fell over');
    expect(registry.list()[0]).toMatchObject({ state: 'failed' });
    expect(registry.list()[0]?.reason).toContain('boom');
    expect(registry.list()[0]?.reason?.split('Its last output').length).toBe(2);
    // Asked for while its restart is due within moments: started at once, not refused.
    expect(await ask(await registry.connection('one'), 'hello')).toBe('Hello world');
  });

  it('an oversize message fails that agent only; another keeps working', async () => {
    const registry = open([entry('big'), entry('other')], 4096);
    const big = await registry.connection('big');
    const other = await registry.connection('other');
    const error = await ask(big, 'oversize 10000').catch((e: unknown) => e);
    expect((error as AgentError).kind).toBe('crashed');
    expect((error as AgentError).message).toMatch(/over .* MiB|message/);
    expect(registry.list().find((a) => a.name === 'big')?.state).toBe('failed');
    expect(await ask(other, 'hello')).toBe('Hello world');
  });

  it('malformed JSON-RPC marks the agent failed', async () => {
    const registry = open([entry('one')]);
    const connection = await registry.connection('one');
    const error = await ask(connection, 'garbage').catch((e: unknown) => e);
    expect((error as AgentError).kind).toBe('crashed');
    expect((error as AgentError).message).toContain('not JSON');
    expect(registry.list()[0]).toMatchObject({ state: 'failed' });
  });

  it('a line that is not JSON before initialize fails the start at once', async () => {
    const registry = open([entry('one', { GARBAGE_FIRST: '1' })]);
    const error = await registry.connection('one').catch((e: unknown) => e);
    expect((error as AgentError).message).toContain('not JSON');
    expect(registry.list()[0]).toMatchObject({ state: 'failed' });
  });

  it('stderr goes to the host log, not to the session', async () => {
    const registry = open([entry('one', { SOME_TOKEN: 'hunter2-secret' })]);
    const handlers = textHandlers();
    const text = await ask(await registry.connection('one'), 'stderr 3', handlers);
    await until(() => logLines.some((line) => line.includes('[stderr] line 2')));
    expect(logLines.some((line) => line.includes('one [stderr] line 0'))).toBe(true);
    expect(text).not.toContain('line 0');
  });

  it('gives the agent no host secrets, only basic variables and its own env', async () => {
    process.env.WEBBRIDGE_TEST_ACCESS_CODE = 'code-123';
    process.env.OPENAI_API_KEY_FOR_TEST = 'sk-test';
    try {
      const registry = open([entry('one', { AGENT_OWN: 'x' })]);
      const names = (await ask(await registry.connection('one'), 'env')).split(',');
      expect(names).toContain('AGENT_OWN');
      expect(names).toContain('PATH');
      expect(names).not.toContain('WEBBRIDGE_TEST_ACCESS_CODE');
      expect(names).not.toContain('OPENAI_API_KEY_FOR_TEST');
    } finally {
      delete process.env.WEBBRIDGE_TEST_ACCESS_CODE;
      delete process.env.OPENAI_API_KEY_FOR_TEST;
    }
  });

  it('close ends the whole process group (a grandchild too)', async () => {
    const registry = open([entry('one')]);
    const pid = Number(await ask(await registry.connection('one'), 'grandchild'));
    expect(processAlive(pid)).toBe(true);
    await registry.close();
    await until(() => !processAlive(pid), 5_000);
  });

  it('a crash also ends what the agent started (its process group)', async () => {
    const registry = open([entry('one')]);
    const connection = await registry.connection('one');
    const pid = Number(await ask(connection, 'grandchild'));
    expect(processAlive(pid)).toBe(true);
    await ask(connection, 'crash').catch(() => {});
    await until(() => !processAlive(pid), 5_000);
  });

  it('authentication required: needs_sign_in with what to run, the error says so', async () => {
    const registry = open([entry('one', { AUTH: '1' })]);
    const connection = await registry.connection('one');
    const error = await ask(connection, 'hello').catch((e: unknown) => e);
    expect((error as AgentError).kind).toBe('needs_sign_in');
    expect(registry.list()[0]).toMatchObject({ state: 'needs_sign_in' });
    expect(registry.list()[0]?.signIn).toContain('Log in');
  });

  it('restart (console) ends the old process and starts a fresh connection', async () => {
    const registry = open([entry('one'), { ...entry('gone'), command: path.join(dir, 'no-such-agent') }]);
    const first = await registry.connection('one');
    await registry.connection('gone').catch(() => {});
    const printed: string[] = [];
    agentsCommand(registry, '', (line) => printed.push(line));
    expect(printed[0]).toMatch(/^ {2}builtin +ready/);
    expect(printed[1]).toMatch(/^ {2}one +ready +stdio-agent 0\.0\.1$/);
    expect(printed[2]).toMatch(/^ {2}gone +failed/);
    expect(printed[3]).toContain('was not found');
    agentsCommand(registry, 'restart one', (line) => printed.push(line));
    expect(printed.at(-1)).toBe('Restarting one.');
    await until(() => !first.alive && registry.list()[0]?.state === 'ready');
    const second = await registry.connection('one');
    expect(second).not.toBe(first);
    expect(await ask(second, 'hello')).toBe('Hello world');
    expect(() => agentsCommand(registry, 'restart', () => {})).toThrow(/Name an agent/);
  });

  it('is ready again once a session opens after signing in on the host', async () => {
    const signedIn = path.join(dir, 'signed-in');
    const registry = open([{ ...entry('one', { SIGNED_IN_FILE: signedIn }), signIn: 'stdio-agent login' }]);
    const connection = await registry.connection('one');
    await expect(ask(connection, 'hello')).rejects.toMatchObject({ kind: 'needs_sign_in' });
    expect(registry.list()[0]).toMatchObject({ state: 'needs_sign_in', signIn: 'stdio-agent login' });
    fs.writeFileSync(signedIn, '');
    expect(await ask(await registry.connection('one'), 'hello')).toBe('Hello world');
    expect(registry.list()[0]).toMatchObject({ state: 'ready' });
    expect(registry.list()[0]?.signIn).toBeUndefined();
  });

  it('an agent that cannot be spawned is failed with a readable reason', async () => {
    const registry = open(
      [{ ...entry('gone'), command: path.join(dir, 'no-such-agent') }],
      undefined,
      10_000,
    );
    const error = await registry.connection('gone').catch((e: unknown) => e);
    expect((error as AgentError).message).toContain('was not found');
    expect(registry.list()[0]).toMatchObject({ state: 'failed' });
    // While its restart is far off, asking again says so rather than spawning again.
    await expect(registry.connection('gone')).rejects.toThrow(/was not found.*It restarts in 10 s/);
  });
});

describe('WorkspaceClient through a real agent', () => {
  it('reads a file inside the workspace; refuses one outside without reading it', async () => {
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'inside');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside');
    fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(workspace, 'link.txt'));
    const registry = open([entry('one')]);
    const connection = await registry.connection('one');
    expect(JSON.parse(await ask(connection, `read ${path.join(workspace, 'a.txt')}`))).toEqual({
      ok: { content: 'inside' },
    });
    for (const outside of [
      path.join(dir, 'secret.txt'),
      path.join(workspace, 'link.txt'),
      `${workspace}/../secret.txt`,
    ]) {
      const answer = await ask(connection, `read ${outside}`);
      expect(answer).not.toContain('outside"');
      expect(JSON.parse(answer).error.code).toBe(-32602);
    }
  });

  it('writes only after approveWrite says yes, with the old and new text', async () => {
    fs.writeFileSync(path.join(workspace, 'b.txt'), 'old');
    const writes: AgentFileWrite[] = [];
    const registry = open([entry('one')]);
    const connection = await registry.connection('one');
    const denied = await ask(
      connection,
      `write ${path.join(workspace, 'b.txt')} new text`,
      textHandlers({ deny: true, writes }),
    );
    expect(JSON.parse(denied).error).toBeDefined();
    expect(fs.readFileSync(path.join(workspace, 'b.txt'), 'utf8')).toBe('old');
    const allowed = await ask(
      connection,
      `write ${path.join(workspace, 'b.txt')} new text`,
      textHandlers({ writes }),
    );
    expect(JSON.parse(allowed)).toEqual({ ok: {} });
    expect(fs.readFileSync(path.join(workspace, 'b.txt'), 'utf8')).toBe('new text');
    expect(writes[0]).toMatchObject({ relativePath: 'b.txt', oldText: 'old', newText: 'new text' });
    const outside = await ask(connection, `write ${path.join(dir, 'c.txt')} x`, textHandlers({ writes }));
    expect(JSON.parse(outside).error.code).toBe(-32602);
    expect(fs.existsSync(path.join(dir, 'c.txt'))).toBe(false);
    expect(writes).toHaveLength(2);
  });

  it('runs a terminal in the workspace and keeps only the newest output bytes', async () => {
    const registry = open([entry('one', { TERM_LIMIT: '100' })]);
    const connection = await registry.connection('one');
    const answer = JSON.parse(
      await ask(connection, `term ${process.execPath} -e process.stdout.write('x'.repeat(5000)+'END')`),
    );
    expect(answer.ok.exit).toMatchObject({ exitCode: 0 });
    expect(answer.ok.output.truncated).toBe(true);
    expect(answer.ok.output.output.length).toBeLessThanOrEqual(100);
    expect(answer.ok.output.output.endsWith('END')).toBe(true);
  });
});
