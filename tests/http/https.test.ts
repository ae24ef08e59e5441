import { readFileSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { ACCESS_HEADER, type StreamEvent, stateDataSchema } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, problemOf, sendAndWait, waitFor } from '../support/api';
import { rawRequest } from '../support/rawHttp';
import { openEvents, type SseEvent } from '../support/sseClient';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { tlsRawRequest } from '../support/tlsRawHttp';
import { trustingFetch } from '../support/trustingFetch';

// HTTPS end to end, as a device that installed the host's authority sees it: the generated
// authority is the only root this file's fetch trusts (no system roots at all).

const VIEW_CODE = 'view-code-4h8w-2n6t';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const systemFetch = globalThis.fetch;
let h: TestHost;
let ca: string;

beforeAll(async () => {
  h = await startTestHost({ tls: true, viewCode: VIEW_CODE, heartbeatMs: 300, echoDelayMs: 2 });
  ca = readFileSync(join(h.dataDir, 'tls', 'ca.crt'), 'utf8');
  globalThis.fetch = trustingFetch(ca);
});
afterAll(async () => {
  globalThis.fetch = systemFetch;
  await h?.close(true);
});

/** Decodes a state frame the way the SDK does; undefined for heartbeats. */
function decode(frame: SseEvent): StreamEvent | undefined {
  if (frame.event !== 'state' && frame.event !== 'message') return undefined;
  const data = stateDataSchema.parse(JSON.parse(frame.data));
  if (!Array.isArray(data)) return data;
  const [base, text] = data;
  return { kind: 'append', seq: Number(frame.id), base, text };
}

/** The cause code of a failed fetch (undici wraps the TLS error). */
async function failureOf(request: Promise<Response>): Promise<string> {
  try {
    const response = await request;
    return `answered ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? String(error);
  }
}

describe('the generated authority', () => {
  it('is an https URL, with the CA key kept 0600 and the fingerprint of ca.crt', () => {
    expect(h.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(statSync(join(h.dataDir, 'tls', 'ca.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(h.dataDir, 'tls', 'server.key')).mode & 0o777).toBe(0o600);
    expect(h.host.address.authority?.certificatePem).toBe(ca);
    expect(h.host.bridge.authority?.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('a client that does not trust it cannot connect, nor can one trusting another authority', async () => {
    // Node's fetch trusts the system roots only.
    expect(await failureOf(systemFetch(`${h.url}/api/locale`))).toMatch(
      /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT/,
    );
    const other = await startTestHost({ tls: true });
    try {
      const otherCa = readFileSync(join(other.dataDir, 'tls', 'ca.crt'), 'utf8');
      expect(otherCa).not.toBe(ca);
      expect(await failureOf(trustingFetch(otherCa)(`${h.url}/api/locale`))).toMatch(
        /SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT/,
      );
      // And the trusted fetch really is strict: it refuses the other host's certificate.
      expect(await failureOf(fetch(`${other.url}/api/locale`))).not.toMatch(/^answered/);
    } finally {
      await other.close(true);
    }
  });

  it('the certificate names the address the client used, and TLS older than 1.2 is refused', async () => {
    const protocol = await new Promise<string | null>((resolve, reject) => {
      const socket = connectTls({ port: h.port, host: '127.0.0.1', ca }, () => {
        resolve(socket.getProtocol());
        socket.destroy();
      });
      socket.on('error', reject);
    });
    expect(protocol).toMatch(/^TLSv1\.[23]$/);
    // By the name `localhost` too (it is in the certificate).
    const byName = await fetch(`https://localhost:${h.port}/api/locale`);
    expect(byName.status).toBe(200);
    const old = await new Promise<string>((resolve) => {
      const socket = connectTls(
        { port: h.port, host: '127.0.0.1', ca, minVersion: 'TLSv1', maxVersion: 'TLSv1.1' },
        () => resolve('connected'),
      );
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    expect(old).not.toBe('connected');
  });
});

