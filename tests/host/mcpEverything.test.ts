import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Snapshot } from '@webbridge/contract';
import type { ModelEvent, ModelProvider, ModelRequest, ModelTool } from '@webbridge/host';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startConsole } from '../../host/src/cli/startConsole';
import { act, getState, guardOf, waitFor } from '../support/api';
import { childProcesses, serverPid, waitForReplacement } from './mcp/childProcesses';
import {
  EVERYTHING,
  FILESYSTEM,
  type McpTestHost,
  startMcpHost,
  waitForServer,
  waitForStatus,
} from './mcp/mcpTestHost';
import { send, waitForLast } from './modelHost';

/** A model that calls `everything__echo` and remembers the tools each request offered. */
class RecordingModel implements ModelProvider {
  readonly id = 'recording';
  readonly models = [{ id: 'recording', name: 'Recording', provider: 'recording' }];
  readonly followsToolResults = false;
  offered: readonly ModelTool[] = [];
  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    this.offered = request.tools;
    yield { type: 'tool_call', name: 'everything__echo', args: '{"message":"from the model"}' };
  }
}

const SECRET = 'sk-host-secret-never-in-a-child';
const recording = new RecordingModel();
let h: McpTestHost;
let files: string;

beforeAll(async () => {
  // What the host's environment holds must not reach a server.
  process.env.OPENAI_API_KEY = SECRET;
  files = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'wb-mcp-fs-'));
  h = await startMcpHost(
    {
      everything: {
        command: 'node',
        args: [EVERYTHING, 'stdio'],
        env: { WB_SERVER: 'everything' },
        timeoutMs: 2_500,
      },
      trusted: {
        command: 'node',
        args: [EVERYTHING, 'stdio'],
        env: { WB_SERVER: 'trusted', WB_VISIBLE: 'yes' },
        approval: 'allow',
      },
      files: { command: 'node', args: [FILESYSTEM, files], env: { WB_SERVER: 'files' }, approval: 'allow' },
    },
    { providers: [recording] },
  );
  await Promise.all(['everything', 'trusted', 'files'].map((name) => waitForServer(h, name, 'ready')));
});
afterAll(async () => {
  delete process.env.OPENAI_API_KEY;
  await h?.close();
});
beforeEach(async () => {
  await act(h, { action: 'newConversation' });
});

/** Sends `/tool <name> <args>` to the echo model and waits for the call's approval. */
async function callAndWaitForApproval(name: string, args: unknown) {
  await send(h, `/tool ${name} ${JSON.stringify(args)}`);
  const state = await waitForLast(h, (_, s) => s.approvals.length === 1);
  return state.approvals[0]!;
}

/** Waits for the result message of the current conversation's last call. */
function result(timeoutMs = 5_000): Promise<Snapshot['conversations']['messages'][number]> {
  return waitForLast(h, (m, s) => m.role === 'tool' && s.conversations.run.state === 'idle', timeoutMs).then(
    (s) => s.conversations.messages.at(-1)!,
  );
}

