import type { Snapshot } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/**
 * Host values that are not a plain authority: a port that is no number or out of range, user
 * information, a path, a space, percent signs, a second colon, text after an IPv6 literal.
 * @hono/node-server cannot build a URL of them (or builds one naming another host) and the
 * listener answers 400 `invalid_request` (docs/PROTOCOL.md §3, row 0), whatever the route.
 * The first five end in something the host guard alone would read as a name of this server.
 */
const UNREADABLE_HOSTS = [
  '127.0.0.1:abc',
  'localhost:1@evil.example',
  'localhost:80 evil',
  '127.0.0.1:99999',
  '127.0.0.1:',
  '127.0.0.1/x',
  'user@localhost',
  '127.0.0.%31',
  'localhost:8080:80',
  '[::1]evil',
] as const;

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
