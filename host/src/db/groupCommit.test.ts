import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MainExecutor } from '../executor/MainExecutor';
import { breakThisTurnsCommit } from '../testing/failingCommit';
import { tempDir } from '../testing/testController';
import { HostStore } from './HostStore';
import { openDatabase } from './openDatabase';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const close of cleanup.splice(0)) close();
});

/** A store on a fresh file, and a second connection on the same file (another reader). */
function storeAndReader(): { store: HostStore; reader: Database; errors: unknown[] } {
  const dataDir = tempDir();
  const errors: unknown[] = [];
  const store = new HostStore(openDatabase(dataDir), { onCommitError: (error) => errors.push(error) });
  const reader = new BetterSqlite3(path.join(dataDir, 'webbridge.db'), { readonly: true });
  cleanup.push(
    () => store.close(),
    () => reader.close(),
  );
  return { store, reader, errors };
}

const kvOf = (reader: Database) =>
  Object.fromEntries(
    (
      reader.prepare(`SELECT key, value FROM kv WHERE key LIKE 't%' ORDER BY key`).all() as {
        key: string;
        value: string;
      }[]
    ).map((row) => [row.key, row.value]),
  );

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('commits every write of one event-loop turn at once, at the end of the turn', async () => {
    const { store, reader } = storeAndReader();
    for (let i = 0; i < 20; i++) store.kv.set(`t${String(i).padStart(2, '0')}`, String(i));
    store.transaction(() => store.kv.set('t20', 'in a transaction'));
    // The writing connection reads its own writes; another connection sees none of them yet.
    expect(store.kv.get('t19')).toBe('19');
    expect(kvOf(reader)).toEqual({});
    await store.whenCommitted();
    expect(Object.keys(kvOf(reader))).toHaveLength(21);
    expect(kvOf(reader).t20).toBe('in a transaction');
  });

  it('answers whenCommitted at the end of the turn also when nothing was written', async () => {
    const { store } = storeAndReader();
    let settled = false;
    void store.whenCommitted().then(() => {
      settled = true;
    });
    // Not within the turn (an answer decided now leaves with the turn's others)...
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(false);
    // ...but at its end, with nothing to commit.
    await nextTurn();
    expect(settled).toBe(true);
  });

  it('still commits writes made after a turn that only waited began', async () => {
    const { store, reader } = storeAndReader();
    const answered = store.whenCommitted();
    store.kv.set('t1', 'written after the first wait');
    expect(kvOf(reader)).toEqual({});
    await answered;
    expect(kvOf(reader)).toEqual({ t1: 'written after the first wait' });
  });

  it('rolls back only the writes of a transaction that throws; the rest of the turn commits', async () => {
    const { store, reader } = storeAndReader();
    const executor = new MainExecutor();
    // First in the turn: the transaction opens the turn itself, and a throw rolls it back.
    const failingFirst = executor.run(() =>
      store.transaction(() => {
        store.kv.set('t0', 'rolled back');
        throw new Error('the first task fails');
      }),
    );
    const sibling = executor.run(() => store.transaction(() => store.kv.set('t1', 'sibling')));
    const failing = executor.run(() =>
      store.transaction(() => {
        store.kv.set('t2', 'rolled back');
        throw new Error('the task fails');
      }),
    );
    const after = executor.run(() => store.kv.set('t3', 'after'));
    await expect(failingFirst).rejects.toThrow('the first task fails');
    await expect(failing).rejects.toThrow('the task fails');
    await Promise.all([sibling, after, store.whenCommitted()]);
    expect(kvOf(reader)).toEqual({ t1: 'sibling', t3: 'after' });
  });

  it('rejects everyone waiting for a commit that fails, and keeps none of the turn', async () => {
    const { store, reader, errors } = storeAndReader();
    store.kv.set('t1', 'innocent');
    const first = store.whenCommitted();
    breakThisTurnsCommit(store);
    const second = store.whenCommitted();
    await expect(first).rejects.toThrow(/FOREIGN KEY/);
    await expect(second).rejects.toThrow(/FOREIGN KEY/);
    expect(store.db.inTransaction).toBe(false);
    expect(kvOf(reader)).toEqual({});
    // Someone waited: the error went to them, not to the store's own report.
    expect(errors).toEqual([]);
    // The next turn starts afresh.
    store.kv.set('t2', 'later');
    await store.whenCommitted();
    expect(kvOf(reader)).toEqual({ t2: 'later' });
  });

  it('refuses every task of a turn that SQLite rolled back itself (a full disk), and keeps none of it', async () => {
    const { store, reader } = storeAndReader();
    const pages = store.db.pragma('page_count', { simple: true }) as number;
    // A disk that is full two pages from now: a large write fails with SQLITE_FULL, which
    // ends the whole transaction, not just the statement.
    store.db.pragma(`max_page_count = ${pages + 2}`);
    const executor = new MainExecutor();
    const committed = <T>(task: () => T) =>
      executor.run(() => ({ value: task(), done: store.whenCommitted() })).then(({ done }) => done);
    const before = committed(() => store.kv.set('t1', 'before'));
    // Not setKv: its write waits for the commit (writeLast); this one fails where it is made.
    const full = committed(() => store.settings.set('t2', 'x'.repeat(100_000)));
    const after = committed(() => store.kv.set('t3', 'after'));
    await expect(full).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    // 'before' was rolled back with the turn: answering it would be a lie.
    await expect(before).rejects.toThrow(/rolled the turn back/);
    // 'after' ran in a new transaction of the same turn, which rolls back whole too.
    await expect(after).rejects.toThrow(/rolled the turn back/);
    expect(store.db.inTransaction).toBe(false);
    expect(kvOf(reader)).toEqual({});
    store.kv.set('t4', 'next turn');
    await store.whenCommitted();
    expect(kvOf(reader)).toEqual({ t4: 'next turn' });
  });

  it('reports a failed commit nobody waits for (a streamed word) through onCommitError', async () => {
    const { store, errors } = storeAndReader();
    store.kv.set('t1', 'x');
    breakThisTurnsCommit(store);
    await nextTurn();
    await nextTurn();
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/FOREIGN KEY/);
  });

  it('commits what is pending when closed, and commitNow commits at once', () => {
    const dataDir = tempDir();
    const store = new HostStore(openDatabase(dataDir));
    store.kv.set('t1', 'now');
    const reader = new BetterSqlite3(path.join(dataDir, 'webbridge.db'), { readonly: true });
    cleanup.push(() => reader.close());
    expect(kvOf(reader)).toEqual({});
    store.commitNow();
    expect(kvOf(reader)).toEqual({ t1: 'now' });
    store.kv.set('t2', 'on close');
    store.close();
    expect(kvOf(reader)).toEqual({ t1: 'now', t2: 'on close' });
  });
});
