import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, guardOf } from '../support/api';
import { openEvents } from '../support/sseClient';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

describe('logs', () => {
  const lines: string[] = [];
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({ logLines: lines });
  });
  afterAll(() => h.close(true));

  it('carry route, status and duration, and never the access code, a media id, a file name or path', async () => {
    const secretName = 'secret-file-name-8d1e.txt';
    const upload = await fetch(`${h.url}/api/upload?name=${secretName}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'text/plain' },
      body: 'top secret',
    });
    expect(upload.status).toBe(201);
    const state = await getState(h);
    const mediaId = state.conversations.pending[0]!.media.id;
    expect((await fetch(`${h.url}/api/media?id=${mediaId}`)).status).toBe(200);
    await fetch(`${h.url}/api/state`, { headers: { Authorization: 'Bearer wrong-code-xyz' } });
    await act(h, { action: 'send', text: 'hello', ...guardOf(state) });
    const stream = await openEvents(h.url, h.auth());
    await stream.next();
    stream.close();
    h.host.bridge.setAccessCode('rotated-code-abc123');

    const log = lines.join('');
    expect(log).toContain('"route":"/api/media"');
    expect(log).toContain('"status":401');
    expect(log).toMatch(/"ms":\d+/);
    for (const secret of [
      TEST_CODE,
      'rotated-code-abc123',
      'wrong-code-xyz',
      mediaId,
      secretName,
      h.dataDir,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
