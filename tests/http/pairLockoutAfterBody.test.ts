import { once } from 'node:events';
import { type IncomingMessage, request } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

// POST /api/pair checks the lockout twice: before it reads the body and again after. The
// second check is for a try whose headers arrived before the lockout began and whose body
// arrives after it: without it, each connection opened before the failures were counted would
// get one more guess inside the lockout.

let h: TestHost | undefined;
afterEach(async () => {
  await h?.close(true);
  h = undefined;
});

/** A pairing request whose headers are on the wire now and whose body is sent later. */
function heldPair(host: TestHost, body: string) {
  const held = request(`${host.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
  });
  held.on('error', () => undefined);
  held.flushHeaders();
  const answered = once(held, 'response') as Promise<[IncomingMessage]>;
  return {
    async finish(): Promise<{ status: number; body: Record<string, unknown> }> {
      held.end(body);
      const [response] = await answered;
      let text = '';
      for await (const chunk of response) text += String(chunk);
      return { status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> };
    },
  };
}

function pair(host: TestHost, body: unknown): Promise<Response> {
  return fetch(`${host.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

it('a try whose headers came before the lockout and whose body came after it is refused (429), even with the right code', async () => {
  h = await startTestHost({ freeAuthFailures: 1, authLockoutMs: 60_000 });
  const held = heldPair(h, JSON.stringify({ code: TEST_CODE, name: 'Held open' }));
  // Long enough for the route to have run its first check and be waiting for the body (it
  // passes that check: nothing has failed yet).
  await new Promise((resolve) => setTimeout(resolve, 300));
  let status = 0;
  for (let tries = 0; tries < 5 && status !== 429; tries++)
    status = (await pair(h, { code: 'not-the-code', name: 'Guess' })).status;
  expect(status).toBe(429);

  const late = await held.finish();
  expect(late.status).toBe(429);
  expect(late.body.code).toBe('rate_limited');
  expect(h.host.bridge.devices.list()).toHaveLength(0);
});
