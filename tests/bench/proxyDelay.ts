/**
 * What a reverse proxy adds between the host and a phone, measured side by side in one run:
 * one host (echo model, a word every 20 ms), Debian's nginx and Caddy in front of it on
 * loopback terminating TLS (the test configurations of tests/support/reverseProxy.ts), and
 * three event streams open at once — direct (plain HTTP), through nginx, through Caddy. Every
 * event is matched by its id across the three; the figure is the proxied arrival minus the
 * direct one: for the first two events after a send (the message sent and the reply's first
 * word: "reply start") and for every later word. It includes the TLS the proxy adds (the
 * client decrypts; the direct stream is plain HTTP), as a phone meets it.
 * A request's first byte: GET /api/locale on a kept-alive connection, per path.
 * Run: node --import tsx tests/bench/proxyDelay.ts
 */

import { act, getState, guardOf } from '../support/api';
import { proxiedFetch } from '../support/proxiedFetch';
import {
  freePort,
  PROXY_NAME,
  proxyCertificate,
  type RunningProxy,
  startProxy,
} from '../support/reverseProxy';
import { openEvents, type SseConnection, type SseEvent } from '../support/sseClient';
import { startTestHost } from '../support/testHost';
import { printTable, quantile } from './table';

const REPLIES = Number(process.env.REPLIES ?? 20);
const WORDS = 30;
const WORD_DELAY_MS = 20;
const REQUESTS = 300;

const certificate = await proxyCertificate();
const host = await startTestHost({
  echoDelayMs: WORD_DELAY_MS,
  publicUrl: `https://${PROXY_NAME}`,
  trustProxy: ['loopback'],
});
const proxies: Record<'nginx' | 'caddy', RunningProxy> = {
  nginx: await startProxy({ kind: 'nginx', certificate, upstreamPort: host.port, port: await freePort() }),
  caddy: await startProxy({ kind: 'caddy', certificate, upstreamPort: host.port, port: await freePort() }),
};
const phone = proxiedFetch(certificate.caPem, PROXY_NAME);
const paths = [
  { name: 'direct (http, loopback)', url: host.url, fetch: fetch },
  { name: 'nginx 1.22 (https)', url: proxies.nginx.url, fetch: phone },
  { name: 'caddy 2.6 (https)', url: proxies.caddy.url, fetch: phone },
] as const;

try {
  // Streams: every event of every reply, by path and id.
  const streams: SseConnection[] = [];
  for (const path of paths) {
    const stream = await openEvents(path.url, host.auth(), '', path.fetch);
    await stream.until((e) => e.event !== 'heartbeat', 10_000);
    streams.push(stream);
  }
  const firstAdded: number[][] = paths.map(() => []);
  const wordAdded: number[][] = paths.map(() => []);
  for (let reply = 0; reply < REPLIES; reply++) {
    const text = Array.from({ length: WORDS }, (_, i) => `w${reply}x${i}`).join(' ');
    await act(host, { action: 'send', text, ...guardOf(await getState(host)) });
    const end = performance.now() + WORDS * WORD_DELAY_MS + 1_500;
    const seen = await Promise.all(streams.map((stream) => collect(stream, end)));
    const direct = seen[0]!;
    const ids = [...direct.keys()].sort((a, b) => Number(a) - Number(b));
    for (let p = 1; p < paths.length; p++) {
      ids.forEach((id, i) => {
        const at = seen[p]!.get(id);
        if (at === undefined) return;
        (i <= 1 ? firstAdded : wordAdded)[p]!.push(at - direct.get(id)!);
      });
    }
  }
  for (const stream of streams) stream.close();

  // A request's first byte, on a kept-alive connection per path.
  const firstByte: number[][] = paths.map(() => []);
  for (let i = 0; i < REQUESTS; i++) {
    for (const [p, path] of paths.entries()) {
      const started = performance.now();
      const response = await path.fetch(`${path.url}/api/locale`);
      firstByte[p]!.push(performance.now() - started);
      await response.arrayBuffer();
    }
  }
  const direct = quantile(firstByte[0]!, 0.5);
  printTable(
    `Delay a proxy adds (${REPLIES} replies of ${WORDS} words, ${WORD_DELAY_MS} ms apart; ms, proxied minus direct, same run)`,
    paths.map((path, p) => ({
      path: path.name,
      'reply start p50': p === 0 ? '—' : quantile(firstAdded[p]!, 0.5),
      'reply start p90': p === 0 ? '—' : quantile(firstAdded[p]!, 0.9),
      'per word p50': p === 0 ? '—' : quantile(wordAdded[p]!, 0.5),
      'per word p90': p === 0 ? '—' : quantile(wordAdded[p]!, 0.9),
      'events matched': p === 0 ? '—' : firstAdded[p]!.length + wordAdded[p]!.length,
      'GET /api/locale p50': quantile(firstByte[p]!, 0.5),
      'added p50': p === 0 ? '—' : quantile(firstByte[p]!, 0.5) - direct,
    })),
  );
} finally {
  await proxies.nginx.stop();
  await proxies.caddy.stop();
  await host.close(true);
}

/** The arrival time of every non-heartbeat event on `stream` until `end`, by id. */
async function collect(stream: SseConnection, end: number): Promise<Map<string, number>> {
  const arrivals = new Map<string, number>();
  for (;;) {
    const left = end - performance.now();
    if (left <= 0) return arrivals;
    const event: SseEvent | undefined = await stream.next(left).catch(() => undefined);
    if (event !== undefined && event.event !== 'heartbeat' && event.id !== undefined)
      arrivals.set(event.id, event.at);
  }
}
