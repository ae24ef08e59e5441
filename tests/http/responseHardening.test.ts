import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { join } from 'node:path';
import { contract } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState } from '../support/api';
import { rawRequest } from '../support/rawHttp';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { tlsRawRequest } from '../support/tlsRawHttp';
import { trustingFetch } from '../support/trustingFetch';

// Every answer is hardened, whoever writes it: Hono's routes and refusals, the action lane
// (Node's response), the event stream, media, static files, Node-level refusals written to the
// socket, and the plain-HTTP answers on the TLS port. Each must carry nosniff and forbid
// framing; HSTS only over HTTPS on a name.

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const systemFetch = globalThis.fetch;
let h: TestHost;
let ca: string;
let mediaId: string;

beforeAll(async () => {
  h = await startTestHost({ tls: true });
  ca = readFileSync(join(h.dataDir, 'tls', 'ca.crt'), 'utf8');
  globalThis.fetch = trustingFetch(ca);
  const upload = await fetch(`${h.url}/api/upload?name=dot.txt`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'text/plain' },
    body: 'hello',
  });
  expect(upload.status).toBe(201);
  mediaId = (await getState(h)).conversations.pending.at(-1)?.media.id ?? '';
});
afterAll(async () => {
  globalThis.fetch = systemFetch;
  await h?.close(true);
});

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders | Record<string, string>;
}

/** One request over HTTPS with any method and Host; the status and headers (body not read). */
function ask(method: string, path: string, headers: Record<string, string> = {}, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: h.port, method, path, ca, headers, agent: false },
      (res) => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** What is wrong with an answer's hardening, or an empty list. */
function missing(answer: Answer): string[] {
  const wrong: string[] = [];
  const header = (name: string) => String(answer.headers[name] ?? '');
  if (header('x-content-type-options') !== 'nosniff') wrong.push('nosniff');
  if (header('x-frame-options') !== 'DENY') wrong.push('X-Frame-Options');
  if (!/frame-ancestors 'none'/.test(header('content-security-policy'))) wrong.push('frame-ancestors');
  return wrong;
}

const auth = { Authorization: `Bearer ${TEST_CODE}` };

describe('every answer is hardened', () => {
  it('every route of the contract, with every method, with and without a code', async () => {
    const routes = Object.values(contract).map((route) => route.path);
    expect(routes.length).toBeGreaterThanOrEqual(6);
    const seen = new Set<number>();
    for (const path of routes) {
      const target = path === contract.media.path ? `${path}?id=${mediaId}` : path;
      for (const method of METHODS) {
        for (const headers of [{}, auth, { ...auth, 'Content-Type': 'application/json' }]) {
          const body = method === 'POST' && 'Content-Type' in headers ? '{"action":"stop"}' : '';
          const answer = await ask(method, target, headers, body);
          seen.add(answer.status);
          expect({ method, target, headers, missing: missing(answer) }).toEqual({
            method,
            target,
            headers,
            missing: [],
          });
        }
      }
    }
    // The walk reached answers of many kinds: successes, the stream, refusals.
    for (const status of [200, 401, 405]) expect(seen).toContain(status);
  });

  it('the action lane, the event stream and media answers', async () => {
    const action = await ask(
      'POST',
      contract.action.path,
      { ...auth, 'Content-Type': 'application/json' },
      '{"action":"stop"}',
    );
    expect(action.status).not.toBe(401);
    expect(missing(action)).toEqual([]);
    const events = await ask('GET', contract.events.path, auth);
    expect(events.status).toBe(200);
    expect(String(events.headers['content-type'])).toMatch(/text\/event-stream/);
    expect(missing(events)).toEqual([]);
    const media = await ask('GET', `${contract.media.path}?id=${mediaId}`);
    expect(media.status).toBe(200);
    expect(missing(media)).toEqual([]);
    const unknownMedia = await ask('GET', `${contract.media.path}?id=${'B'.repeat(22)}`);
    expect(unknownMedia.status).toBe(404);
    expect(missing(unknownMedia)).toEqual([]);
  });

  it('static files, the page, /ca.crt and 404s inside and outside /api', async () => {
    for (const path of [
      '/',
      '/index.html',
      '/manifest.webmanifest',
      '/some/page',
      '/ca.crt',
      '/api/nope',
      '/API/STATE',
    ]) {
      for (const method of ['GET', 'HEAD', 'POST']) {
        const answer = await ask(method, path);
        expect({ method, path, missing: missing(answer) }).toEqual({ method, path, missing: [] });
      }
    }
  });

  it('refusals Node and the framing layer write themselves', async () => {
    const refusals = [
      // Two Content-Length headers: Node's parser refuses (written straight to the socket).
      ['POST /api/action HTTP/1.1', 'Host: 127.0.0.1', 'Content-Length: 1', 'Content-Length: 2'],
      // A target the adapter cannot turn into a URL.
      ['GET \\\\evil HTTP/1.1', 'Host: 127.0.0.1'],
      // CONNECT.
      ['CONNECT example.com:443 HTTP/1.1', 'Host: example.com:443'],
      // A foreign Host (the host guard).
      ['GET /api/state HTTP/1.1', 'Host: evil.example', 'Connection: close'],
    ];
    for (const head of refusals) {
      const answer = await tlsRawRequest(h.port, ca, head);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect({ head: head[0], missing: missing(answer) }).toEqual({ head: head[0], missing: [] });
    }
  });

  it('plain HTTP on the TLS port: the help page, the API refusal, the authority, a parser refusal', async () => {
    for (const path of ['/', '/api/state', '/ca.crt']) {
      const answer = await rawRequest(h.port, [
        `GET ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        'Connection: close',
      ]);
      expect(answer.status).toBeGreaterThan(0);
      expect({ path, missing: missing(answer) }).toEqual({ path, missing: [] });
      // Never HSTS over plain HTTP (browsers ignore it there anyway).
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    }
    const broken = await rawRequest(h.port, [
      'GET / HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Length: 1',
      'Content-Length: 2',
    ]);
    expect(broken.status).toBe(400);
    expect(missing(broken)).toEqual([]);
  });
});

describe('HSTS', () => {
  it('only over HTTPS on a name, never an address or localhost, with a short max-age', async () => {
    const byName = await tlsRawRequest(h.port, ca, [
      'GET /api/locale HTTP/1.1',
      'Host: box.local:7878',
      'Connection: close',
    ]);
    expect(byName.headers['strict-transport-security']).toBe('max-age=86400');
    for (const host of [
      '127.0.0.1',
      `127.0.0.1:${h.port}`,
      '[::1]',
      'localhost',
      `localhost:${h.port}`,
      'app.localhost',
    ]) {
      const answer = await tlsRawRequest(h.port, ca, [
        'GET /api/locale HTTP/1.1',
        `Host: ${host}`,
        'Connection: close',
      ]);
      expect({ host, hsts: answer.headers['strict-transport-security'] }).toEqual({ host, hsts: undefined });
    }
  });
});
