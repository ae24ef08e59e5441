import { contract, MAX_JSON } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeAny } from 'zod';
import { getState, guardOf, waitFor } from '../support/api';
import { rawRequest } from '../support/rawHttp';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

type RouteName = keyof typeof contract;

interface Hosts {
  /** A normal host. */
  h: TestHost;
  /** A host that locks a client out after its first wrong code. */
  strict: TestHost;
}

interface Outcome {
  status: number;
  contentType: string;
  body: string;
}

const bearer = { Authorization: `Bearer ${TEST_CODE}` };

async function viaFetch(url: string, init: RequestInit = {}): Promise<Outcome> {
  const response = await fetch(url, init);
  const contentType = response.headers.get('content-type') ?? '';
  // Event streams never end by themselves: read the first frame and hang up.
  const body = contentType.startsWith('text/event-stream')
    ? await firstChunk(response)
    : await response.text();
  return { status: response.status, contentType, body };
}

async function firstChunk(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

async function viaRaw(h: TestHost, head: string[], body = ''): Promise<Outcome> {
  const response = await rawRequest(
    h.port,
    [...head, `Host: 127.0.0.1:${h.port}`, 'Connection: close'],
    body,
  );
  return {
    status: response.status,
    contentType: response.headers['content-type'] ?? '',
    body: response.body,
  };
}

async function locked(strict: TestHost, method: string, path: string): Promise<Outcome> {
  await fetch(`${strict.url}/api/state`, { headers: { Authorization: 'Bearer wrong' } });
  await fetch(`${strict.url}/api/state`, { headers: { Authorization: 'Bearer wrong' } });
  return viaFetch(`${strict.url}${path}`, {
    method,
    headers: { ...bearer, 'Content-Type': 'application/json' },
  });
}

const foreignHost = (h: TestHost, method: string, path: string) =>
  rawRequest(h.port, [
    `${method} ${path} HTTP/1.1`,
    'Host: evil.example',
    'Content-Length: 0',
    'Connection: close',
  ]).then((r) => ({ status: r.status, contentType: r.headers['content-type'] ?? '', body: r.body }));

async function uploadedMediaId(h: TestHost): Promise<string> {
  await fetch(`${h.url}/api/upload?name=r.txt`, {
    method: 'POST',
    headers: { ...bearer, 'Content-Type': 'text/plain' },
    body: 'media',
  });
  return (await getState(h)).conversations.pending.at(-1)!.media.id;
}

/** A request that produces each declared status of each route. */
const MAKERS: { [R in RouteName]: Record<number, (hosts: Hosts) => Promise<Outcome>> } = {
  locale: { 200: ({ h }) => viaFetch(`${h.url}/api/locale`) },
  state: {
    200: ({ h }) => viaFetch(`${h.url}/api/state`, { headers: bearer }),
    401: ({ h }) => viaFetch(`${h.url}/api/state`),
    403: ({ h }) => foreignHost(h, 'GET', '/api/state'),
    429: ({ strict }) => locked(strict, 'GET', '/api/state'),
  },
  action: {
    200: async ({ h }) => actionCall(h, { action: 'updateSettings', settings: { theme: 'light' } }),
    400: ({ h }) => actionCall(h, { action: 'send' }),
    401: ({ h }) => viaFetch(`${h.url}/api/action`, { method: 'POST', body: '{}' }),
    403: ({ h }) => foreignHost(h, 'POST', '/api/action'),
    409: async ({ h }) => {
      const guard = guardOf(await getState(h));
      return actionCall(h, {
        action: 'send',
        text: 'x',
        ...guard,
        sessionRevision: guard.sessionRevision + 5,
      });
    },
    411: ({ h }) =>
      viaRaw(
        h,
        ['POST /api/action HTTP/1.1', `Authorization: Bearer ${TEST_CODE}`, 'Transfer-Encoding: chunked'],
        '0\r\n\r\n',
      ),
    413: ({ h }) =>
      viaRaw(h, [
        'POST /api/action HTTP/1.1',
        `Authorization: Bearer ${TEST_CODE}`,
        'Content-Type: application/json',
        `Content-Length: ${MAX_JSON + 1}`,
      ]),
    415: ({ h }) =>
      viaFetch(`${h.url}/api/action`, {
        method: 'POST',
        headers: { ...bearer, 'Content-Type': 'text/plain' },
        body: '{}',
      }),
    404: ({ h }) => actionCall(h, { action: 'refreshMedia', attachmentId: 'no-such-attachment' }),
    422: async ({ h }) =>
      actionCall(h, { action: 'model', modelId: 'no-such-model', ...guardOf(await getState(h)) }),
    429: ({ strict }) => locked(strict, 'POST', '/api/action'),
  },
  events: {
    200: ({ h }) => viaFetch(`${h.url}/api/events`, { headers: bearer }),
    400: ({ h }) => viaFetch(`${h.url}/api/events?frames=loud`, { headers: bearer }),
    401: ({ h }) => viaFetch(`${h.url}/api/events`),
    403: ({ h }) => foreignHost(h, 'GET', '/api/events'),
    429: ({ strict }) => locked(strict, 'GET', '/api/events'),
  },
  upload: {
    201: ({ h }) =>
      viaFetch(`${h.url}/api/upload?name=a.txt`, {
        method: 'POST',
        headers: { ...bearer, 'Content-Type': 'text/plain' },
        body: 'hello',
      }),
    400: ({ h }) => viaFetch(`${h.url}/api/upload`, { method: 'POST', headers: bearer, body: 'x' }),
    401: ({ h }) => viaFetch(`${h.url}/api/upload?name=a.txt`, { method: 'POST', body: 'x' }),
    403: ({ h }) => foreignHost(h, 'POST', '/api/upload?name=a.txt'),
    404: ({ h }) =>
      viaFetch(`${h.url}/api/upload?name=a.txt&conversationId=no-such-conversation`, {
        method: 'POST',
        headers: bearer,
        body: 'x',
      }),
    411: ({ h }) => viaRaw(h, ['POST /api/upload?name=a.txt HTTP/1.1', `Authorization: Bearer ${TEST_CODE}`]),
    413: ({ h }) =>
      viaRaw(h, [
        'POST /api/upload?name=a.txt HTTP/1.1',
        `Authorization: Bearer ${TEST_CODE}`,
        'Content-Length: 999999999',
      ]),
    429: ({ strict }) => locked(strict, 'POST', '/api/upload?name=a.txt'),
  },
  pushDecide: {
    200: async ({ h }) => {
      const state = await getState(h);
      await actionCall(h, {
        action: 'send',
        text: '/tool write_file {"path":"r.txt","content":"x"}',
        ...guardOf(state),
      });
      const approvalId = (await waitFor(async () => (await getState(h)).approvals[0]?.id))!;
      // The token a push to a device would carry (the host's own issuer; no push service here).
      const token = h.host.push!.tokens.issue({ approvalId, deviceId: 'dev-routes', deviceName: 'Routes' });
      return pushDecideCall(h, { token, decision: 'deny' });
    },
    400: ({ h }) => pushDecideCall(h, { token: 'x', decision: 'allow' }),
    404: ({ h }) => pushDecideCall(h, { token: 'A'.repeat(22), decision: 'allow' }),
    411: ({ h }) => viaRaw(h, ['POST /api/push/decide HTTP/1.1', 'Transfer-Encoding: chunked'], '0\r\n\r\n'),
    413: ({ h }) =>
      viaRaw(h, ['POST /api/push/decide HTTP/1.1', 'Content-Type: application/json', 'Content-Length: 5000']),
    415: ({ h }) => viaFetch(`${h.url}/api/push/decide`, { method: 'POST', body: '{}' }),
  },
  media: {
    200: async ({ h }) => viaFetch(`${h.url}/api/media?id=${await uploadedMediaId(h)}`),
    404: ({ h }) => viaFetch(`${h.url}/api/media?id=nope`),
  },
  pair: {
    200: ({ h }) => pairCall(h, { token: h.host.bridge.pairingToken('control'), name: 'Phone' }),
    400: ({ h }) => pairCall(h, { name: 'no token' }),
    401: ({ h }) => pairCall(h, { code: 'wrong-code', name: 'Phone' }),
    403: ({ h }) => foreignHost(h, 'POST', '/api/pair'),
    411: ({ h }) => viaRaw(h, ['POST /api/pair HTTP/1.1', 'Transfer-Encoding: chunked'], '0\r\n\r\n'),
    413: ({ h }) =>
      viaRaw(h, ['POST /api/pair HTTP/1.1', 'Content-Type: application/json', 'Content-Length: 5000']),
    415: ({ h }) => viaFetch(`${h.url}/api/pair`, { method: 'POST', body: '{}' }),
    // A name the host keeps for itself (`device_name_taken`).
    422: ({ h }) => pairCall(h, { code: TEST_CODE, name: 'the host' }),
    429: async ({ strict }) => {
      await pairCall(strict, { code: 'wrong-code', name: 'Phone' });
      return pairCall(strict, { code: TEST_CODE, name: 'Phone' });
    },
  },
  devices: {
    200: ({ h }) => viaFetch(`${h.url}/api/devices`, { headers: bearer }),
    401: ({ h }) => viaFetch(`${h.url}/api/devices`),
    403: ({ h }) => foreignHost(h, 'GET', '/api/devices'),
    429: ({ strict }) => locked(strict, 'GET', '/api/devices'),
  },
  forgetDevice: {
    200: async ({ h }) => {
      const paired = JSON.parse((await pairCall(h, { code: TEST_CODE, name: 'Old phone' })).body);
      return forgetCall(h, { deviceId: paired.device.id });
    },
    400: ({ h }) => forgetCall(h, { device: 'x' }),
    401: ({ h }) => viaFetch(`${h.url}/api/devices/forget`, { method: 'POST', body: '{}' }),
    403: ({ h }) => foreignHost(h, 'POST', '/api/devices/forget'),
    404: ({ h }) => forgetCall(h, { deviceId: 'no-such-device' }),
    411: ({ h }) =>
      viaRaw(
        h,
        [
          'POST /api/devices/forget HTTP/1.1',
          `Authorization: Bearer ${TEST_CODE}`,
          'Transfer-Encoding: chunked',
        ],
        '0\r\n\r\n',
      ),
    413: ({ h }) =>
      viaRaw(h, [
        'POST /api/devices/forget HTTP/1.1',
        `Authorization: Bearer ${TEST_CODE}`,
        'Content-Type: application/json',
        'Content-Length: 5000',
      ]),
    415: ({ h }) =>
      viaFetch(`${h.url}/api/devices/forget`, {
        method: 'POST',
        headers: { ...bearer, 'Content-Type': 'text/plain' },
        body: '{}',
      }),
    429: ({ strict }) => locked(strict, 'POST', '/api/devices/forget'),
  },
};

function pushDecideCall(h: TestHost, body: Record<string, unknown>): Promise<Outcome> {
  return viaFetch(`${h.url}/api/push/decide`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function pairCall(h: TestHost, body: Record<string, unknown>): Promise<Outcome> {
  return viaFetch(`${h.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function forgetCall(h: TestHost, body: Record<string, unknown>): Promise<Outcome> {
  return viaFetch(`${h.url}/api/devices/forget`, {
    method: 'POST',
    headers: { ...bearer, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function actionCall(h: TestHost, body: Record<string, unknown>): Promise<Outcome> {
  return viaFetch(`${h.url}/api/action`, {
    method: 'POST',
    headers: { ...bearer, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('every route × every status it declares', () => {
  const hosts = {} as Hosts;
  beforeAll(async () => {
    hosts.h = await startTestHost();
    hosts.strict = await startTestHost({ freeAuthFailures: 0 });
  });
  afterAll(async () => {
    await hosts.h.close(true);
    await hosts.strict.close(true);
  });

  for (const name of Object.keys(contract) as RouteName[]) {
    const route = contract[name];
    const declared = Object.keys(route.responses).map(Number);
    it(`${name}: a test exists for each declared status`, () => {
      expect(Object.keys(MAKERS[name]).map(Number).sort()).toEqual([...declared].sort());
    });
    for (const status of declared) {
      it(`${route.method} ${route.path} → ${status}, body valid against the contract`, async () => {
        const make = MAKERS[name][status];
        expect(make, `no request makes ${status}`).toBeDefined();
        const outcome = await make!(hosts);
        expect(outcome.status, outcome.body).toBe(status);
        const schema = (route.responses as Record<number, unknown>)[status];
        if (isZod(schema)) {
          if (status >= 400) expect(outcome.contentType).toContain('application/problem+json');
          schema.parse(JSON.parse(outcome.body));
        } else if (name === 'events') {
          expect(outcome.contentType).toContain('text/event-stream');
          expect(outcome.body).toMatch(/^event:state\nid:\d+\ndata:\{/);
        } else {
          expect(outcome.body.length).toBeGreaterThan(0);
        }
      });
    }
  }
});

function isZod(value: unknown): value is ZodTypeAny {
  return typeof value === 'object' && value !== null && 'safeParse' in value;
}
