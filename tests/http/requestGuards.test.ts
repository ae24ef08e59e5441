import { MAX_JSON } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState, problemOf } from '../support/api';
import { rawRequest } from '../support/rawHttp';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

describe('request guards', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({ uploadLimit: 1024 });
  });
  afterAll(() => h.close(true));

  const base = () => [`Host: 127.0.0.1:${h.port}`, 'Connection: close'];

  const duplicates: [string, string, string][] = [
    ['Authorization', `Bearer ${TEST_CODE}`, 'Bearer other'],
    ['Content-Type', 'application/json', 'text/plain'],
    ['Host', '(the listener)', 'evil.example'],
    ['Content-Encoding', 'identity', 'gzip'],
  ];
  for (const [name, first, second] of duplicates) {
    it(`two ${name} headers are 400 duplicate_header`, async () => {
      const head = [
        'POST /api/action HTTP/1.1',
        ...(name === 'Host' ? [`Host: 127.0.0.1:${h.port}`, `Host: ${second}`] : base()),
        ...(name === 'Host' ? ['Connection: close'] : []),
        ...(name === 'Authorization' ? [] : [`Authorization: Bearer ${TEST_CODE}`]),
        ...(name === 'Content-Type' ? [] : ['Content-Type: application/json']),
        ...(name === 'Host' ? [] : [`${name}: ${first}`, `${name}: ${second}`]),
        'Content-Length: 2',
      ];
      const response = await rawRequest(h.port, head, '{}');
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(JSON.parse(response.body).code).toBe('duplicate_header');
    });
  }

  it("two Content-Length headers, refused by Node's parser, are still a 400 duplicate_header problem", async () => {
    const response = await rawRequest(
      h.port,
      [
        'POST /api/action HTTP/1.1',
        ...base(),
        `Authorization: Bearer ${TEST_CODE}`,
        'Content-Length: 2',
        'Content-Length: 3',
      ],
      '{}',
    );
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.headers['x-webbridge-protocol']).toBe('1');
    expect(JSON.parse(response.body).code).toBe('duplicate_header');
  });

  it('Content-Length with Transfer-Encoding is 411 chunked_not_allowed', async () => {
    const response = await rawRequest(
      h.port,
      [
        'POST /api/action HTTP/1.1',
        ...base(),
        `Authorization: Bearer ${TEST_CODE}`,
        'Content-Length: 2',
        'Transfer-Encoding: chunked',
      ],
      '{}',
    );
    expect(response.status).toBe(411);
    expect(JSON.parse(response.body).code).toBe('chunked_not_allowed');
  });

  it('oversized headers are 431 header_too_large', async () => {
    const response = await rawRequest(h.port, [
      'GET /api/locale HTTP/1.1',
      ...base(),
      `X-Big: ${'a'.repeat(20_000)}`,
    ]);
    expect(response.status).toBe(431);
    expect(JSON.parse(response.body).code).toBe('header_too_large');
  });

  it('HEAD answers the headers of locale, state and events without a body or a subscription', async () => {
    for (const path of ['/api/locale', '/api/state', '/api/events']) {
      const response = await fetch(`${h.url}${path}`, { method: 'HEAD', headers: h.auth() });
      expect(response.status, path).toBe(200);
      expect(await response.text()).toBe('');
    }
    expect(h.host.bridge.subscriberCount).toBe(0);
  });

  it('Transfer-Encoding: chunked is 411 before the body is read', async () => {
    const response = await rawRequest(
      h.port,
      [
        'POST /api/action HTTP/1.1',
        ...base(),
        `Authorization: Bearer ${TEST_CODE}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
      ],
      '2\r\n{}\r\n0\r\n\r\n',
    );
    expect(response.status).toBe(411);
    expect(JSON.parse(response.body).code).toBe('chunked_not_allowed');
  });

  it('a declared action body above MAX_JSON is 413 without reading it', async () => {
    // Only the headers are sent: a 413 proves the server did not wait for the body.
    const response = await rawRequest(h.port, [
      'POST /api/action HTTP/1.1',
      ...base(),
      `Authorization: Bearer ${TEST_CODE}`,
      'Content-Type: application/json',
      `Content-Length: ${MAX_JSON + 1}`,
    ]);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).code).toBe('payload_too_large');
  });

  it('an action body of exactly MAX_JSON is read (and judged on its content)', async () => {
    const padding = 'x'.repeat(MAX_JSON - 40);
    const body = JSON.stringify({ action: 'renameConversation', pad: padding }).padEnd(MAX_JSON, ' ');
    expect(Buffer.byteLength(body)).toBe(MAX_JSON);
    const response = await fetch(`${h.url}/api/action`, { method: 'POST', headers: h.auth(), body });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toBe('invalid_request');
  });

  it('a declared upload above the limit is 413 without reading it', async () => {
    const response = await rawRequest(h.port, [
      'POST /api/upload?name=big.bin HTTP/1.1',
      ...base(),
      `Authorization: Bearer ${TEST_CODE}`,
      'Content-Type: application/octet-stream',
      'Content-Length: 1025',
    ]);
    expect(response.status).toBe(413);
  });

  it('an upload without Content-Length is 411', async () => {
    const response = await rawRequest(h.port, [
      'POST /api/upload?name=a.txt HTTP/1.1',
      ...base(),
      `Authorization: Bearer ${TEST_CODE}`,
      'Content-Type: text/plain',
    ]);
    expect(response.status).toBe(411);
    expect(JSON.parse(response.body).code).toBe('length_required');
  });

  for (const host of ['evil.example', 'evil.example:7878', '127.0.0.1.nip.io', 'localhost.evil.example']) {
    it(`a foreign Host (${host}) is 403 on the API and on the page`, async () => {
      for (const path of ['/api/locale', '/api/state', '/']) {
        const response = await rawRequest(h.port, [
          `GET ${path} HTTP/1.1`,
          `Host: ${host}`,
          `Authorization: Bearer ${TEST_CODE}`,
          'Connection: close',
        ]);
        expect(response.status).toBe(403);
        expect(JSON.parse(response.body).code).toBe('forbidden_host');
      }
    });
  }

  it('an absolute-form request target is refused, whatever the Host header says', async () => {
    const response = await rawRequest(h.port, [
      'GET http://evil.example/api/state HTTP/1.1',
      `Host: 127.0.0.1:${h.port}`,
      `Authorization: Bearer ${TEST_CODE}`,
      'Connection: close',
    ]);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).code).toBe('invalid_request');
  });

  it('loopback names are accepted as Host', async () => {
    for (const host of ['localhost', `localhost:${h.port}`, `127.0.0.1:${h.port}`]) {
      const response = await rawRequest(h.port, [
        'GET /api/locale HTTP/1.1',
        `Host: ${host}`,
        'Connection: close',
      ]);
      expect(response.status).toBe(200);
    }
  });

  it('a non-JSON action is 415, malformed JSON and unknown actions are 400 with issues', async () => {
    const text = await fetch(`${h.url}/api/action`, {
      method: 'POST',
      headers: { ...h.auth(), 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const broken = await fetch(`${h.url}/api/action`, {
      method: 'POST',
      headers: h.auth(),
      body: '{"action":',
    });
    expect(broken.status).toBe(400);
    expect((await problemOf(broken)).code).toBe('invalid_request');
    const unknown = await fetch(`${h.url}/api/action`, {
      method: 'POST',
      headers: h.auth(),
      body: JSON.stringify({ action: 'formatDisk' }),
    });
    expect(unknown.status).toBe(400);
    const problem = await problemOf(unknown);
    expect(problem.issues?.length).toBeGreaterThan(0);
  });

  it('an unknown API route is a 404 problem; a wrong method is 405', async () => {
    const missing = await fetch(`${h.url}/api/nothing`, { headers: h.auth() });
    expect(missing.status).toBe(404);
    expect((await problemOf(missing)).code).toBe('not_found');
    const wrong = await fetch(`${h.url}/api/state`, { method: 'DELETE', headers: h.auth() });
    expect(wrong.status).toBe(405);
  });

  it('every API response carries the protocol version header', async () => {
    const response = await fetch(`${h.url}/api/locale`);
    expect(response.headers.get('x-webbridge-protocol')).toBe('1');
    const state = await getState(h);
    expect(state.protocol).toBe(1);
  });
});
