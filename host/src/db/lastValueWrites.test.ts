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
  store.projects.insert({ id: 'p', name: 'P', workspacePath: '/tmp', createdAt: 0 });
  store.conversations.insert({
    id: 'c',
    projectId: 'p',
    title: '',
    createdAt: 0,
    currentLeafId: null,
    modelId: 'a',
    agentId: null,
    agentSessionId: null,
    agentUnavailable: null,
  });
  store.kv.set('model', 'a');
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
      store.kv.set('model', model);
      store.conversations.setModel('c', model);
    }
    expect(updates()).toBe(0);
    await store.whenCommitted();
    expect(updates()).toBe(2);
    expect(committedModel(reader)).toEqual({ kv: 'a', conversation: 'a' });
  });

  it('are read back at once by the store itself', () => {
    const { store } = setUp();
    store.kv.set('model', 'b');
    store.conversations.setModel('c', 'b');
    expect(store.kv.get('model')).toBe('b');
    expect(store.conversations.get('c')?.modelId).toBe('b');
    expect(store.conversations.all().find((row) => row.id === 'c')?.modelId).toBe('b');
    expect(store.conversations.latestOf('p')?.modelId).toBe('b');
  });

  it('run before any other write, in the order things happened', async () => {
    const { store, reader } = setUp();
    store.conversations.setModel('c', 'b');
    // Were the held UPDATE run after this DELETE, it would find no row: same result. Run
    // before it, the row is gone with its model; and a write after the delete stays held.
    store.conversations.delete('c');
    store.kv.set('model', 'b');
    await store.whenCommitted();
    expect(committedModel(reader)).toEqual({ kv: 'b', conversation: undefined });
  });

  it('inside a transaction run at once, so its rollback undoes them', async () => {
    const { store, reader, updates } = setUp();
    expect(() =>
      store.transaction(() => {
        store.kv.set('model', 'b');
        expect(updates()).toBe(1);
        throw new Error('the task failed');
      }),
    ).toThrow('the task failed');
    expect(store.kv.get('model')).toBe('a');
    await store.whenCommitted();
    expect(committedModel(reader)).toEqual({ kv: 'a', conversation: 'a' });
  });

  it('are dropped with a turn whose commit fails, and not written by the next turn', async () => {
    const { store, reader } = setUp();
    store.kv.set('model', 'b');
    breakThisTurnsCommit(store);
    await expect(store.whenCommitted()).rejects.toThrow(/FOREIGN KEY/);
    store.settings.set('theme', 'dark');
    await store.whenCommitted();
    expect(committedModel(reader)).toEqual({ kv: 'a', conversation: 'a' });
    expect(store.kv.get('model')).toBe('a');
  });

  it('are dropped with a turn SQLite rolled back itself (a full disk), also when held after it', async () => {
    const { store, reader } = setUp();
    const pages = store.db.pragma('page_count', { simple: true }) as number;
    store.db.pragma(`max_page_count = ${pages + 2}`);
    expect(() => store.settings.set('big', 'x'.repeat(100_000))).toThrow(/full/);
    // Held in the turn SQLite has already rolled back: it must go with it.
    store.kv.set('model', 'b');
    await expect(store.whenCommitted()).rejects.toThrow(/rolled the turn back/);
    store.db.pragma(`max_page_count = ${pages + 100}`);
    store.settings.set('theme', 'dark');
    await store.whenCommitted();
    expect(committedModel(reader)).toEqual({ kv: 'a', conversation: 'a' });
  });
});