describe('every route over TLS', () => {
  it('locale and the page are public', async () => {
    const locale = await fetch(`${h.url}/api/locale`);
    expect(locale.status).toBe(200);
    expect(Object.keys((await locale.json()) as object).sort()).toEqual(['language', 'protocol', 'strings']);
    const page = await fetch(`${h.url}/`);
    expect([200, 404]).toContain(page.status);
  });

  it('state, then a send whose echo reply arrives', async () => {
    const state = await getState(h);
    expect(state.instanceId).toBeTruthy();
    const after = await sendAndWait(h, 'hello over tls');
    const [user, reply] = after.conversations.messages.slice(-2);
    expect(user?.text).toBe('hello over tls');
    expect(reply?.role).toBe('assistant');
    expect(reply?.text).toContain('hello over tls');
  });

  it('events: a snapshot, deltas while a reply streams, heartbeats when idle, resume by Last-Event-ID', async () => {
    const stream = await openEvents(h.url, h.auth());
    let lastId: string | undefined;
    let instanceId: string;
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const first = await stream.next();
      expect(first.event).toBe('state');
      const snapshot = decode(first);
      if (snapshot?.kind !== 'snapshot') throw new Error('the stream did not open with a snapshot');
      instanceId = snapshot.snapshot.instanceId;
      lastId = first.id;

      // Idle: heartbeats at the configured 300 ms.
      const started = Date.now();
      const beat = await stream.until((e) => e.event === 'heartbeat', 2000);
      expect(JSON.parse(beat.data)).toMatchObject({ heartbeatMs: 300 });
      expect(Date.now() - started).toBeLessThan(1500);

      const state = await getState(h);
      await act(h, {
        action: 'send',
        text: 'alpha beta gamma delta epsilon',
        sessionRevision: state.sessionRevision,
        conversationId: state.conversationId,
        projectId: state.projectId,
        instanceId: state.instanceId,
      });
      const kinds = new Set<string>();
      await stream.until((e) => {
        const event = decode(e);
        if (event) {
          kinds.add(event.kind);
          lastId = e.id;
        }
        return kinds.size > 0;
      }, 10_000);
      expect(kinds.has('delta') || kinds.has('append')).toBe(true);
      // Every update of the reply, up to its end, arrives over the same stream.
      await waitFor(async () => {
        const now = await getState(h);
        return now.conversations.run.state === 'idle' ? true : undefined;
      });
      await stream.until((e) => {
        const event = decode(e);
        if (event) lastId = e.id;
        return event !== undefined && JSON.stringify(event).includes('"idle"');
      }, 5000);
    } finally {
      stream.close();
    }

    // Something happens while the client is away; it resumes from where it was.
    await sendAndWait(h, 'missed while away');
    const resumed = await openEvents(h.url, h.auth({ 'Last-Event-ID': `${instanceId}.${lastId}` }));
    try {
      const frames: StreamEvent[] = [];
      await resumed.until((e) => {
        const event = decode(e);
        if (event) frames.push(event);
        return event !== undefined && JSON.stringify(frames).includes('missed while away');
      }, 5000);
      expect(frames[0]?.kind).not.toBe('snapshot');
      expect(frames.every((f) => f.kind !== 'snapshot')).toBe(true);
    } finally {
      resumed.close();
    }
  });

  it('upload, then the media id from the state is served by GET and HEAD', async () => {
    const upload = await fetch(`${h.url}/api/upload?name=dot.png`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'image/png' },
      body: PNG,
    });
    expect(upload.status).toBe(201);
    const { attachment } = (await upload.json()) as { attachment: { id: string } };
    const pending = (await getState(h)).conversations.pending.find((a) => a.id === attachment.id);
    const url = `${h.url}/api/media?id=${pending?.media.id}`;
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PNG.length));
    const get = await fetch(url);
    expect(get.status).toBe(200);
    expect(Buffer.from(await get.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${h.url}/api/media?id=${'C'.repeat(22)}`)).status).toBe(404);
  });
});

describe('the auth matrix over TLS', () => {
  const routes = [
    { method: 'GET', path: '/api/state', viewStatus: 200 },
    { method: 'GET', path: '/api/events', viewStatus: 200 },
    { method: 'POST', path: '/api/action', viewStatus: 403 },
    { method: 'POST', path: '/api/upload?name=a.txt', viewStatus: 403 },
  ] as const;
  const request = (route: (typeof routes)[number], code: string | undefined) =>
    fetch(`${h.url}${route.path}`, {
      method: route.method,
      headers: {
        'Content-Type': route.path.startsWith('/api/upload') ? 'text/plain' : 'application/json',
        ...(code === undefined ? {} : { Authorization: `Bearer ${code}` }),
      },
      ...(route.method === 'POST'
        ? { body: route.path === '/api/action' ? JSON.stringify({ action: 'newConversation' }) : 'text' }
        : {}),
    });

  for (const route of routes) {
    it(`${route.method} ${route.path}: none 401, wrong 401, view ${route.viewStatus}, main OK`, async () => {
      for (const code of [undefined, 'not-the-code-at-all']) {
        const refused = await request(route, code);
        expect(refused.status).toBe(401);
        expect(refused.headers.get('www-authenticate')).toBe('Bearer');
        expect((await problemOf(refused)).code).toBe('unauthorized');
      }
      const view = await request(route, VIEW_CODE);
      expect(view.status).toBe(route.viewStatus);
      if (route.viewStatus === 403) {
        expect((await problemOf(view)).code).toBe('view_only');
      } else {
        await view.body?.cancel();
      }
      const main = await request(route, TEST_CODE);
      expect(main.status).toBe(route.path.startsWith('/api/upload') ? 201 : 200);
      if (route.path !== '/api/events') expect(main.headers.get(ACCESS_HEADER)).toBe('control');
      await main.body?.cancel();
    });
  }
});

describe('the Host check over TLS', () => {
  it('a foreign Host is 403 forbidden_host; the host own name is served', async () => {
    const head = (host: string) => [
      'GET /api/state HTTP/1.1',
      `Host: ${host}`,
      `Authorization: Bearer ${TEST_CODE}`,
      'Connection: close',
    ];
    const foreign = await tlsRawRequest(h.port, ca, head('evil.example'));
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).code).toBe('forbidden_host');
    const rebound = await tlsRawRequest(h.port, ca, head(`attacker.example:${h.port}`));
    expect(rebound.status).toBe(403);
    const own = await tlsRawRequest(h.port, ca, head(`127.0.0.1:${h.port}`));
    expect(own.status).toBe(200);
  });
});

/** Sends `request` on a plain socket and reads until the server closes it (or 3 s pass). */
function plainExchange(port: number, request: string): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closedByServer: false });
    }, 3000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closedByServer: true });
    });
    socket.write(request);
  });
}

describe('plain HTTP on the TLS port', () => {
  const get = (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nConnection: keep-alive\r\n\r\n`;

  it('a page gets a help page naming the https address, and the connection is closed', async () => {
    const { text, closedByServer } = await plainExchange(h.port, get('/some/page?x=1'));
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/\r\ncontent-type: text\/html/i);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text).toContain(`https://127.0.0.1:${h.port}/some/page?x=1`);
    expect(text).toContain(h.host.bridge.authority?.fingerprint);
    expect(closedByServer).toBe(true);
  });

  it('/ca.crt is the authority certificate (PEM), public', async () => {
    const { text, closedByServer } = await plainExchange(h.port, get('/ca.crt'));
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(/\r\ncontent-type: application\/x-x509-ca-cert/i);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(ca);
    expect(closedByServer).toBe(true);
  });

  it('the API answers problem+json https_required, never data, even with the right code', async () => {
    const response = await rawRequest(h.port, [
      'GET /api/state HTTP/1.1',
      `Host: 127.0.0.1:${h.port}`,
      `Authorization: Bearer ${TEST_CODE}`,
    ]);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers.connection).toBe('close');
    const problem = JSON.parse(response.body) as { code: string; detail: string };
    expect(problem.code).toBe('https_required');
    expect(problem.detail).toContain(`https://127.0.0.1:${h.port}/api/state`);
    const post = await rawRequest(h.port, [
      'POST /api/action HTTP/1.1',
      `Host: 127.0.0.1:${h.port}`,
      'Content-Length: 0',
    ]);
    expect(JSON.parse(post.body).code).toBe('https_required');
  });

  it('a foreign Host gets no link to follow (no open redirect)', async () => {
    const { text } = await plainExchange(
      h.port,
      'GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
    );
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).not.toContain('evil.example');
  });
});

