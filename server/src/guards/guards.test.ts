import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { renderProblem } from '../errors/renderProblem';
import { AuthThrottle } from './AuthThrottle';
import { bearerToken } from './authGuard';
import { checkHeaders, MAX_HEADER_LINES } from './headerGuard';
import { hostnameOf } from './hostGuard';
import { headOf } from './RequestHead';
import { readableHost } from './readableHost';
import { UNREADABLE_HOSTS } from './readableHost.testing';
import { singleQuery } from './singleQuery';
import { throttleKey } from './throttleKey';

describe('bearerToken', () => {
  it('reads only the Bearer scheme', () => {
    expect(bearerToken('Bearer abc-123')).toBe('abc-123');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a, Bearer b')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('hostnameOf', () => {
  it('drops the port and keeps IPv6 brackets', () => {
    expect(hostnameOf('LocalHost:7878')).toBe('localhost');
    expect(hostnameOf('[::1]:80')).toBe('[::1]');
    expect(hostnameOf('192.168.1.4')).toBe('192.168.1.4');
    expect(hostnameOf('[::1]evil.example')).toBe('[::1]evil.example');
  });
});

describe('AuthThrottle', () => {
  it('locks a client out after its free failures, doubling, and a success resets it', () => {
    let now = 0;
    const throttle = new AuthThrottle({ freeFailures: 2, baseDelayMs: 1000, maxDelayMs: 3000 }, () => now);
    throttle.failure('a');
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(0);
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(1);
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(2);
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(3);
    expect(throttle.retryAfter('b')).toBe(0);
    now = 10_000;
    expect(throttle.retryAfter('a')).toBe(0);
    throttle.success('a');
    throttle.failure('a');
    expect(throttle.retryAfter('a')).toBe(0);
  });
});

describe('throttleKey', () => {
  it('groups loopback together and IPv6 by /64', () => {
    expect(throttleKey('127.0.0.1')).toBe('loopback');
    expect(throttleKey('127.0.0.2')).toBe('loopback');
    expect(throttleKey('::ffff:127.0.0.9')).toBe('loopback');
    expect(throttleKey('::1')).toBe('loopback');
    expect(throttleKey('192.168.1.20')).toBe('192.168.1.20');
    expect(throttleKey('::ffff:192.168.1.20')).toBe('192.168.1.20');
    expect(throttleKey('2001:db8:1:2:aaaa::1')).toBe(throttleKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(throttleKey('2001:db8:1:2::1')).not.toBe(throttleKey('2001:db8:1:3::1'));
  });
});

describe('AuthThrottle when its table is full', () => {
  it('never forgets a locked-out client to make room', () => {
    const throttle = new AuthThrottle({ freeFailures: 0, baseDelayMs: 60_000 });
    for (let i = 0; i < 10_000; i++) throttle.failure(`c${i}`);
    expect(throttle.retryAfter('c0')).toBeGreaterThan(0);
    throttle.failure('newcomer');
    expect(throttle.retryAfter('c0')).toBeGreaterThan(0);
    // Newcomers share the overflow record, which is throttled too.
    expect(throttle.retryAfter('another-newcomer')).toBeGreaterThan(0);
  });
});

describe('checkHeaders and singleQuery', () => {
  const app = new Hono();
  app.use('*', async (c, next) => {
    checkHeaders(headOf(c));
    await next();
  });
  app.get('/', (c) => c.text(singleQuery(c, 'id') ?? 'none'));
  app.onError((error) => renderProblem(error));
  const lines = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`x-${i}`, '1']));

  it('refuses a request that reaches MAX_HEADER_LINES, serves one below it', async () => {
    expect((await app.request('/', { headers: lines(MAX_HEADER_LINES) })).status).toBe(431);
    expect((await app.request('/', { headers: lines(MAX_HEADER_LINES - 1) })).status).toBe(200);
  });

  it('takes a query parameter given once and refuses one given twice', async () => {
    expect(await (await app.request('/?id=a')).text()).toBe('a');
    expect(await (await app.request('/')).text()).toBe('none');
    const twice = await app.request('/?id=a&id=a');
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { code: string }).code).toBe('invalid_request');
  });
});

describe('readableHost', () => {
  it('takes what @hono/node-server builds a URL from, refuses what it cannot read', () => {
    const taken = [
      undefined,
      '',
      'localhost',
      '127.0.0.1:7878',
      '127.0.0.1:80',
      '127.0.0.1:0',
      'LOCALHOST:8080',
      '[::1]',
      '[::1]:80',
      'my-pc.local',
    ];
    const refused = [...UNREADABLE_HOSTS, '[0:0:0:0:0:0:0:1]', 'localhost#x'];
    for (const host of taken) expect(readableHost(host), String(host)).toBe(true);
    for (const host of refused) expect(readableHost(host), host).toBe(false);
  });
});
