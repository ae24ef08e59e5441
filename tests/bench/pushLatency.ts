/**
 * How soon an approval's push leaves the host, and whether pushing ever holds up the host.
 * A reference host in this process pushes to a local push service (web-push-testing, behind a
 * relay that notes when each push's first byte arrives); for each of 40 approvals, the time
 * from the approval's creation (its `createdAt`) to that first byte. Then the same while 5
 * devices' push services swallow every connection and never answer: the round trip of the
 * `send` that creates each approval, against the same with no device subscribed.
 * Run: node --import tsx tests/bench/pushLatency.ts   (target: p95 ≤ 200 ms)
 */

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Snapshot } from '@webbridge/contract';
import { startLocalPushService } from '../support/localPushService';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { printTable, quantile } from './table';

const APPROVALS = 40;

/** A TCP relay to `target` noting the arrival time of each connection's first byte. */
async function arrivalRelay(target: number) {
  const arrivals: number[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    let first = true;
    client.on('data', (chunk) => {
      if (first) {
        arrivals.push(Date.now());
        first = false;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    for (const socket of [client, upstream]) socket.on('error', () => undefined);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, arrivals, close: () => server.close() };
}

/** A "push service" that accepts connections and never answers. */
async function blackHole() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

async function state(h: TestHost): Promise<Snapshot> {
  return (await (await fetch(`${h.url}/api/state`, { headers: h.auth() })).json()) as Snapshot;
}

async function pairAndSubscribe(
  h: TestHost,
  name: string,
  subscription: { endpoint: string; keys: unknown },
) {
  const paired = await fetch(`${h.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code: TEST_CODE, name }),
  });
  const { credential } = (await paired.json()) as { credential: string };
  const response = await fetch(`${h.url}/api/action`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      action: 'subscribePush',
      subscription,
      choices: { approvals: true, replies: false },
    }),
  });
  if (response.status !== 200) throw new Error(`subscribe: ${response.status} ${await response.text()}`);
}

/** Creates one approval (a tool call) and denies it; returns its createdAt and the send's round trip. */
async function oneApproval(h: TestHost, i: number): Promise<{ createdAt: number; sendMs: number }> {
  const s = await state(h);
  const started = performance.now();
  const sent = await fetch(`${h.url}/api/action`, {
    method: 'POST',
    headers: h.auth(),
    body: JSON.stringify({
      action: 'send',
      text: `/tool write_file {"path":"bench-${i}.md","content":"x"}`,
      sessionRevision: s.sessionRevision,
      conversationId: s.conversationId,
      projectId: s.projectId,
    }),
  });
  const sendMs = performance.now() - started;
  if (sent.status !== 200) throw new Error(`send: ${sent.status}`);
  let approval: Snapshot['approvals'][number] | undefined;
  while (approval === undefined) {
    approval = (await state(h)).approvals[0];
    if (approval === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await fetch(`${h.url}/api/action`, {
    method: 'POST',
    headers: h.auth(),
    body: JSON.stringify({ action: 'approve', approvalId: approval.id, decision: 'deny' }),
  });
  return { createdAt: approval.createdAt, sendMs };
}

const rows: Record<string, string | number>[] = [];

// 1. Time to the push service, one device and five.
for (const devices of [1, 5]) {
  const service = await startLocalPushService();
  const relay = await arrivalRelay(Number(new URL(service.url).port));
  const h = await startTestHost({
    echoDelayMs: 0,
    push: { endpointPolicy: { unsafeAllowLoopbackForTests: true } },
  });
  for (let d = 0; d < devices; d++) {
    const subscription = await service.subscribe(h.host.push!.vapid.publicKey);
    const endpoint = subscription.endpoint.replace(service.url, `http://127.0.0.1:${relay.port}`);
    await pairAndSubscribe(h, `phone ${d}`, { endpoint, keys: subscription.keys });
  }
  const latencies: number[] = [];
  for (let i = 0; i < APPROVALS; i++) {
    const before = relay.arrivals.length;
    const { createdAt } = await oneApproval(h, i);
    // The approval's pushes are the first `devices` connections after it was made; the denial's follow.
    while (relay.arrivals.length < before + devices) await new Promise((resolve) => setTimeout(resolve, 1));
    const last = relay.arrivals.slice(before, before + devices).at(-1)!;
    latencies.push(last - createdAt);
    // Let the "answered" pushes of the denial go out before the next approval.
    while (relay.arrivals.length < before + 2 * devices)
      await new Promise((resolve) => setTimeout(resolve, 1));
  }
  rows.push({
    case: `${devices} device${devices === 1 ? '' : 's'}: approval created → push at the push service (last device)`,
    n: APPROVALS,
    'p50 ms': quantile(latencies, 0.5),
    'p95 ms': quantile(latencies, 0.95),
    'max ms': Math.max(...latencies),
  });
  await h.close(true);
  relay.close();
  await service.close();
}

// 2. Pushes that never get an answer do not slow the host: the send's round trip.
for (const stuck of [0, 5]) {
  const hole = await blackHole();
  const h = await startTestHost({
    echoDelayMs: 0,
    push: { endpointPolicy: { unsafeAllowLoopbackForTests: true }, timeoutMs: 60_000 },
  });
  const service = await startLocalPushService();
  for (let d = 0; d < stuck; d++) {
    const subscription = await service.subscribe(h.host.push!.vapid.publicKey);
    await pairAndSubscribe(h, `stuck ${d}`, {
      endpoint: `http://127.0.0.1:${hole.port}/push/${d}`,
      keys: subscription.keys,
    });
  }
  const sends: number[] = [];
  for (let i = 0; i < APPROVALS; i++) sends.push((await oneApproval(h, i)).sendMs);
  rows.push({
    case: `send that creates an approval, ${stuck} push services never answering`,
    n: APPROVALS,
    'p50 ms': quantile(sends, 0.5),
    'p95 ms': quantile(sends, 0.95),
    'max ms': Math.max(...sends),
  });
  await h.close(true);
  await service.close();
  hole.close();
}

printTable('Push: an approval leaves the host (loopback, Node, 2 shared cores)', rows);
process.exit(0);
