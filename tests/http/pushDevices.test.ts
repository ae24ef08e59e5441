import { pushPayloadSchema } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState, guardOf, postAction, waitFor } from '../support/api';
import { type LocalPushService, startLocalPushService } from '../support/localPushService';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

// Push with real paired devices: each pairs with the access code (POST /api/pair) and then
// acts with its own device credential, as the page does.

let h: TestHost;
let service: LocalPushService;

beforeAll(async () => {
  service = await startLocalPushService();
  h = await startTestHost({
    push: { endpointPolicy: { unsafeAllowLoopbackForTests: true }, retryDelaysMs: [] },
  });
});
afterAll(async () => {
  await h?.close(true);
  await service?.close();
});

async function pair(name: string): Promise<{ id: string; auth: Record<string, string> }> {
  const response = await fetch(`${h.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code: TEST_CODE, name }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { credential: string; device: { id: string } };
  return {
    id: body.device.id,
    auth: { Authorization: `Bearer ${body.credential}`, 'Content-Type': 'application/json' },
  };
}

function actAs(auth: Record<string, string>, action: Record<string, unknown>): Promise<Response> {
  return fetch(`${h.url}/api/action`, { method: 'POST', headers: auth, body: JSON.stringify(action) });
}

describe('push for paired devices over HTTP', () => {
  it('subscribes a device, pushes it an approval it answers by token as itself, and drops it when forgotten', async () => {
    const phone = await pair('Pixel 7');
    const status = await actAs(phone.auth, { action: 'pushStatus' });
    const { result } = (await status.json()) as { result: { publicKey: string; paired: boolean } };
    expect(result.paired).toBe(true);
    const subscription = await service.subscribe(result.publicKey);
    const subscribed = await actAs(phone.auth, {
      action: 'subscribePush',
      subscription: { endpoint: subscription.endpoint, keys: subscription.keys },
      choices: { approvals: true, replies: true },
    });
    expect(subscribed.status).toBe(200);
    expect(h.host.controller.pushSubscriptions.of(phone.id)?.deviceName).toBe('Pixel 7');

    const state = await getState(h);
    await postAction(h, {
      action: 'send',
      text: '/tool write_file {"path":"p.txt","content":"x"}',
      ...guardOf(state),
    });
    const [raw] = await waitFor(async () => {
      const messages = await service.messages(subscription);
      return messages.length > 0 ? messages : undefined;
    });
    const payload = pushPayloadSchema.parse(JSON.parse(raw!));
    if (payload.kind !== 'approval') throw new Error(`pushed ${payload.kind}`);
    expect(raw).not.toContain(TEST_CODE);
    expect(raw).not.toContain(phone.auth.Authorization!.slice('Bearer '.length));

    const decided = await fetch(`${h.url}/api/push/decide`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: payload.token, decision: 'allow' }),
    });
    expect(decided.status).toBe(200);
    const after = await getState(h);
    expect(after.conversations.messages.find((m) => m.role === 'tool')?.tool?.decided?.by).toEqual({
      kind: 'device',
      name: 'Pixel 7',
    });

    // Forgotten (here by the access code's holder), the device's subscription goes with it.
    const forgot = await fetch(`${h.url}/api/devices/forget`, {
      method: 'POST',
      headers: h.auth(),
      body: JSON.stringify({ deviceId: phone.id }),
    });
    expect(forgot.status).toBe(200);
    await waitFor(() => (h.host.controller.pushSubscriptions.of(phone.id) === undefined ? true : undefined));
  });

  it('records an Allow from a paired page as that device', async () => {
    const tablet = await pair('iPad');
    const state = await getState(h);
    await postAction(h, {
      action: 'send',
      text: '/tool write_file {"path":"t.txt","content":"x"}',
      ...guardOf(state),
    });
    const approvalId = await waitFor(async () => (await getState(h)).approvals[0]?.id);
    const answered = await actAs(tablet.auth, { action: 'approve', approvalId, decision: 'deny' });
    expect(answered.status).toBe(200);
    const late = await actAs(h.auth(), { action: 'approve', approvalId, decision: 'allow' });
    expect(late.status).toBe(422);
    expect(((await late.json()) as { detail: string }).detail).toBe(
      'That approval was already denied on iPad.',
    );
  });
});
