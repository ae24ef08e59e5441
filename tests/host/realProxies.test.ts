import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROTOCOL_HEADER, type Snapshot, stateDataSchema } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxiedFetch } from '../support/proxiedFetch';
import {
  freePort,
  PROXY_NAME,
  type ProxyKind,
  proxyCertificate,
  type RunningProxy,
  startProxy,
} from '../support/reverseProxy';
import { openEvents, type SseEvent } from '../support/sseClient';
import { tlsRawRequest } from '../support/tlsRawHttp';
import { type CliProcess, startCli } from './cliProcess';

/**
 * The host behind Debian's nginx and Caddy, over real sockets: each proxy terminates TLS for a
 * test name with a test authority's certificate and forwards to `webbridge serve`, started with
 * `--public-url` and `--trust-proxy`. A client that trusts only that authority and finds the
 * name at the proxy (as a phone outside the house would) does everything through it.
 *
 * The idle stream lasts WEBBRIDGE_PROXY_IDLE_MS (default 8 s) behind proxies whose idle timeout
 * is WEBBRIDGE_PROXY_TIMEOUT_S (default 3 s), with heartbeats every WEBBRIDGE_PROXY_HEARTBEAT_MS
 * (default 500 ms): the same proof as 3 minutes behind nginx's 60 s with the host's 15 s beat,
 * in CI's time. `WEBBRIDGE_PROXY_IDLE_MS=180000 WEBBRIDGE_PROXY_TIMEOUT_S=60
 * WEBBRIDGE_PROXY_HEARTBEAT_MS=15000` runs the long one.
 */
const IDLE_MS = Number(process.env.WEBBRIDGE_PROXY_IDLE_MS ?? 8_000);
const TIMEOUT_S = Number(process.env.WEBBRIDGE_PROXY_TIMEOUT_S ?? 3);
const HEARTBEAT_MS = Number(process.env.WEBBRIDGE_PROXY_HEARTBEAT_MS ?? 500);
const CODE = 'proxy-code-4k7m-2q9x';
const WORD_DELAY_MS = 60;

