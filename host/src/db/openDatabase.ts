import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { migrate } from './migrations';

/** The database file's name inside the data directory. */
const DATABASE_FILE = 'webbridge.db';

/**
 * Opens (creating if needed) `<dataDir>/webbridge.db`, turns on WAL and foreign keys, and
 * migrates it to the newest schema.
 *
 * @example
 * ```ts
 * const db = openDatabase('/home/me/.webbridge');
 * ```
 */
export function openDatabase(dataDir: string): Database {
  // Conversations, uploads and the kept codes live here: no other local user may read them.
  // A folder made here is 0700; the database is 0600 (SQLite gives its -wal and -shm files the
  // database's mode), also when an older run left it readable.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, DATABASE_FILE);
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const name of [file, `${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(name)) fs.chmodSync(name, 0o600);
  }
  const db = new BetterSqlite3(file);
  // WAL lets each turn's group commit (see GroupCommit: the words streamed and the actions
  // applied in one event-loop turn) be one small append without rewriting the main file, and a
  // reader (a backup, a second tool) never blocks the writer.
  db.pragma('journal_mode = WAL');
  // NORMAL under WAL may lose the last commits on power loss but never corrupts; a kill -9
  // of the process loses nothing that was committed. What it can lose is the current turn's
  // writes, not committed yet: none of them was answered (an action is answered after its
  // commit), though a word may have been streamed to browsers already.
  db.pragma('synchronous = NORMAL');
  // Off by default in SQLite; the cascades that clean up a deleted conversation depend on it.
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 2000');
  migrate(db);
  return db;
}
