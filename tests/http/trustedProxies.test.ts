import { type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

/**
 * Forwarded headers over real sockets. Linux routes all of 127.0.0.0/8 to loopback, so a client
 * that binds 127.0.0.2 is "the proxy" (the only address trusted here) and one on 127.0.0.1 is
 * anybody else: what each may make the host believe of the client, its name and its scheme.
 */
const PROXY = '127.0.0.2';
const STRANGER = '127.0.0.1';
const PUBLIC = 'https://bridge.test.example';

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A GET to the host on `port` sent from the address `from`, with the host's own Host and `code`
 * as the Bearer credential; `headers` add to those or replace them. Sent at once.
 */
function requestFrom(
  port: number,
  path: string,
  from: string,
  headers: Record<string, string>,
  onResponse: (res: IncomingMessage) => void,
  code: string = TEST_CODE,
): ClientRequest {
  const req = request(
    {
      host: '127.0.0.1',
      port,
      path,
      localAddress: from,
      agent: false,
      headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${code}`, ...headers },
    },
    onResponse,
  );
  req.end();
  return req;
}

/** The whole answer to {@link requestFrom}'s GET. */
function get(
  port: number,
  path: string,
  from: string,
  headers: Record<string, string>,
  code: string = TEST_CODE,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    };
    requestFrom(port, path, from, headers, onResponse, code).on('error', reject);
  });
}

/**
 * Before the describe's tests, a host with the public name that trusts only {@link PROXY}, and
 * that locks a client out after two wrong codes for ten minutes; closed after them.
 */
function lockingHost(): () => TestHost {
  let host: TestHost | undefined;
  beforeAll(async () => {
    host = await startTestHost({
      publicUrl: PUBLIC,
      trustProxy: [PROXY],
      freeAuthFailures: 2,
      authLockoutMs: 600_000,
    });
  });
  afterAll(() => host?.close(true));
  return () => {
    if (!host) throw new Error('the host did not start');
    return host;
  };
}

/** Runs `test` against a host of its own (nothing locked out), closed after it. */
async function withFreshHost(test: (host: TestHost) => Promise<void>): Promise<void> {
  const fresh = await startTestHost({ publicUrl: PUBLIC, trustProxy: [PROXY] });
  try {
    await test(fresh);
  } finally {
    await fresh.close(true);
  }
}

/** Wrong codes until the client they are counted against is locked out (2 free failures). */
async function lockOut(port: number, from: string, headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < 3; i++) await get(port, '/api/state', from, headers, 'wrong-code-0000');
}

describe('forwarded headers from an untrusted address', () => {
  const lockingHostOf = lockingHost();

  it('do not move the throttle key: a locked-out client stays locked out whatever it forwards', async () => {
    const host = lockingHostOf();
    await lockOut(host.port, STRANGER, { 'X-Forwarded-For': '203.0.113.1' });
    const next = await get(host.port, '/api/state', STRANGER, { 'X-Forwarded-For': '203.0.113.2' });
    expect(next.status).toBe(429);
    const forwarded = await get(host.port, '/api/state', STRANGER, { Forwarded: 'for=198.51.100.7' });
    expect(forwarded.status).toBe(429);
  });

  it('do not name the host: a forged X-Forwarded-Host is not what the Host check reads', () =>
    withFreshHost(async (fresh) => {
      const answer = await get(fresh.port, '/api/locale', STRANGER, { 'X-Forwarded-Host': 'evil.example' });
      expect(answer.status).toBe(200);
      // And a name the host does not have is refused as always, whatever is forwarded.
      const foreign = await get(fresh.port, '/api/locale', STRANGER, {
        Host: 'evil.example',
        'X-Forwarded-Host': 'bridge.test.example',
      });
      expect(foreign.status).toBe(403);
    }));

  it('do not set the scheme: no HSTS for a plain-HTTP answer that claims https', () =>
    withFreshHost(async (fresh) => {
      const answer = await get(fresh.port, '/api/locale', STRANGER, {
        Host: 'bridge.test.example',
        'X-Forwarded-Proto': 'https',
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    }));
});

describe('forwarded headers from the trusted proxy', () => {
  const lockingHostOf = lockingHost();
  // One host for all, in order: the second test counts on the lockout the first one leaves.
  let host: TestHost;
  beforeAll(() => {
    host = lockingHostOf();
  });

  it('key the throttle on the forwarded client, not on the proxy', async () => {
    await lockOut(host.port, PROXY, { 'X-Forwarded-For': '203.0.113.1' });
    expect((await get(host.port, '/api/state', PROXY, { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(
      429,
    );
    // Another client behind the same proxy, and the proxy's own address, are not locked out.
    expect((await get(host.port, '/api/state', PROXY, { 'X-Forwarded-For': '203.0.113.2' })).status).toBe(
      200,
    );
    expect((await get(host.port, '/api/state', STRANGER, {})).status).toBe(200);
    // RFC 7239's header is read the same way.
    expect((await get(host.port, '/api/state', PROXY, { Forwarded: 'for=203.0.113.1' })).status).toBe(429);
    expect(
      (await get(host.port, '/api/state', PROXY, { Forwarded: 'for="[2001:db8::1]:4711"' })).status,
    ).toBe(200);
  });

  it('walk past a client-written X-Forwarded-For to the address the proxy saw', async () => {
    // nginx's $proxy_add_x_forwarded_for appends the peer to what the client sent: a locked-out
    // client that writes another's address first is still itself, and one that writes the
    // locked-out address first is not locked out.
    const spoofing = await get(host.port, '/api/state', PROXY, {
      'X-Forwarded-For': '203.0.113.3, 203.0.113.1',
    });
    expect(spoofing.status).toBe(429);
    const framed = await get(host.port, '/api/state', PROXY, {
      'X-Forwarded-For': '203.0.113.1, 203.0.113.3',
    });
    expect(framed.status).toBe(200);
  });

  it('believe the X-Forwarded-For the proxy wrote over a Forwarded the client wrote', async () => {
    // nginx and Caddy write X-Forwarded-For and pass a client's Forwarded on untouched.
    const forged = await get(host.port, '/api/locale', PROXY, {
      'X-Forwarded-For': '198.51.100.20',
      Forwarded: 'for=203.0.113.50',
    });
    expect(forged.headers['x-webbridge-client-address']).toBe('198.51.100.20');
  });

  it('show the forwarded client in the list of connections', async () => {
    const ready = new Promise<void>((resolve, reject) => {
      const headers = { Accept: 'text/event-stream', 'X-Forwarded-For': '198.51.100.9' };
      const req = requestFrom(host.port, '/api/events', PROXY, headers, (res) => {
        res.once('data', () => {
          resolve();
          req.destroy();
        });
      });
      req.on('error', reject);
    });
    let seen: string[] = [];
    const watch = setInterval(() => {
      seen = host.host.bridge.connections().map((c) => c.remoteAddress);
    }, 1);
    await ready;
    clearInterval(watch);
    seen = seen.length > 0 ? seen : host.host.bridge.connections().map((c) => c.remoteAddress);
    expect(seen).toContain('198.51.100.9');
  });

  it('refuse a forged name forwarded by the proxy, and accept the public one', async () => {
    const forged = await get(host.port, '/api/locale', PROXY, {
      Host: 'bridge.test.example',
      'X-Forwarded-Host': 'evil.example',
    });
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body)).toMatchObject({ code: 'forbidden_host' });
    const good = await get(host.port, '/api/locale', PROXY, { 'X-Forwarded-Host': 'bridge.test.example' });
    expect(good.status).toBe(200);
  });

  it('name the client it believes on /api/locale (what check-url reads)', async () => {
    const proxied = await get(host.port, '/api/locale', PROXY, { 'X-Forwarded-For': '198.51.100.9' });
    expect(proxied.headers['x-webbridge-client-address']).toBe('198.51.100.9');
    const direct = await get(host.port, '/api/locale', STRANGER, { 'X-Forwarded-For': '198.51.100.9' });
    expect(direct.headers['x-webbridge-client-address']).toBe(STRANGER);
  });

  it('give HSTS when the proxy says the client used https on the public name', async () => {
    const secure = await get(host.port, '/api/locale', PROXY, {
      Host: 'bridge.test.example',
      'X-Forwarded-Proto': 'https',
    });
    expect(secure.headers['strict-transport-security']).toBe('max-age=86400');
    const plain = await get(host.port, '/api/locale', PROXY, {
      Host: 'bridge.test.example',
      'X-Forwarded-Proto': 'http',
    });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('still refuse a name that is neither the host’s nor the public one', async () => {
    const answer = await get(host.port, '/api/locale', PROXY, { Host: 'other.example' });
    expect(answer.status).toBe(403);
  });
});