describe.each<ProxyKind>(['nginx', 'caddy'])('the host behind %s', (kind) => {
  let cli: CliProcess;
  let proxy: RunningProxy;
  let phone: typeof fetch;
  let credential = '';
  let proxyPort = 0;
  let caPem = '';
  const auth = (extra: Record<string, string> = {}) => ({
    Authorization: `Bearer ${credential}`,
    'Content-Type': 'application/json',
    ...extra,
  });
  const state = async (): Promise<Snapshot> => {
    const response = await phone(`${proxy.url}/api/state`, { headers: auth() });
    expect(response.status).toBe(200);
    return (await response.json()) as Snapshot;
  };
  const act = async (body: Record<string, unknown>) => {
    const response = await phone(`${proxy.url}/api/action`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const send = async (text: string) => {
    const s = await state();
    await act({
      action: 'send',
      text,
      sessionRevision: s.sessionRevision,
      conversationId: s.conversationId,
      projectId: s.projectId,
    });
  };
  const until = async (check: (s: Snapshot) => boolean, timeoutMs = 15_000): Promise<Snapshot> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await state();
      if (check(s)) return s;
      if (Date.now() > deadline) throw new Error('the state did not arrive');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const idle = (s: Snapshot) =>
    s.conversations.run.state === 'idle' && s.conversations.messages.at(-1)?.status === 'complete';

  beforeAll(async () => {
    const certificate = await proxyCertificate();
    phone = proxiedFetch(certificate.caPem, PROXY_NAME);
    const port = await freePort();
    proxyPort = port;
    caPem = certificate.caPem;
    const publicUrl = `https://${PROXY_NAME}:${port}`;
    cli = await startCli(
      [
        '--port',
        '0',
        '--data-dir',
        mkdtempSync(join(tmpdir(), 'webbridge-proxied-')),
        '--no-console',
        '--log-level',
        'silent',
        '--public-url',
        publicUrl,
        '--trust-proxy',
        'loopback',
        '--heartbeat-ms',
        String(HEARTBEAT_MS),
        '--echo-delay-ms',
        String(WORD_DELAY_MS),
      ],
      20_000,
      { ...process.env, WEBBRIDGE_ACCESS_CODE: CODE },
    );
    proxy = await startProxy({ kind, certificate, upstreamPort: cli.port, port, idleTimeoutS: TIMEOUT_S });
  }, 40_000);
  afterAll(async () => {
    await proxy?.stop();
    cli?.child.kill('SIGTERM');
    await cli?.exited();
  });

  it('pairs by the printed public link, and the proxy’s https counts (HSTS on the public name)', async () => {
    const deadline = Date.now() + 10_000;
    while (!cli.lines.some((line) => line.includes('#pair=')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cli.lines).toContain(`public URL: ${proxy.url}`);
    const links = cli.lines.map((line) => /^ {2}(https:\/\/\S+)\/#pair=([\w-]+)$/.exec(line)).filter(Boolean);
    expect(links).toHaveLength(1);
    const [, base, token] = links[0]!;
    expect(base).toBe(proxy.url);

    const paired = await phone(`${base}/api/pair`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, name: `Phone via ${kind}` }),
    });
    expect(paired.status).toBe(200);
    credential = ((await paired.json()) as { credential: string }).credential;
    const answer = await phone(`${proxy.url}/api/state`, { headers: auth() });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('strict-transport-security')).toBe('max-age=86400');
  });

  it('refuses a forged Host sent through the proxy', async () => {
    const request = (host: string) =>
      tlsRawRequest(
        proxyPort,
        caPem,
        ['GET /api/locale HTTP/1.1', `Host: ${host}`, 'Connection: close'],
        '',
        5000,
        PROXY_NAME,
      );
    const forged = await request('evil.example');
    // nginx passes the name on and the host refuses it; Caddy has no site by that name and
    // answers itself: either way the API never answers to it.
    const fromHost = forged.headers[PROTOCOL_HEADER.toLowerCase()] !== undefined;
    expect(fromHost ? forged.status : 'not forwarded').toBe(kind === 'nginx' ? 403 : 'not forwarded');
    if (fromHost) expect(forged.body).toContain('forbidden_host');
    // The same request with the public name is answered.
    expect((await request(`${PROXY_NAME}:${proxyPort}`)).status).toBe(200);
  });

  it('believes the address the proxy saw, not a Forwarded header the client wrote', async () => {
    // Both proxies pass a client's Forwarded on untouched and write X-Forwarded-For. (A client's
    // own X-Forwarded-For is walked past only up to a trusted address, and this client is on
    // loopback, which is trusted here: tests/http/trustedProxies.test.ts covers that walk.)
    const answer = await phone(`${proxy.url}/api/locale`, { headers: { Forwarded: 'for=203.0.113.50' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-webbridge-client-address')).toBe('127.0.0.1');
  });

  it('streams a reply word by word, not buffered into one piece', async () => {
    const stream = await openEvents(proxy.url, auth(), '', phone);
    try {
      await stream.until((e) => e.event !== 'heartbeat', 10_000);
      const words = Array.from({ length: 12 }, (_, i) => `word${i}`);
      const sentAt = performance.now();
      await send(words.join(' '));
      // Everything the stream brings while the reply runs, and a second after.
      const updates: SseEvent[] = [];
      const end = sentAt + words.length * WORD_DELAY_MS + 1_000;
      for (;;) {
        const left = end - performance.now();
        if (left <= 0) break;
        const event = await stream.next(left).catch(() => undefined);
        if (event !== undefined && event.event !== 'heartbeat') updates.push(event);
      }
      // Twelve words 60 ms apart: unbuffered, updates arrive spread over the reply (at least
      // half its length between the first and the last); a buffering proxy delivers them in one
      // piece at its end (or never, until its buffer fills).
      expect(updates.length).toBeGreaterThanOrEqual(6);
      const spread = updates.at(-1)!.at - updates[0]!.at;
      expect(spread).toBeGreaterThan((words.length * WORD_DELAY_MS) / 2);
      expect(updates[0]!.at - sentAt).toBeLessThan(words.length * WORD_DELAY_MS);
    } finally {
      stream.close();
    }
    await until(idle);
  });

  it('asks for and takes an approval through the proxy', async () => {
    await send('/tool write_file {"path":"proxied.txt","content":"through the proxy"}');
    const waiting = await until((s) => s.approvals.length === 1);
    await act({ action: 'approve', approvalId: waiting.approvals[0]!.id, decision: 'allow' });
    const done = await until((s) => s.approvals.length === 0 && idle(s));
    const tool = done.conversations.messages.find(
      (m) => m.role === 'tool' && m.tool?.approvalId === waiting.approvals[0]!.id,
    );
    expect(tool?.tool?.decided?.decision).toBe('allow');
  });

  it('uploads 20 MiB through the proxy', async () => {
    const body = randomBytes(20 * 1024 * 1024);
    const response = await phone(`${proxy.url}/api/upload?name=big.png`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'image/png' },
      body,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { attachment } = (await response.json()) as { attachment: { size: number } };
    expect(attachment.size).toBe(body.length);
  }, 60_000);

  it(
    `keeps an idle stream open past the proxy’s ${TIMEOUT_S} s idle timeout (${IDLE_MS} ms, heartbeats)`,
    async () => {
      const stream = await openEvents(proxy.url, auth(), '', phone);
      try {
        await stream.until((e) => e.event !== 'heartbeat', 10_000);
        let beats = 0;
        const end = performance.now() + IDLE_MS;
        for (;;) {
          const left = end - performance.now();
          if (left <= 0) break;
          try {
            const event = await stream.next(left);
            if (event.event === 'heartbeat') beats++;
          } catch (error) {
            if (String(error).includes('stream ended'))
              throw new Error(`the proxy cut the idle stream after ${beats} heartbeats`);
          }
        }
        expect(beats).toBeGreaterThanOrEqual(Math.floor(IDLE_MS / HEARTBEAT_MS / 2));
        // Still live end to end: a reply sent now arrives on it.
        await send('still here');
        await stream.until((e) => e.data.includes('still here'), 10_000);
      } finally {
        stream.close();
      }
      await until(idle);
    },
    IDLE_MS + 30_000,
  );

  it('resumes after the proxy restarts, with only what was missed', async () => {
    const stream = await openEvents(proxy.url, auth(), '', phone);
    let last: string | undefined;
    try {
      const first = await stream.until((e) => e.event !== 'heartbeat', 10_000);
      // What the SDK sends back: the run of the host and the last seq it applied.
      const { snapshot } = JSON.parse(first.data) as { snapshot: { instanceId: string } };
      last = `${snapshot.instanceId}.${first.id}`;
      await proxy.restart();
      await stream.ended;
    } finally {
      stream.close();
    }
    expect(last).toBeDefined();
    await send('sent while the stream was down');
    await until(idle);
    const resumed = await openEvents(proxy.url, auth({ 'Last-Event-ID': last! }), '', phone);
    try {
      const event = await resumed.until((e) => e.event !== 'heartbeat', 10_000);
      const data = stateDataSchema.parse(JSON.parse(event.data));
      expect(Array.isArray(data) ? 'append' : data.kind).not.toBe('snapshot');
    } finally {
      resumed.close();
    }
  }, 40_000);
});
