import { connect } from 'node:net';
import type { Snapshot } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNREADABLE_HOSTS } from '../../server/src/guards/readableHost.testing';
import { type RawResponse, rawRequest } from '../support/rawHttp';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

/**
 * Edges of POST /api/action on the Node listener's action lane (adapters/actionLane.ts),
 * each compared with what a request Hono serves gets: the lane must not take what the
 * listener refused before it existed.
 */

function actionBody(state: Snapshot): string {
  return JSON.stringify({
    action: 'model',
    modelId: 'echo',
    sessionRevision: state.sessionRevision,
    conversationId: state.conversationId,
    projectId: state.projectId,
  });
}

describe('POST /api/action with a Host that is not a plain authority', () => {
  let h: TestHost;
  let state: Snapshot;

  beforeAll(async () => {
    h = await startTestHost();
    state = h.host.controller.readState() as unknown as Snapshot;
  });
  afterAll(() => h.close(true));

  function post(host: string): Promise<RawResponse> {
    const body = actionBody(state);
    return rawRequest(
      h.port,
      [
        'POST /api/action HTTP/1.1',
        `Host: ${host}`,
        `Authorization: Bearer ${TEST_CODE}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
      ],
      body,
    );
  }

  // The listener answers these 400 `invalid_request` whatever the route (docs/PROTOCOL.md §3, row 0).
  for (const host of UNREADABLE_HOSTS) {
    it(`refuses Host "${host}" as every other route does (400 invalid_request, connection closed)`, async () => {
      const lane = await post(host);
      const other = await rawRequest(h.port, [
        'GET /api/state HTTP/1.1',
        `Host: ${host}`,
        `Authorization: Bearer ${TEST_CODE}`,
      ]);
      expect(other.status).toBe(400);
      expect(lane.status).toBe(400);
      expect(JSON.parse(lane.body)).toEqual(JSON.parse(other.body));
      expect(JSON.parse(lane.body)).toMatchObject({ code: 'invalid_request' });
      expect(lane.headers['content-type']).toBe('application/problem+json');
      expect(lane.headers['x-webbridge-protocol']).toBe('1');
      expect(lane.headers['cache-control']).toBe('no-store');
      expect(lane.headers.connection).toBe('close');
      expect(lane.headers['x-webbridge-access']).toBeUndefined();
    });
  }

  it('still takes the Host spellings the listener always took', async () => {
    for (const host of [
      '127.0.0.1',
      `127.0.0.1:${h.port}`,
      '127.0.0.1:80',
      'LOCALHOST',
      '[::1]:80',
      'localhost:0',
    ]) {
      const answer = await post(host);
      expect(answer.status, host).toBe(200);
    }
  });
});

/** Everything the server sends on one connection until it closes it or `quietMs` pass silent. */
function converse(port: number, steps: readonly (string | number)[], quietMs = 600): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      quiet();
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
    void (async () => {
      for (const step of steps) {
        if (typeof step === 'number') await new Promise((wait) => setTimeout(wait, step));
        else socket.write(step);
      }
      quiet();
    })();
  });
}

/** The status lines of a conversation, in order (a body is followed by the next at once). */
function statuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((match) => Number(match[1]));
}

describe('POST /api/action on one connection', () => {
  let h: TestHost;
  let state: Snapshot;
  const lines: string[] = [];

  beforeAll(async () => {
    h = await startTestHost({ logLines: lines });
    state = h.host.controller.readState() as unknown as Snapshot;
  });
  afterAll(() => h.close(true));

  const head = (extra: string[] = [], code = TEST_CODE) =>
    [
      'POST /api/action HTTP/1.1',
      `Host: 127.0.0.1:${h.port}`,
      `Authorization: Bearer ${code}`,
      'Content-Type: application/json',
      ...extra,
    ].join('\r\n');

  it('Expect: 100-continue gets 100, then the answer; a refusal after the 100 closes the connection', async () => {
    const body = actionBody(state);
    const accepted = await converse(h.port, [
      `${head(['Expect: 100-continue', `Content-Length: ${body.length}`])}\r\n\r\n`,
      200,
      body,
    ]);
    expect(statuses(accepted)).toEqual([100, 200]);
    const refused = await converse(h.port, [
      `${head(['Expect: 100-continue', `Content-Length: ${body.length}`], 'wrong-code-1234')}\r\n\r\n`,
    ]);
    expect(statuses(refused)).toEqual([100, 401]);
    expect(refused).toMatch(/\r\nConnection: close\r\n/i);
  });

  it('pipelined behind a Hono request and before one, answers in order and keeps the connection', async () => {
    const body = actionBody(state);
    const action = `${head([`Content-Length: ${body.length}`])}\r\n\r\n${body}`;
    const stateRequest = `GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nAuthorization: Bearer ${TEST_CODE}\r\n\r\n`;
    const text = await converse(h.port, [stateRequest + action + action + stateRequest]);
    expect(statuses(text)).toEqual([200, 200, 200, 200]);
    expect(text.match(/"action":"model"/g)).toHaveLength(2);
    expect(text).not.toMatch(/Connection: close/i);
  });

  it('a client gone mid-body is owed nothing: no error logged, the next request is served', async () => {
    const before = lines.length;
    await converse(h.port, [`${head(['Content-Length: 500'])}\r\n\r\n{"action":`, 100], 100);
    const body = actionBody(state);
    const next = await converse(h.port, [`${head([`Content-Length: ${body.length}`])}\r\n\r\n${body}`]);
    expect(statuses(next)).toEqual([200]);
    await expect.poll(() => lines.length - before).toBeGreaterThanOrEqual(2);
    const logged = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.filter((line) => line.msg !== 'request')).toEqual([]);
    expect(logged.map((line) => line.status)).toEqual([400, 200]);
  });
});
