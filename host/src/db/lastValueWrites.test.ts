import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { breakThisTurnsCommit } from '../testing/failingCommit';
import { tempDir } from '../testing/testController';
import { HostStore } from './HostStore';
import { openDatabase } from './openDatabase';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const close of cleanup.splice(0)) close();
});

/**
 * A store on a fresh file with one conversation, a second connection on the same file, and a
 * count of the UPDATEs SQLite really ran on `kv` and on conversations' model (by trigger).
 */
function setUp(): { store: HostStore; reader: Database; updates: () => number } {
  const dataDir = tempDir();
  const store = new HostStore(openDatabase(dataDir));
  store.insertProject({ id: 'p', name: 'P', workspace_path: '/tmp', created_at: 0 });
  store.insertConversation({
    id: 'c',
    project_id: 'p',
    title: '',
    created_at: 0,
    current_leaf_id: null,
    model_id: 'a',
  });
  store.setKv('model', 'a');
  store.commitNow();
  store.db.exec(`
    CREATE TEMP TABLE updates (n INTEGER NOT NULL);
    INSERT INTO updates VALUES (0);
    CREATE TEMP TRIGGER kv_updated AFTER UPDATE ON main.kv BEGIN UPDATE updates SET n = n + 1; END;
    CREATE TEMP TRIGGER model_updated AFTER UPDATE OF model_id ON main.conversations
      BEGIN UPDATE updates SET n = n + 1; END;
  `);
  const reader = new BetterSqlite3(path.join(dataDir, 'webbridge.db'), { readonly: true });
  cleanup.push(
    () => store.close(),
    () => reader.close(),
  );
  const count = store.db.prepare('SELECT n FROM updates');
  return { store, reader, updates: () => count.pluck().get() as number };
}

const committedModel = (reader: Database) => ({
  kv: reader.prepare(`SELECT value FROM kv WHERE key = 'model'`).pluck().get(),
  conversation: reader.prepare(`SELECT model_id FROM conversations WHERE id = 'c'`).pluck().get(),
});

describe('writes of which only the last value counts (setKv, setConversationModel)', () => {
  it('are written once per turn, with the last value, before the commit', async () => {
    const { store, reader, updates } = setUp();
    for (let i = 0; i < 30; i++) {
      const model = i % 2 === 0 ? 'b' : 'a';
      store.setKv('model', model);
      store.setConversationModel('c', model);
    }
    expect(updates()).toBe(0);
    await store.whenCommitted();
    expect(updates()).toBe(2);
    expect(committedModel(reader)).toEqual({ kv: 'a', conversation: 'a' });
  });

  it('are read back at once by the store itself', () => {
    const { store } = setUp();
    store.setKv('model', 'b');
    store.setConversationModel('c', 'b');
    expect(store.kv('model')).toBe('b');
    expect(store.conversation('c')?.model_id).toBe('b');
    expect(store.conversations().find((row) => row.id === 'c')?.model_id).toBe('b');
    expect(store.latestConversation('p')?.model_id).toBe('b');
  });

  it('run before any other write, in the order things happened', async () => {
    const { store, reader } = setUp();
    store.setConversationModel('c', 'b');
    // Were the held UPDATE run after this DELETE, it would find no row: same result. Run
    // before it, the row is gone with its model; and a write after the delete stays held.
    store.deleteConversation('c');
    store.setKv('model', 'b');
    await store.whenCommitted();
    expect(committedModel(reader)).toEqual({ kv: 'b', conversation: undefined });
  });

  it('inside a transaction run at once, so its rollback undoes them', async () => {
    const { store, reader, updates } = setUp();
    expect(() =>
      store.transaction(() => {
        store.setKv('model', 'b');
        expect(updates()).toBe(1);
        throw new Error('the task failed');
      }),
    ).toThrow('the task failed');
    expect(store.kv('model')).toBe('a');
    await store.whenCommitted();
    expect(committedModel(reader)).toEqual({ kv: 'a', conversation: 'a' });
  });

  it('are dropped with a turn whose commit fails, and not written by the next turn', async () => {
    const { store, reader } = setUp();
    store.setKv('model', 'b');
    breakThisTurnsCommit(store);
    await expect(store.whenCommitted()).rejects.toThrow(/FOREIGN KEY/);
    store.setSetting('theme', 'dark');
    await store.whenCommitted();
    expect(committedModel(reader)).toEqual({ kv: 'a', conversation: 'a' });
    expect(store.kv('model')).toBe('a');
  });

  it('are dropped with a turn SQLite rolled back itself (a full disk), also when held after it', async () => {
    const { store, reader } = setUp();
    const pages = store.db.pragma('page_count', { simple: true }) as number;
    store.db.pragma(`max_page_count = ${pages + 2}`);
    expect(() => store.setSetting('big', 'x'.repeat(100_000))).toThrow(/full/);
    // Held in the turn SQLite has already rolled back: it must go with it.
    store.setKv('model', 'b');
    await expect(store.whenCommitted()).rejects.toThrow(/rolled the turn back/);
    store.db.pragma(`max_page_count = ${pages + 100}`);
    store.setSetting('theme', 'dark');
    await store.whenCommitted();
    expect(committedModel(reader)).toEqual({ kv: 'a', conversation: 'a' });
  });
});
