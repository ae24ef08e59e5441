import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/testController';
import { HostStore } from './HostStore';
import { openDatabase } from './openDatabase';
import type { StoredPushSubscription } from './PushSubscriptionTable';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const close of cleanup.splice(0)) close();
});

function table() {
  const store = new HostStore(openDatabase(tempDir()));
  cleanup.push(() => store.close());
  return store.pushSubscriptions;
}

const subscription = (
  endpoint: string,
  extra: Partial<StoredPushSubscription> = {},
): StoredPushSubscription => ({
  deviceId: 'd1',
  deviceName: 'Pixel 7',
  endpoint,
  p256dh: 'key',
  auth: 'secret',
  approvals: true,
  replies: false,
  createdAt: 1,
  ...extra,
});

describe('PushSubscriptionTable', () => {
  it("keeps one subscription per device, its choices as the contract's booleans", () => {
    const subscriptions = table();
    subscriptions.put(subscription('https://push.example/1'));
    expect(subscriptions.of('d1')).toEqual(subscription('https://push.example/1'));
    subscriptions.put(
      subscription('https://push.example/2', { approvals: false, replies: true, createdAt: 2 }),
    );
    // Replaced in place: the device keeps its first time, and its place in `all`.
    expect(subscriptions.all()).toEqual([
      subscription('https://push.example/2', { approvals: false, replies: true, createdAt: 1 }),
    ]);
  });

  it('removes a subscription for a gone endpoint only while it is still that one', () => {
    const subscriptions = table();
    subscriptions.put(subscription('https://push.example/new'));
    subscriptions.remove('d1', 'https://push.example/old');
    expect(subscriptions.of('d1')?.endpoint).toBe('https://push.example/new');
    subscriptions.remove('d1');
    expect(subscriptions.of('d1')).toBeUndefined();
  });
});
