import type { Database, Statement } from 'better-sqlite3';
import type { GroupCommit } from './GroupCommit';

/**
 * The `settings` table: each persisted setting as JSON under its name. Which settings persist,
 * and how a stored value is checked, is the controller's (`controller/settings.ts`).
 */
export class SettingsTable {
  private readonly group: GroupCommit;
  private readonly all: Statement;
  private readonly put: Statement;

  constructor(db: Database, group: GroupCommit) {
    this.group = group;
    this.all = db.prepare('SELECT key, value FROM settings');
    this.put = db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
  }

  /** Every stored setting, parsed from JSON. */
  read(): Map<string, unknown> {
    const rows = this.all.all() as { key: string; value: string }[];
    return new Map(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
  }

  /** Stores a setting as JSON. */
  set(key: string, value: unknown): void {
    this.group.beforeWrite();
    this.put.run(key, JSON.stringify(value));
  }
}
