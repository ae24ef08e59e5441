import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../support/rawHttp';
import { startTestHost, type TestHost } from '../support/testHost';

/** `--public-url https://name/webbridge`: the app answers under the path as well as at the root. */
describe('a base path', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({ publicUrl: 'https://bridge.test.example/webbridge' });
  });
  afterAll(() => h.close(true));

  it('serves the API under it and at the root (a proxy that strips it)', async () => {
    for (const path of ['/webbridge/api/locale', '/api/locale']) {
      const response = await fetch(`${h.url}${path}`);
      expect(response.status, path).toBe(200);
    }
    const state = await fetch(`${h.url}/webbridge/api/state`, { headers: h.auth() });
    expect(state.status).toBe(200);
    const action = await fetch(`${h.url}/webbridge/api/action`, {
      method: 'POST',
      headers: h.auth(),
      body: JSON.stringify({ action: 'nope' }),
    });
    // The action lane (served without Hono) sees the path without the base too.
    expect(action.status).toBe(400);
  });

  it('sends the bare base path to its folder, keeping the query', async () => {
    for (const [target, location] of [
      ['/webbridge', '/webbridge/'],
      ['/webbridge?approval=a1', '/webbridge/?approval=a1'],
    ] as const) {
      const answer = await rawRequest(h.port, [
        `GET ${target} HTTP/1.1`,
        `Host: 127.0.0.1:${h.port}`,
        'Connection: close',
      ]);
      expect(answer.status, target).toBe(308);
      expect(answer.headers.location).toBe(location);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('leaves a path that only starts like it alone', async () => {
    // Not the locale: the page's fallback (index.html) when the web client is built, else 404.
    const response = await fetch(`${h.url}/webbridgeX/api/locale`, { headers: h.auth() });
    expect(response.headers.get('content-type')).not.toContain('application/json');
  });
});
