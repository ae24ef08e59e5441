import type { HostStore, PushSubscriptionRow } from '../db/HostStore';

/**
 * The devices' push subscriptions, one per paired device, kept in SQLite. Every method runs on
 * the main executor, like the controller's other groups (writes are group-committed).
 */
export class PushSubscriptions {
  private readonly store: HostStore;

  constructor(store: HostStore) {
    this.store = store;
  }

  /** Every subscription, oldest first. */
  all(): PushSubscriptionRow[] {
    return this.store.pushSubscriptions();
  }

  /** A device's subscription, if it has one. */
  of(deviceId: string): PushSubscriptionRow | undefined {
    return this.store.pushSubscription(deviceId);
  }

  /** Adds or replaces a device's subscription. */
  put(row: PushSubscriptionRow): void {
    this.store.putPushSubscription(row);
  }

  /**
   * Removes a device's subscription. With `endpoint`, only while it is still that one: a push
   * service's "gone" for an old endpoint must not remove the subscription that replaced it.
   */
  remove(deviceId: string, endpoint?: string): void {
    this.store.deletePushSubscription(deviceId, endpoint);
  }
}