describe('MCP servers nobody here wrote, started over stdio by the real host', () => {
  it('lists their tools in the snapshot, named by server, with a status per server', async () => {
    const { tools } = await getState(h);
    expect(tools.servers).toEqual([
      { name: 'everything', transport: 'stdio', state: 'ready', toolCount: 13, approval: 'ask' },
      { name: 'trusted', transport: 'stdio', state: 'ready', toolCount: 13, approval: 'allow' },
      { name: 'files', transport: 'stdio', state: 'ready', toolCount: 14, approval: 'allow' },
    ]);
    expect(tools.list.find((t) => t.name === 'everything__echo')).toEqual({
      name: 'everything__echo',
      description: 'Echoes back the input string',
      needsApproval: true,
      enabled: true,
      server: 'everything',
    });
    // The built-ins are still there, without a server.
    expect(tools.list.find((t) => t.name === 'read_file')).not.toHaveProperty('server');
    // Under "allow", a tool the server marks destructive still asks; others do not.
    expect(tools.list.find((t) => t.name === 'files__write_file')?.needsApproval).toBe(true);
    expect(tools.list.find((t) => t.name === 'files__list_directory')?.needsApproval).toBe(false);
  });

  it('offers them to a model as it offers the built-ins, with their input schemas', async () => {
    const state = await getState(h);
    await act(h, { action: 'model', modelId: 'recording', ...guardOf(state) });
    try {
      await send(h, 'anything');
      await waitForLast(h, (_, s) => s.approvals.length === 1);
      const echo = recording.offered.find((tool) => tool.name === 'everything__echo');
      expect(echo?.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
      expect(echo?.parameters).not.toHaveProperty('$schema');
      expect(recording.offered.map((tool) => tool.name)).toContain('read_file');
      const approval = (await getState(h)).approvals[0]!;
      expect(approval.summary).toBe('everything: echo {"message":"from the model"}');
      await act(h, { action: 'approve', approvalId: approval.id, decision: 'deny' });
    } finally {
      await act(h, { action: 'model', modelId: 'echo', ...guardOf(await getState(h)) });
    }
  });

  it('runs a call approved from the web API (POST /api/action approve)', async () => {
    const approval = await callAndWaitForApproval('everything__echo', { message: 'hello' });
    expect(approval.tool).toBe('everything__echo');
    await act(h, { action: 'approve', approvalId: approval.id, decision: 'allow' });
    expect(await result()).toMatchObject({ role: 'tool', status: 'complete', text: 'Echo: hello' });
  });

  it('runs a call approved from the console', async () => {
    const approval = await callAndWaitForApproval('everything__get-sum', { a: 2, b: 40 });
    const { type, close } = consoleOf();
    try {
      await type('approvals', /1\. everything: get-sum \{"a":2,"b":40\}/);
      await type('allow 1', /Allowed: everything: get-sum/);
    } finally {
      close();
    }
    expect(approval.id).toBeTruthy();
    expect((await result()).text).toMatch(/42/);
  });

  it('records a denied call without running it', async () => {
    const approval = await callAndWaitForApproval('everything__echo', { message: 'never' });
    await act(h, { action: 'approve', approvalId: approval.id, decision: 'deny' });
    const denied = await result();
    expect(denied).toMatchObject({
      status: 'complete',
      text: 'Denied: the user did not allow everything__echo.',
    });
  });

  it('runs a trusted server without asking, in an environment of only what its config names', async () => {
    await send(h, '/tool trusted__get-env {}');
    const env = JSON.parse((await result()).text) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(['PATH', 'WB_SERVER', 'WB_VISIBLE']);
    expect(JSON.stringify(env)).not.toContain(SECRET);
    // The minimal PATH: where node is and the system folders, not the host's PATH.
    expect(env.PATH?.split(':')).toContain(path.dirname(process.execPath));
    expect(env.PATH?.split(':')).toContain('/usr/bin');
    expect(childProcesses().find((c) => c.env.WB_SERVER === 'trusted')?.env).not.toHaveProperty('HOME');
  });

  it('attaches an image a tool returns', async () => {
    await send(h, '/tool trusted__get-tiny-image {}');
    const message = await result();
    expect(message.status).toBe('complete');
    expect(message.attachments).toEqual([
      expect.objectContaining({ name: 'get-tiny-image-image-2.png', type: 'image/png' }),
    ]);
    expect(message.text).toContain('[attached get-tiny-image-image-2.png (image/png,');
  });

  it('asks for a destructive tool of a trusted server, and runs it once allowed', async () => {
    await send(h, `/tool files__list_directory ${JSON.stringify({ path: files })}`);
    expect((await result()).status).toBe('complete');
    const target = path.join(files, 'note.txt');
    const approval = await callAndWaitForApproval('files__write_file', { path: target, content: 'hi' });
    expect(approval.summary).toMatch(/^files: write_file .* \(marked destructive\)$/);
    expect(fs.existsSync(target)).toBe(false);
    await act(h, { action: 'approve', approvalId: approval.id, decision: 'allow' });
    expect((await result()).status).toBe('complete');
    expect(fs.readFileSync(target, 'utf8')).toBe('hi');
  });

  it('ends a call that hangs past the timeout in an error, and the server stays', async () => {
    const approval = await callAndWaitForApproval('everything__trigger-long-running-operation', {
      duration: 6,
      steps: 1,
    });
    const started = Date.now();
    await act(h, { action: 'approve', approvalId: approval.id, decision: 'allow' });
    const failed = await result();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(failed).toMatchObject({ status: 'error' });
    expect(failed.error).toBe(
      'The MCP server "everything" did not answer within 2.5 s; the call was cancelled.',
    );
    // The server was busy, not stuck: a ping answered, so it was not restarted.
    await new Promise((r) => setTimeout(r, 300));
    expect((await getState(h)).tools.servers?.find((s) => s.name === 'everything')?.state).toBe('ready');
  });

  it('cancels a running call on stop', async () => {
    await send(h, '/tool trusted__trigger-long-running-operation {"duration":10,"steps":2}');
    const running = await waitForLast(
      h,
      (m, s) => m.tool !== undefined && s.conversations.run.state === 'streaming',
    );
    const stopAt = Date.now();
    await act(h, { action: 'stop', ...guardOf(running) });
    const stopped = await waitForLast(
      h,
      (m, s) => m.status === 'stopped' && s.conversations.run.state === 'idle',
    );
    // At once rather than when the 10 s operation ends (a loaded machine may take a second).
    expect(Date.now() - stopAt).toBeLessThan(5_000);
    expect(stopped.conversations.messages.at(-1)?.tool?.name).toBe('trusted__trigger-long-running-operation');
    // The server is still there and answers the next call at once.
    await act(h, { action: 'newConversation' });
    await send(h, '/tool trusted__echo {"message":"after stop"}');
    expect((await result()).text).toBe('Echo: after stop');
  });

  it('ends a call in flight with an error when its server crashes, and restarts the server', async () => {
    const pid = serverPid('everything');
    expect(pid).toBeDefined();
    const approval = await callAndWaitForApproval('everything__trigger-long-running-operation', {
      duration: 2,
      steps: 1,
    });
    await act(h, { action: 'approve', approvalId: approval.id, decision: 'allow' });
    await waitForLast(h, (_, s) => s.conversations.run.state === 'streaming');
    const since = h.history.length;
    process.kill(pid!, 'SIGKILL');
    const failed = await result();
    expect(failed).toMatchObject({
      status: 'error',
      error: 'The MCP server "everything" stopped during the call.',
    });
    const down = await waitForStatus(h, since, 'everything', 'failed');
    expect(down.toolCount).toBe(0);
    expect(down.lastError).toMatch(/closed the connection/);
    // Restarted by itself after the backoff, as a new process.
    const up = await waitForStatus(h, since, 'everything', 'ready');
    expect(up.toolCount).toBe(13);
    await waitForReplacement('everything', pid);
  });

  it('restarts a server from the console, and lists the servers there', async () => {
    const before = serverPid('trusted');
    const since = h.history.length;
    const { type, close } = consoleOf();
    try {
      await type(
        'mcp',
        /everything\s+ready\s+13 tools\s+stdio\s+asks first[\s\S]*trusted\s+ready\s+13 tools\s+stdio\s+runs without asking/,
      );
      await type('mcp restart trusted', /Restarting trusted\./);
      await type('mcp restart nope', /No startable MCP server "nope"/);
    } finally {
      close();
    }
    await waitForStatus(h, since, 'trusted', 'restarting');
    await waitForStatus(h, since, 'trusted', 'ready');
    await waitForReplacement('trusted', before);
  });
});

/** A console on the host, typed into by the test. */
function consoleOf() {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const close = startConsole({
    host: h.host,
    code: () => '',
    setCode: () => {},
    quit: () => {},
    input,
    output,
  });
  const type = async (line: string, expected: RegExp) => {
    input.write(`${line}\n`);
    await waitFor(() => (expected.test(text) ? true : undefined), 5_000).catch(() => {});
    expect(text).toMatch(expected);
  };
  return { type, close };
}
