import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Action, pairResponseSchema } from '@webbridge/contract';
import type { ActionOrigin } from '@webbridge/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getState, guardOf, postAction, waitFor } from '../support/api';
import { type LocalPushService, startLocalPushService } from '../support/localPushService';
import { startTestHost, type TestHost } from '../support/testHost';

// A push waiting for a retry is dropped when its device is forgotten meanwhile (PushQueue
// asks the job whether it is still wanted before every attempt; the host's answer is whether
// the device still has that subscription). A real host with its SQLite store; the push
// service is a loopback server that answers 503, so the queue retries.

let h: TestHost;
let service: LocalPushService;
const reports: { deviceId: string; kind: string; attempts: number }[] = [];

beforeAll(async () => {
  service = await startLocalPushService();
  h = await startTestHost({
    push: {
      endpointPolicy: { unsafeAllowLoopbackForTests: true },
      retryDelaysMs: [20, 40],
      timeoutMs: 2000,
      onReport: (report) =>
        reports.push({ deviceId: report.deviceId, kind: report.result.kind, attempts: report.attempts }),
    },
  });
});
afterAll(async () => {
  await h?.close(true);
  await service?.close();
});

/** Runs an action as the bridge's dispatcher does, for a device. */
async function asDevice(origin: ActionOrigin, action: Action) {
  const adapter = h.host.adapter;
  await adapter.checkAction?.(action, origin);
  const handlers = adapter.actions as unknown as Record<string, (a: Action, o: ActionOrigin) => unknown>;
  const handler = handlers[action.action];
  if (handler === undefined) throw new Error(`no handler for ${action.action}`);
  return adapter.runOnMain(() => handler(action, origin));
}

it('drops a push waiting for its retry once its device is forgotten: no second attempt, reported as dropped', async () => {
  const paired = await fetch(`${h.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: h.host.bridge.pairingToken('control'), name: 'Phone to forget' }),
  });
  expect(paired.status).toBe(200);
  const { device } = pairResponseSchema.parse(await paired.json());
  const subscriptions = h.host.controller.pushSubscriptions;
  // Keys a browser would send (the local service makes real ones); the endpoint is ours.
  const { keys } = await service.subscribe(h.host.push!.vapid.publicKey);
  let hits = 0;
  const busy = createServer((request, response) => {
    hits++;
    request.resume();
    void (async () => {
      if (hits === 1) {
        // Forgotten while its first attempt is in flight; the 503 then asks for a retry.
        h.host.bridge.devices.forget(device.id);
        await waitFor(() => (subscriptions.of(device.id) === undefined ? true : undefined));
      }
      response.writeHead(503).end();
    })();
  });
  busy.listen(0, '127.0.0.1');
  await once(busy, 'listening');
  try {
    const { port } = busy.address() as AddressInfo;
    await asDevice(
      { device: { id: device.id, name: device.name } },
      {
        action: 'subscribePush',
        subscription: { endpoint: `http://127.0.0.1:${port}/push/forgotten`, keys },
        choices: { approvals: true, replies: false },
      },
    );
    expect(subscriptions.of(device.id)).toBeDefined();

    // An approval is what is pushed.
    const before = await getState(h);
    const sent = await postAction(h, {
      action: 'send',
      text: `/tool write_file ${JSON.stringify({ path: 'forgotten.md', content: 'x' })}`,
      ...guardOf(before),
    });
    expect(sent.status).toBe(200);
    const report = await waitFor(() => reports.find((r) => r.deviceId === device.id));
    expect(report).toEqual({ deviceId: device.id, kind: 'dropped', attempts: 1 });
    // Longer than both retry pauses: nothing more reached the service.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hits).toBe(1);
    expect(reports.filter((r) => r.deviceId === device.id)).toHaveLength(1);
  } finally {
    busy.close();
  }
});
