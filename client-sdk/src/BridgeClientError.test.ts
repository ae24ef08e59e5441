import { PROBLEM_CONTENT_TYPE } from '@webbridge/contract';
import { describe, expect, it } from 'vitest';
import { BridgeClientError } from './BridgeClientError';
import { createBridgeClient } from './client';
import { errorFromFailure } from './errorFromResponse';
import { jsonResponse, scriptedFetch } from './testing/fakeFetch';

function rateLimited(retryAfter?: string): Response {
  const response = jsonResponse(
    429,
    {
      type: 'https://webbridge.dev/problems/rate_limited',
      title: 'Too many requests',
      status: 429,
      detail: 'too many failed attempts',
      code: 'rate_limited',
    },
    PROBLEM_CONTENT_TYPE,
  );
  if (retryAfter !== undefined) response.headers.set('Retry-After', retryAfter);
  return response;
}

function clientAnswering(response: () => Response) {
  const { fetch } = scriptedFetch([response]);
  return createBridgeClient({ baseUrl: 'http://bridge.test', accessCode: 'wrong', fetch, retries: 0 });
}

describe('BridgeClientError.retryAfterSeconds', () => {
  it("carries a 429's Retry-After from a state read", async () => {
    const error = await clientAnswering(() => rateLimited('17'))
      .fetchState()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeClientError);
    expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryAfterSeconds: 17 });
  });

  it('carries it from an action, also as an HTTP date', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    const error = await clientAnswering(() => rateLimited(inAMinute))
      .action({ action: 'selectProject', projectId: 'p1' })
      .catch((e: unknown) => e);
    expect((error as BridgeClientError).code).toBe('rate_limited');
    const seconds = (error as BridgeClientError).retryAfterSeconds;
    expect(seconds).toBeGreaterThanOrEqual(58);
    expect(seconds).toBeLessThanOrEqual(61);
  });

  it('is null when the answer does not say, and without an answer', async () => {
    const error = await clientAnswering(() => rateLimited())
      .fetchState()
      .catch((e: unknown) => e);
    expect((error as BridgeClientError).retryAfterSeconds).toBeNull();
    expect(errorFromFailure(new TypeError('fetch failed'), undefined).retryAfterSeconds).toBeNull();
  });

  it('reads it from a body that is not a problem too (a proxy in between)', async () => {
    const error = await clientAnswering(
      () => new Response('busy', { status: 503, headers: { 'retry-after': '4' } }),
    )
      .fetchState()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, retryAfterSeconds: 4 });
  });
});
