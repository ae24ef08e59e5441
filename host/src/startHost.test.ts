import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHost, startHost } from './startHost';
import { tempDir, waitForIdle } from './testing/testController';

let hosts: RunningHost[] = [];
afterEach(async () => {
  for (const host of hosts) await host.close();
  hosts = [];
});

const CODE = 'test-code-123';

describe('startHost', () => {
  it('serves the real controller over HTTP on a free port', async () => {
    const host = await startHost({ dataDir: tempDir(), accessCode: CODE, echoDelayMs: 1, staticDir: null });
    hosts.push(host);
    expect(host.address.port).toBeGreaterThan(0);
    expect(host.url).toBe(`http://127.0.0.1:${host.address.port}`);

    const locale = await fetch(`${host.url}/api/locale`);
    expect(locale.status).toBe(200);
    expect(((await locale.json()) as { language: string }).language).toBe('en');
    expect((await fetch(`${host.url}/api/state`)).status).toBe(401);

    const auth = { Authorization: `Bearer ${CODE}` };
    const state = (await (await fetch(`${host.url}/api/state`, { headers: auth })).json()) as {
      conversationId: string;
      projectId: string;
      sessionRevision: number;
    };
    expect(state.conversationId).toBe(host.controller.readState().conversationId);

    const response = await fetch(`${host.url}/api/action`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        action: 'send',
        text: 'over the wire',
        sessionRevision: state.sessionRevision,
        conversationId: state.conversationId,
        projectId: state.projectId,
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { action: string; result: { replyId: string } };
    expect(body.action).toBe('send');
    const done = await waitForIdle(host.controller);
    expect(done.conversations.messages.at(-1)).toMatchObject({
      id: body.result.replyId,
      text: 'over the wire',
    });
  });

  it('closes the listener and the database, and is safe to close twice', async () => {
    const host = await startHost({ dataDir: tempDir(), accessCode: CODE, staticDir: null });
    await host.close();
    await host.close();
    await expect(fetch(`${host.url}/api/locale`)).rejects.toThrow();
  });
});
