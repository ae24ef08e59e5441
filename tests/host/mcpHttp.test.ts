import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, getState } from '../support/api';
import { type HttpMcpServer, startHttpMcpServer } from './mcp/httpMcpServer';
import { type McpTestHost, startMcpHost, waitForServer, waitForStatus } from './mcp/mcpTestHost';
import { send, waitForLast } from './modelHost';

const TOKEN = 'http-mcp-token-77c1d2';
let server: HttpMcpServer;
let h: McpTestHost;

beforeAll(async () => {
  server = await startHttpMcpServer(TOKEN);
  h = await startMcpHost({
    tiny: { url: server.url, headers: { Authorization: `Bearer ${TOKEN}` } },
    locked: { type: 'http', url: server.url },
  });
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});
beforeEach(async () => {
  await act(h, { action: 'newConversation' });
});

async function approveAndWait(tool: string, args: unknown) {
  await send(h, `/tool ${tool} ${JSON.stringify(args)}`);
  const waiting = await waitForLast(h, (_, s) => s.approvals.length === 1);
  await act(h, { action: 'approve', approvalId: waiting.approvals[0]!.id, decision: 'allow' });
  const done = await waitForLast(h, (m, s) => m.role === 'tool' && s.conversations.run.state === 'idle');
  return done.conversations.messages.at(-1)!;
}

describe('an MCP server over Streamable HTTP', () => {
  it('lists its tools and runs an approved call, sending the configured headers', async () => {
    const ready = await waitForServer(h, 'tiny', 'ready');
    expect(ready).toMatchObject({ transport: 'http', toolCount: 2, approval: 'ask' });
    const result = await approveAndWait('tiny__shout', { text: 'quiet' });
    expect(result).toMatchObject({ status: 'complete', text: 'QUIET' });
    expect(server.authorizations).toContain(`Bearer ${TOKEN}`);
  });

  it('shows resources in the result text', async () => {
    await waitForServer(h, 'tiny', 'ready');
    const result = await approveAndWait('tiny__note', {});
    expect(result.text).toBe(
      '<resource uri="note://one">\na note\n</resource>\n[resource second note: note://two]',
    );
  });

  it('shows a server that refuses the host as failed, without its headers', async () => {
    const failed = await waitForStatus(h, 0, 'locked', 'failed');
    expect(failed.lastError).toMatch(/^It could not start: HTTP 401: /);
    expect(JSON.stringify([await getState(h), h.logs])).not.toContain(TOKEN);
  });

  it('loses the server while it is down and finds it again when it is back', async () => {
    await waitForServer(h, 'tiny', 'ready');
    const port = server.port;
    const since = h.history.length;
    await server.close();
    const result = await approveAndWait('tiny__shout', { text: 'anyone?' });
    expect(result).toMatchObject({
      status: 'error',
      error: 'The MCP server "tiny" could not be reached; it is being restarted.',
    });
    const down = await waitForStatus(h, since, 'tiny', 'failed');
    expect(down.lastError).toMatch(/fetch failed|ECONNREFUSED/);
    server = await startHttpMcpServer(TOKEN, port);
    await waitForStatus(h, since, 'tiny', 'ready');
    expect((await approveAndWait('tiny__shout', { text: 'back' })).text).toBe('BACK');
  });
});
