import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemOf } from '../support/api';
import { rawRequest } from '../support/rawHttp';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

const PROTECTED = [
  { method: 'GET', path: '/api/state' },
  { method: 'GET', path: '/api/events' },
  { method: 'POST', path: '/api/action' },
  { method: 'POST', path: '/api/upload?name=a.txt' },
] as const;

describe('authentication', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost();
  });
  afterAll(() => h.close(true));

  const cases: { name: string; headers: Record<string, string> }[] = [
    { name: 'no Authorization', headers: {} },
    { name: 'a wrong code', headers: { Authorization: 'Bearer not-the-code' } },
    { name: 'another scheme', headers: { Authorization: `Basic ${TEST_CODE}` } },
    { name: 'the code without a scheme', headers: { Authorization: TEST_CODE } },
    { name: 'an empty Bearer', headers: { Authorization: 'Bearer ' } },
  ];

  for (const route of PROTECTED) {
    for (const { name, headers } of cases) {
      it(`${route.method} ${route.path} with ${name} is 401 with WWW-Authenticate`, async () => {
        const response = await fetch(`${h.url}${route.path}`, {
          method: route.method,
          headers: { 'Content-Type': 'application/json', ...headers },
          ...(route.method === 'POST' ? { body: '{}' } : {}),
        });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        const problem = await problemOf(response);
        expect(problem.code).toBe('unauthorized');
        expect(JSON.stringify(problem)).not.toContain(TEST_CODE);
      });
    }

    it(`${route.method} ${route.path} with the right code and a second, wrong Authorization is 400`, async () => {
      const response = await rawRequest(h.port, [
        `${route.method} ${route.path} HTTP/1.1`,
        `Host: 127.0.0.1:${h.port}`,
        `Authorization: Bearer ${TEST_CODE}`,
        'Authorization: Bearer wrong',
        'Content-Length: 0',
        'Connection: close',
      ]);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body).code).toBe('duplicate_header');
    });
  }

  it('the right code opens every protected route', async () => {
    expect((await fetch(`${h.url}/api/state`, { headers: h.auth() })).status).toBe(200);
    const events = await fetch(`${h.url}/api/events`, { headers: h.auth() });
    expect(events.status).toBe(200);
    await events.body?.cancel();
  });

  it('public routes need no code: locale and the page', async () => {
    const locale = await fetch(`${h.url}/api/locale`);
    expect(locale.status).toBe(200);
    const body = (await locale.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['language', 'protocol', 'strings']);
    const page = await fetch(`${h.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('media needs no Bearer but an unknown id is 404', async () => {
    const response = await fetch(`${h.url}/api/media?id=AAAAAAAAAAAAAAAAAAAAAA`);
    expect(response.status).toBe(404);
    expect((await problemOf(response)).code).toBe('not_found');
  });
});

describe('repeated wrong codes', () => {
  it('are slowed with 429 and Retry-After, even when the right code follows', async () => {
    const h = await startTestHost({ freeAuthFailures: 3 });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${h.url}/api/state`, {
          headers: { Authorization: `Bearer guess-${i}` },
        });
        expect(response.status).toBe(401);
      }
      const fourth = await fetch(`${h.url}/api/state`, { headers: { Authorization: 'Bearer guess-4' } });
      expect(fourth.status).toBe(401);
      const locked = await fetch(`${h.url}/api/state`, { headers: h.auth() });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await problemOf(locked)).code).toBe('rate_limited');
    } finally {
      await h.close(true);
    }
  });
});

describe('rotating the access code', () => {
  it('invalidates the old code at once and closes the streams opened with it', async () => {
    const h = await startTestHost();
    try {
      const stream = await fetch(`${h.url}/api/events`, { headers: h.auth() });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      await reader.read();
      h.host.bridge.setAccessCode('a-brand-new-code-42');
      const drained = (async () => {
        for (;;) {
          const { done } = await reader.read();
          if (done) return true;
        }
      })();
      expect(await drained).toBe(true);
      expect((await fetch(`${h.url}/api/state`, { headers: h.auth() })).status).toBe(401);
      const fresh = await fetch(`${h.url}/api/state`, {
        headers: { Authorization: 'Bearer a-brand-new-code-42' },
      });
      expect(fresh.status).toBe(200);
    } finally {
      await h.close(true);
    }
  });
});
