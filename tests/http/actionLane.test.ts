import type { Snapshot } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../support/rawHttp';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

/**
 * POST /api/action reaches its handler two ways: the Node listener's action lane (a request on
 * the socket) and the Hono route (`bridge.app`, which an embedder may mount elsewhere). Both
 * must give the same answer to the same request, refusals included: the same status, body and
 * protocol headers. Each case is sent both ways and the answers compared.
 */

const VIEW_CODE = 'view-code-5m2x-8k4d';

/** The headers that carry protocol meaning (Date, Connection and Keep-Alive are the transport's). */
const COMPARED_HEADERS = [
  'content-type',
  'cache-control',
  'x-webbridge-protocol',
  'x-webbridge-access',
  'www-authenticate',
  'retry-after',
  'allow',
] as const;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | undefined>;
  readonly body: unknown;
}

interface Case {
  readonly name: string;
  readonly headers: Record<string, string>;
  readonly body: (state: Snapshot) => string;
  readonly status: number;
}

function identity(state: Snapshot) {
  return {
    sessionRevision: state.sessionRevision,
    conversationId: state.conversationId,
    projectId: state.projectId,
    instanceId: state.instanceId,
  };
}

const json = { 'content-type': 'application/json' };
const bearer = (code: string) => ({ authorization: `Bearer ${code}` });

const CASES: readonly Case[] = [
  {
    name: 'an applied model switch',
    headers: { ...bearer(TEST_CODE), ...json },
    body: (s) => JSON.stringify({ action: 'model', modelId: 'echo', ...identity(s) }),
    status: 200,
  },
  {
    name: 'a 409 for an old identity',
    headers: { ...bearer(TEST_CODE), ...json },
    body: (s) =>
      JSON.stringify({
        action: 'send',
        text: 'late',
        ...identity(s),
        sessionRevision: s.sessionRevision + 7,
      }),
    status: 409,
  },
  {
    name: 'no code',
    headers: json,
    body: (s) => JSON.stringify({ action: 'stop', ...identity(s) }),
    status: 401,
  },
  {
    name: 'a wrong code',
    headers: { ...bearer('not-the-code-1234'), ...json },
    body: (s) => JSON.stringify({ action: 'stop', ...identity(s) }),
    status: 401,
  },
  {
    name: 'the view code',
    headers: { ...bearer(VIEW_CODE), ...json },
    body: (s) => JSON.stringify({ action: 'stop', ...identity(s) }),
    status: 403,
  },
  {
    name: 'a body that is not JSON by its type',
    headers: { ...bearer(TEST_CODE), 'content-type': 'text/plain' },
    body: (s) => JSON.stringify({ action: 'stop', ...identity(s) }),
    status: 415,
  },
  {
    name: 'a body that is not JSON',
    headers: { ...bearer(TEST_CODE), ...json },
    body: () => '{"action":',
    status: 400,
  },
  {
    name: 'an action the contract does not know',
    headers: { ...bearer(TEST_CODE), ...json },
    body: () => JSON.stringify({ action: 'format-disk' }),
    status: 400,
  },
  {
    name: 'an action the host cannot apply (422)',
    headers: { ...bearer(TEST_CODE), ...json },
    body: (s) => JSON.stringify({ action: 'model', modelId: 'no-such-model', ...identity(s) }),
    status: 422,
  },
];

function pick(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(COMPARED_HEADERS.map((name) => [name, headers[name]]));
}

function parsed(text: string): unknown {
  return text === '' ? '' : JSON.parse(text);
}

describe('POST /api/action: the Node lane and the Hono route answer alike', () => {
  let h: TestHost;
  let state: Snapshot;

  beforeAll(async () => {
    h = await startTestHost({ viewCode: VIEW_CODE });
    state = h.host.controller.readState() as unknown as Snapshot;
  });
  afterAll(() => h.close(true));

  async function viaSocket(target: string, headers: Record<string, string>, body: string): Promise<Answer> {
    const lines = [
      `POST ${target} HTTP/1.1`,
      `Host: 127.0.0.1:${h.port}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      `Content-Length: ${Buffer.byteLength(body)}`,
    ];
    const answer = await rawRequest(h.port, lines, body);
    return { status: answer.status, headers: pick(answer.headers), body: parsed(answer.body) };
  }

  async function viaHono(target: string, headers: Record<string, string>, body: string): Promise<Answer> {
    const response = await h.host.bridge.app.request(target, {
      method: 'POST',
      headers: { host: `127.0.0.1:${h.port}`, ...headers, 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: pick(Object.fromEntries(response.headers)),
      body: parsed(text),
    };
  }

  for (const c of CASES) {
    it(`${c.name}: ${c.status} both ways`, async () => {
      const body = c.body(state);
      const lane = await viaSocket('/api/action', c.headers, body);
      const hono = await viaHono('/api/action', c.headers, body);
      expect(lane.status).toBe(c.status);
      expect(lane).toEqual(hono);
      expect(lane.headers['x-webbridge-protocol']).toBe('1');
      expect(lane.headers['cache-control']).toBe('no-store');
    });
  }

  it('takes a query on the target as the route does (ignored)', async () => {
    const body = JSON.stringify({ action: 'model', modelId: 'echo', ...identity(state) });
    const headers = { ...bearer(TEST_CODE), ...json };
    const lane = await viaSocket('/api/action?from=test', headers, body);
    expect(lane).toEqual(await viaHono('/api/action?from=test', headers, body));
    expect(lane.status).toBe(200);
  });

  it('leaves other spellings of the path to Hono, which does not know them', async () => {
    const body = JSON.stringify({ action: 'stop', ...identity(state) });
    for (const target of ['/api/action/', '/API/action', '/api//action']) {
      const answer = await viaSocket(target, { ...bearer(TEST_CODE), ...json }, body);
      expect(answer.status, target).toBe(404);
    }
  });

  it('logs an action the lane served as the Hono route would, by route and never the code', async () => {
    const lines: string[] = [];
    const logged = await startTestHost({ logLines: lines });
    try {
      const s = logged.host.controller.readState() as unknown as Snapshot;
      const body = JSON.stringify({ action: 'send', text: 'x', ...identity(s), sessionRevision: 99 });
      const answer = await rawRequest(
        logged.port,
        [
          'POST /api/action?code=leak HTTP/1.1',
          `Host: 127.0.0.1:${logged.port}`,
          `Authorization: Bearer ${TEST_CODE}`,
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(body)}`,
        ],
        body,
      );
      expect(answer.status).toBe(409);
      await expect.poll(() => lines.some((line) => line.includes('"route":"/api/action"'))).toBe(true);
      const line = JSON.parse(lines.find((l) => l.includes('"route":"/api/action"')) ?? '{}');
      expect(line).toMatchObject({ method: 'POST', route: '/api/action', status: 409, msg: 'request' });
      expect(lines.join('\n')).not.toContain(TEST_CODE);
      expect(lines.join('\n')).not.toContain('leak');
    } finally {
      await logged.close(true);
    }
  });
});