describe('the help page links only to this host', () => {
  it('a Host whose authority would mean another host (userinfo, a path) gets no link', async () => {
    for (const host of [
      '127.0.0.1:@evil.example',
      `127.0.0.1:${h.port}@evil.example`,
      'localhost:1/\\evil.example',
    ]) {
      const { text } = await plainExchange(
        h.port,
        `GET /x HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(text, host).toMatch(/^HTTP\/1\.1 400 /);
      expect(text, host).not.toContain('evil.example');
      expect(text, host).not.toContain('href="https:');
    }
  });
});

describe('TLS renegotiation', () => {
  it('a TLS 1.2 client that asks to renegotiate is refused', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const socket = connectTls({ port: h.port, host: '127.0.0.1', ca, maxVersion: 'TLSv1.2' }, () => {
        expect(socket.getProtocol()).toBe('TLSv1.2');
        const asked = socket.renegotiate({ rejectUnauthorized: true }, (error) => {
          resolve(error ? 'refused' : 'renegotiated');
          socket.destroy();
        });
        if (!asked) resolve('refused');
      });
      // The server answers the attempt with a 400 problem and closes the connection.
      socket.on('data', () => undefined);
      socket.on('error', () => resolve('refused'));
      socket.on('close', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
  });
});

describe('clients that never finish', () => {
  /** Resolves with how long after `open` the server cut the connection (the client reads all). */
  const cutAfter = (open: () => Socket) =>
    new Promise<number>((resolve) => {
      const started = Date.now();
      const socket = open();
      socket.on('data', () => undefined);
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Date.now() - started));
    });
  const plainThen = (bytes: Buffer | string | undefined) => () => {
    const socket = connect(h.port, '127.0.0.1', () => {
      if (bytes !== undefined) socket.write(bytes);
    });
    return socket;
  };

  it("a silent TCP client and one that sends only the start of a TLS handshake are cut in ~10 s; so are a plain-HTTP client stuck after one byte and, at Node's next headers check, a silent TLS client", async () => {
    // A TLS record header announcing a 512-byte ClientHello, and 6 bytes of it.
    const partialHello = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]);
    const [silent, partial, oneByte, quietTls] = await Promise.all([
      cutAfter(plainThen(undefined)),
      cutAfter(plainThen(partialHello)),
      cutAfter(plainThen('G')),
      // A full handshake, then nothing: the same as a slow-headers client on a plain port.
      cutAfter(() => connectTls({ port: h.port, host: '127.0.0.1', ca })),
    ]);
    for (const ms of [silent, partial, oneByte]) {
      expect(ms).toBeGreaterThan(9_000);
      expect(ms).toBeLessThan(11_500);
    }
    // headersTimeout (10 s) is enforced by Node's periodic connection check (every 30 s).
    expect(quietTls).toBeGreaterThan(9_000);
    expect(quietTls).toBeLessThan(41_000);
  }, 50_000);
});
