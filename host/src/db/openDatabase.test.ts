import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/testController';
import { MIGRATIONS } from './migrations';
import { openDatabase } from './openDatabase';

describe('openDatabase', () => {
  it('keeps the data private: a new data dir is 0700, the database and its WAL files 0600', () => {
    const dataDir = path.join(tempDir(), 'private');
    const mode = (file: string) => fs.statSync(file).mode & 0o777;
    const db = openDatabase(dataDir);
    db.prepare(`INSERT INTO kv (key, value) VALUES ('probe', '1')`).run();
    expect(mode(dataDir)).toBe(0o700);
    for (const name of ['webbridge.db', 'webbridge.db-wal', 'webbridge.db-shm']) {
      expect(mode(path.join(dataDir, name))).toBe(0o600);
    }
    db.close();
    // A database an older run left readable is made private again.
    fs.chmodSync(path.join(dataDir, 'webbridge.db'), 0o644);
    openDatabase(dataDir).close();
    expect(mode(path.join(dataDir, 'webbridge.db'))).toBe(0o600);
  });

  it('creates webbridge.db with WAL, foreign keys and the newest schema', () => {
    const dataDir = path.join(tempDir(), 'nested');
    const db = openDatabase(dataDir);
    expect(fs.existsSync(path.join(dataDir, 'webbridge.db'))).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .all()
      .map((row) => (row as { name: string }).name);
    expect(tables).toEqual([
      'approvals',
      'attachments',
      'conversations',
      'devices',
      'kv',
      'messages',
      'projects',
      'push_subscriptions',
      'settings',
    ]);
    db.close();
  });

  it('migrates only once and refuses a database from a newer build', () => {
    const dataDir = tempDir();
    openDatabase(dataDir).close();
    const again = openDatabase(dataDir);
    expect(again.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    again.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    again.close();
    expect(() => openDatabase(dataDir)).toThrow(/newer/);
  });

  it('cascades a conversation delete to its messages, attachments and approvals', () => {
    const db = openDatabase(tempDir());
    db.exec(`
      INSERT INTO projects VALUES ('p', 'P', '/w', 1);
      INSERT INTO conversations (id, project_id, title, created_at, current_leaf_id, model_id)
        VALUES ('c', 'p', '', 1, NULL, NULL);
      INSERT INTO messages (id, conversation_id, parent_id, role, text, status, created_at)
        VALUES ('m1', 'c', NULL, 'user', 'hi', 'complete', 1), ('m2', 'c', 'm1', 'assistant', '', 'waiting', 2);
      INSERT INTO attachments VALUES ('a', 'c', 'm1', 'n', 't', 1, '/x', 1);
      INSERT INTO approvals (id, conversation_id, message_id, tool, args, summary, status, created_at) VALUES ('ap', 'c', 'm2', 'write_file', '{}', 's', 'pending', 2);
    `);
    db.prepare(`DELETE FROM conversations WHERE id = 'c'`).run();
    for (const table of ['messages', 'attachments', 'approvals']) {
      expect(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
    }
    db.close();
  });
});
