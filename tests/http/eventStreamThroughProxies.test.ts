import { DEFAULT_HEARTBEAT_MS } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/testHost';

/** What the event stream tells the proxies between it and a phone. */
describe('the event stream through proxies', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.close(true));

  it('asks proxies not to buffer or transform it', async () => {
    const controller = new AbortController();
    const res = await fetch(`${host.url}/api/events`, {
      headers: host.auth({ Accept: 'text/event-stream' }),
      signal: controller.signal,
    });
    controller.abort();
    expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const head = await fetch(`${host.url}/api/events`, { method: 'HEAD', headers: host.auth() });
    expect(head.headers.get('cache-control')).toBe('no-store, no-transform');
  });

  it('beats well inside the idle timeouts of common proxies (nginx 60 s, Cloudflare 100 s)', () => {
    // Half of nginx's proxy_read_timeout: one late beat still arrives in time.
    expect(DEFAULT_HEARTBEAT_MS).toBeLessThanOrEqual(30_000);
  });
});
