import { createBridgeClient } from '@webbridge/client-sdk';
import { describe, expect, it } from 'vitest';
import { useMockBridge } from '../mocks/useMockBridge';
import { probeAccessCode } from './probeAccessCode';

const mocks = useMockBridge({ accessCode: 'any' });

function clientAnswering(answer: () => Response | Promise<Response>) {
  return createBridgeClient({
    baseUrl: 'http://mock.test',
    accessCode: 'some-code',
    fetch: async () => answer(),
  });
}

const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(
    JSON.stringify({
      type: `https://webbridge.dev/problems/${code}`,
      title: code,
      status,
      detail: code,
      code,
    }),
    {
      status,
      headers: { 'content-type': 'application/problem+json', ...headers },
    },
  );

describe('probeAccessCode', () => {
  it('accepts a good code and leaves the state in the client’s store', async () => {
    mocks.start({ wordDelayMs: 1 });
    const client = createBridgeClient({ baseUrl: 'http://mock.test', accessCode: 'any' });
    const result = await probeAccessCode(client);
    expect(result.ok).toBe(true);
    expect(client.store.getState().snapshot).toEqual(result.ok ? result.snapshot : null);
  });

  it('says wrong code on 401', async () => {
    const result = await probeAccessCode(clientAnswering(() => problem(401, 'unauthorized')));
    expect(result).toEqual({ ok: false, failure: { kind: 'wrong_code' } });
  });

  it('says how long to wait on 429, from the SDK error’s Retry-After', async () => {
    const limited = await probeAccessCode(
      clientAnswering(() => problem(429, 'rate_limited', { 'Retry-After': '42' })),
    );
    expect(limited).toEqual({ ok: false, failure: { kind: 'rate_limited', retryAfterSeconds: 42 } });
    const unsaid = await probeAccessCode(clientAnswering(() => problem(429, 'rate_limited')));
    expect(unsaid).toEqual({ ok: false, failure: { kind: 'rate_limited', retryAfterSeconds: null } });
  });

  it('says unreachable when nothing answers', async () => {
    const result = await probeAccessCode(
      clientAnswering(() => Promise.reject(new TypeError('fetch failed'))),
    );
    expect(result).toMatchObject({ ok: false, failure: { kind: 'unreachable' } });
  });
});
