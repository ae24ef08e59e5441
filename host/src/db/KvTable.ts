import type { Database, Statement } from 'better-sqlite3';
import type { GroupCommit } from './GroupCommit';

/**
 * The `kv` table: the host's small remembered values (the current selection, the session
 * revision, the code binding). Each key holds one value, so only the last one set in a turn is
 * written (`GroupCommit.writeLast`); a read first runs what is held (`beforeRead`).
 */
export class KvTable {
  private readonly group: GroupCommit;
  private readonly select: Statement;
  private readonly put: Statement;
  /**
   * The held-write key of each kv key, built once: a key built per write is a new string that
   * every Map lookup hashes again, which cost more than the rest of holding the write (~60 ns of
   * ~75 a write; docs/PERFORMANCE.md, "Request rate: the applied action again").
   */
  private readonly heldKeys = new Map<string, string>();

  constructor(db: Database, group: GroupCommit) {
    this.group = group;
    this.select = db.prepare('SELECT value FROM kv WHERE key = ?');
    this.put = db.prepare(
      'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
  }

  /** The value of a key (a value set this turn included). */
  get(key: string): string | undefined {
    this.group.beforeRead();
    const row = this.select.get(key) as { value: string } | undefined;
    return row?.value;
  }

  /** Only the last value set for a key in a turn is written (GroupCommit.writeLast). */
  set(key: string, value: string): void {
    let held = this.heldKeys.get(key);
    if (held === undefined) {
      held = `kv\0${key}`;
      this.heldKeys.set(key, held);
    }
    this.group.writeLast(held, () => this.put.run(key, value));
  }
}
