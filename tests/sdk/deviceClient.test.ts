import { BridgeClientError, createBridgeClient, createDeviceClient } from '@webbridge/client-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

// The SDK's device client against a real host: pairing by link and by code, the credential
// used by the bridge client, listing and forgetting, and the refusals as BridgeClientErrors.

let h: TestHost;
beforeEach(async () => {
  h = await startTestHost();
});
afterEach(() => h.close(true));

const refusal = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    if (error instanceof BridgeClientError) return `${error.status} ${error.code}`;
    throw error;
  }
  return 'no refusal';
};

describe('createDeviceClient', () => {
  it('pairs, connects with the credential, lists, forgets, and names each refusal', async () => {
    const devices = createDeviceClient({ baseUrl: h.url });
    const token = h.host.bridge.pairingToken('control');
    const phone = await devices.pair({ token, name: 'SDK phone' });
    expect(await refusal(() => devices.pair({ token, name: 'again' }))).toBe('401 pairing_token_spent');
    expect(await refusal(() => devices.pair({ code: 'not-the-code', name: 'x' }))).toBe('401 unauthorized');

    const client = createBridgeClient({ baseUrl: h.url, accessCode: phone.credential });
    await client.fetchState();
    expect(client.access).toBe('control');

    const laptop = await devices.pair({ code: TEST_CODE, name: 'SDK laptop' });
    const listed = await devices.list(laptop.credential);
    expect(listed.current).toBe(laptop.device.id);
    expect(listed.devices.map((d) => d.name)).toEqual(['SDK phone', 'SDK laptop']);
    await devices.forget(laptop.credential, phone.device.id);
    expect(await refusal(() => client.fetchState())).toBe('401 unauthorized');
    expect(await refusal(() => devices.forget(laptop.credential, phone.device.id))).toBe('404 not_found');
  });
});
