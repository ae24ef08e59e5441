import { ACCESS_HEADER, PAIRING_TOKEN_TTL_MS, pairResponseSchema } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { problemOf } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

// POST /api/pair over real sockets: one-time pairing tokens (single use, 10 minutes, throttled
// like the code) and the typed code, each for a device credential with the right role.

const VIEW_CODE = 'view-code-4h8w-2n6t';

let h: TestHost | undefined;
afterEach(async () => {
  await h?.close(true);
  h = undefined;
});

function pair(host: TestHost, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${host.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function paired(host: TestHost, body: unknown) {
  const response = await pair(host, body);
  expect(response.status).toBe(200);
  return pairResponseSchema.parse(await response.json());
}

const bearer = (secret: string) => ({
  Authorization: `Bearer ${secret}`,
  'Content-Type': 'application/json',
});

/** Bits of randomness in a base64url string. */
const bits = (text: string) => Buffer.from(text, 'base64url').length * 8;

describe('pairing tokens', () => {
  it('pair once, for a credential of at least 128 bits that works where the code does', async () => {
    h = await startTestHost();
    const token = h.host.bridge.pairingToken('control');
    expect(bits(token)).toBeGreaterThanOrEqual(128);
    expect(token).not.toContain(TEST_CODE);
    const { credential, device } = await paired(h, { token, name: 'Pixel 9' });
    expect(device).toMatchObject({ name: 'Pixel 9', role: 'control' });
    const [id, secret] = credential.split('.');
    expect(id).toBe(device.id);
    expect(bits(secret ?? '')).toBeGreaterThanOrEqual(128);

    const state = await fetch(`${h.url}/api/state`, { headers: bearer(credential) });
    expect(state.status).toBe(200);
    expect(state.headers.get(ACCESS_HEADER)).toBe('control');

    // Single use: the same token again is a 401 that says it was spent.
    const again = await pair(h, { token, name: 'Someone else' });
    expect(again.status).toBe(401);
    const problem = await problemOf(again);
    expect(problem.code).toBe('pairing_token_spent');
    expect(problem.detail).toMatch(/already used/);
    expect(h.host.bridge.devices.list()).toHaveLength(1);
  });

  it('expire after 10 minutes with a 401 that says so', async () => {
    let time = Date.now();
    h = await startTestHost({ now: () => time });
    const late = h.host.bridge.pairingToken('control');
    const inTime = h.host.bridge.pairingToken('control');
    time += PAIRING_TOKEN_TTL_MS - 1;
    await paired(h, { token: inTime, name: 'Just in time' });
    time += 1;
    const response = await pair(h, { token: late, name: 'Too late' });
    expect(response.status).toBe(401);
    const problem = await problemOf(response);
    expect(problem.code).toBe('pairing_token_expired');
    expect(problem.detail).toMatch(/expired/);
  });

  it('an unknown token is a plain 401 unauthorized', async () => {
    h = await startTestHost();
    const response = await pair(h, { token: 'AAAAAAAAAAAAAAAAAAAAAAAA', name: 'Guess' });
    expect(response.status).toBe(401);
    expect((await problemOf(response)).code).toBe('unauthorized');
  });

  it('are throttled like the code: wrong tokens and wrong codes share one lockout', async () => {
    h = await startTestHost({ freeAuthFailures: 2, authLockoutMs: 60_000 });
    const valid = h.host.bridge.pairingToken('control');
    expect((await pair(h, { token: 'wrong-token-1', name: 'x' })).status).toBe(401);
    const wrongCode = await fetch(`${h.url}/api/state`, { headers: bearer('not-the-code') });
    expect(wrongCode.status).toBe(401);
    expect((await pair(h, { code: 'not-the-code', name: 'x' })).status).toBe(401);
    // Locked out now: even a valid token is not looked at, nor the right code.
    const locked = await pair(h, { token: valid, name: 'x' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await problemOf(locked)).code).toBe('rate_limited');
    expect((await fetch(`${h.url}/api/state`, { headers: bearer(TEST_CODE) })).status).toBe(429);
    expect(h.host.bridge.devices.list()).toHaveLength(0);
  });

  it('a view link pairs a watching device: 403 view_only on actions', async () => {
    h = await startTestHost({ viewCode: VIEW_CODE });
    const { credential, device } = await paired(h, { token: h.host.bridge.pairingToken('view'), name: 'TV' });
    expect(device.role).toBe('view');
    const state = await fetch(`${h.url}/api/state`, { headers: bearer(credential) });
    expect(state.status).toBe(200);
    expect(state.headers.get(ACCESS_HEADER)).toBe('view');
    const action = await fetch(`${h.url}/api/action`, {
      method: 'POST',
      headers: bearer(credential),
      body: JSON.stringify({ action: 'newConversation' }),
    });
    expect(action.status).toBe(403);
    expect((await problemOf(action)).code).toBe('view_only');
    const upload = await fetch(`${h.url}/api/upload?name=a.txt`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(upload.status).toBe(403);
  });
});

describe('pairing by the typed code', () => {
  it('the access code pairs a control device, the view code a view device, a wrong code nothing', async () => {
    h = await startTestHost({ viewCode: VIEW_CODE });
    expect((await paired(h, { code: TEST_CODE, name: 'Laptop' })).device.role).toBe('control');
    expect((await paired(h, { code: VIEW_CODE, name: 'Wall screen' })).device.role).toBe('view');
    const wrong = await pair(h, { code: 'not-the-code', name: 'x' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const problem = await problemOf(wrong);
    expect(problem.code).toBe('unauthorized');
    expect(JSON.stringify(problem)).not.toContain('not-the-code');
    expect(h.host.bridge.devices.list().map((d) => d.name)).toEqual(['Laptop', 'Wall screen']);
  });

  it('refuses malformed requests with the contract problem, pairing nothing', async () => {
    h = await startTestHost();
    const cases: [unknown, number][] = [
      [{ code: TEST_CODE }, 400],
      [{ code: TEST_CODE, name: '' }, 400],
      [{ code: TEST_CODE, name: 'x'.repeat(65) }, 400],
      [{ code: TEST_CODE, token: 'x', name: 'both' }, 400],
      [{ name: 'neither' }, 400],
    ];
    for (const [body, status] of cases) {
      const response = await pair(h, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await problemOf(response)).code).toBe('invalid_request');
    }
    const text = await pair(h, { code: TEST_CODE, name: 'x' }, { 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
    const huge = await pair(h, { code: TEST_CODE, name: 'x', pad: 'y'.repeat(8000) });
    expect(huge.status).toBe(413);
    expect(h.host.bridge.devices.list()).toHaveLength(0);
  });
});

describe('pairing in the log', () => {
  it('leaves no token, code or credential in the log lines, refused or not', async () => {
    const logLines: string[] = [];
    h = await startTestHost({ logLines });
    const token = h.host.bridge.pairingToken('control');
    const { credential } = await paired(h, { token, name: 'Logged phone' });
    await pair(h, { token, name: 'again' });
    await pair(h, { code: TEST_CODE, name: 'by code' });
    await fetch(`${h.url}/api/devices`, { headers: bearer(credential) });
    expect(logLines.some((line) => line.includes('/api/pair'))).toBe(true);
    const secret = credential.split('.')[1] ?? '';
    for (const line of logLines) {
      for (const hidden of [token, TEST_CODE, secret]) expect(line).not.toContain(hidden);
    }
  });
});
