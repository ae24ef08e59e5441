import { request } from 'node:http';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';

describe('a client that stops reading', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost();
  });
  afterAll(() => h.close(true));

  it('gets fewer, larger updates once it reads again, ending at the current state', async () => {
    const frames: string[] = [];
    const parser = createParser({ onEvent: (event) => frames.push(event.data) });
    const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(`${h.url}/api/events`, { headers: h.auth() }, resolve);
      req.on('error', reject);
      req.end();
    });
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => parser.feed(chunk));
    await new Promise<void>((resolve) => {
      const check = () => (frames.length > 0 ? resolve() : setTimeout(check, 5));
      check();
    });
    response.pause();

    // 700 configuration changes, each a full snapshot of ~19 KB for a reader that keeps up:
    // 13 MB, more than the socket buffers of loopback hold.
    const changes = 700;
    const padding = 'x'.repeat(19_000);
    for (let i = 0; i < changes; i++) {
      await act(h, { action: 'updateSettings', settings: { systemPrompt: `prompt ${i} ${padding}` } });
    }
    const expected = (await getState(h)).settings.systemPrompt;
    expect(expected.startsWith(`prompt ${changes - 1} `)).toBe(true);
    const whilePaused = frames.length;

    response.resume();
    const deadline = Date.now() + 20_000;
    const last = () =>
      JSON.parse(frames.at(-1) ?? '{}') as { snapshot?: { settings?: { systemPrompt?: string } } };
    while (last().snapshot?.settings?.systemPrompt !== expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    response.destroy();

    expect(last().snapshot?.settings?.systemPrompt).toBe(expected);
    // The producer built nothing while the socket was full: far fewer frames than changes.
    expect(frames.length - 1).toBeLessThan(changes);
    expect(whilePaused).toBeLessThan(changes);
  }, 60_000);
});
