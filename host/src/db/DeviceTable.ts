import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { DeviceStore, StoredDevice } from '@webbridge/server';
import type { Statement } from 'better-sqlite3';
import { bindingKey } from './bindingKey';
import type { HostStore } from './HostStore';

/** A row of `devices`. */
interface DeviceRow {
  readonly id: string;
  readonly name: string;
  readonly role: 'control' | 'view';
  readonly secret_hash: string;
  readonly first_seen: number;
  readonly last_seen: number;
}

/** The kv key of what the devices were paired under (digests of the codes, never the codes). */
const CODE_BINDING_KEY = 'devices.pairedUnder';

/** The file, beside the database, of the key the binding's digests are made with. */
const BINDING_KEY_FILE = 'device-binding.key';

/**
 * The bridge's paired devices in the host's SQLite file (table `devices`), so phones stay paired
 * across restarts. Only the hash of each credential's secret is stored. Writes join the store's
 * group commit of the current turn (`HostStore.transaction`), like every other write. The code
 * binding's key lives in `device-binding.key` beside the database file, never in it.
 */
export class DeviceTable implements DeviceStore {
  private readonly all: Statement;
  private readonly insertRow: Statement;
  private readonly touchRow: Statement;
  private readonly removeRow: Statement;
  private key: Buffer | undefined;

  constructor(private readonly store: HostStore) {
    const { db } = store;
    this.all = db.prepare('SELECT * FROM devices ORDER BY first_seen, rowid');
    this.insertRow = db.prepare(
      'INSERT INTO devices (id, name, role, secret_hash, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.touchRow = db.prepare('UPDATE devices SET last_seen = ? WHERE id = ?');
    this.removeRow = db.prepare('DELETE FROM devices WHERE id = ?');
  }

  load(): StoredDevice[] {
    return (this.all.all() as DeviceRow[]).map((row) => ({
      id: row.id,
      name: row.name,
      role: row.role,
      secretHash: row.secret_hash,
      firstSeen: row.first_seen,
      lastSeen: row.last_seen,
    }));
  }

  insert(device: StoredDevice): void {
    const { id, name, role, secretHash, firstSeen, lastSeen } = device;
    this.store.transaction(() => this.insertRow.run(id, name, role, secretHash, firstSeen, lastSeen));
  }

  touch(id: string, lastSeen: number): void {
    this.store.transaction(() => this.touchRow.run(lastSeen, id));
  }

  remove(ids: readonly string[]): void {
    this.store.transaction(() => {
      for (const id of ids) this.removeRow.run(id);
    });
  }

  codeBinding(): string | undefined {
    return this.store.kv.get(CODE_BINDING_KEY);
  }

  setCodeBinding(binding: string): void {
    this.store.transaction(() => this.store.kv.set(CODE_BINDING_KEY, binding));
  }

  codeBindingKey(): Uint8Array {
    if (this.key === undefined) {
      const { db } = this.store;
      // A database in memory is gone with its binding: a key of this run is enough.
      this.key = db.memory ? randomBytes(32) : bindingKey(path.join(path.dirname(db.name), BINDING_KEY_FILE));
    }
    return this.key;
  }
}
