import type { PushChoices } from '@webbridge/contract';
import type { Database } from 'better-sqlite3';
import type { GroupCommit } from './GroupCommit';

/**
 * A paired device's push subscription as the host keeps it: where to push (the browser's
 * endpoint and keys, as `PushSubscriptionJson` carries them), what the device wants to be told
 * (the contract's {@link PushChoices}), and the device's name when it subscribed (an answer
 * from its notification is shown under it).
 */
export type StoredPushSubscription = PushChoices & {
  readonly deviceId: string;
  readonly deviceName: string;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  readonly createdAt: number;
};

/** A row of `push_subscriptions` as SQLite holds it. Nothing outside this file sees it. */
interface PushSubscriptionRow {
  readonly device_id: string;
  readonly device_name: string;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  readonly approvals: 0 | 1;
  readonly replies: 0 | 1;
  readonly created_at: number;
}

/**
 * The `push_subscriptions` table: one subscription per paired device. Every method runs on the
 * main executor, like the controller's groups; writes join the turn's group commit.
 */
export class PushSubscriptionTable {
  private readonly group: GroupCommit;
  private readonly s: ReturnType<typeof prepare>;

  constructor(db: Database, group: GroupCommit) {
    this.group = group;
    this.s = prepare(db);
  }

  /** Every subscription, oldest first. */
  all(): StoredPushSubscription[] {
    return (this.s.all.all() as PushSubscriptionRow[]).map(fromRow);
  }

  /** A device's subscription, if it has one. */
  of(deviceId: string): StoredPushSubscription | undefined {
    const row = this.s.of.get(deviceId) as PushSubscriptionRow | undefined;
    return row && fromRow(row);
  }

  /** Adds or replaces a device's subscription (one per device; a replaced one keeps its time). */
  put(subscription: StoredPushSubscription): void {
    this.group.beforeWrite();
    this.s.put.run({
      device_id: subscription.deviceId,
      device_name: subscription.deviceName,
      endpoint: subscription.endpoint,
      p256dh: subscription.p256dh,
      auth: subscription.auth,
      approvals: subscription.approvals ? 1 : 0,
      replies: subscription.replies ? 1 : 0,
      created_at: subscription.createdAt,
    } satisfies PushSubscriptionRow);
  }

  /**
   * Removes a device's subscription. With `endpoint`, only while it is still that one: a push
   * service's "gone" for an old endpoint must not remove the subscription that replaced it.
   */
  remove(deviceId: string, endpoint?: string): void {
    this.group.beforeWrite();
    if (endpoint === undefined) this.s.remove.run(deviceId);
    else this.s.removeAt.run(deviceId, endpoint);
  }
}

function fromRow(row: PushSubscriptionRow): StoredPushSubscription {
  return {
    deviceId: row.device_id,
    deviceName: row.device_name,
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    approvals: row.approvals === 1,
    replies: row.replies === 1,
    createdAt: row.created_at,
  };
}

function prepare(db: Database) {
  return {
    all: db.prepare('SELECT * FROM push_subscriptions ORDER BY created_at, rowid'),
    of: db.prepare('SELECT * FROM push_subscriptions WHERE device_id = ?'),
    put: db.prepare(
      `INSERT INTO push_subscriptions (device_id, device_name, endpoint, p256dh, auth, approvals, replies, created_at)
       VALUES (@device_id, @device_name, @endpoint, @p256dh, @auth, @approvals, @replies, @created_at)
       ON CONFLICT(device_id) DO UPDATE SET device_name = excluded.device_name, endpoint = excluded.endpoint, p256dh = excluded.p256dh,
         auth = excluded.auth, approvals = excluded.approvals, replies = excluded.replies`,
    ),
    remove: db.prepare('DELETE FROM push_subscriptions WHERE device_id = ?'),
    removeAt: db.prepare('DELETE FROM push_subscriptions WHERE device_id = ? AND endpoint = ?'),
  };
}
