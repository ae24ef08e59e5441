import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/testController';
import { HostStore } from './HostStore';
import { openDatabase } from './openDatabase';
import type { StoredMessage } from './StoredMessage';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const close of cleanup.splice(0)) close();
});

/** A store with one conversation `c`, and a second connection on the same file. */
function setUp() {
  const dataDir = tempDir();
  const store = new HostStore(openDatabase(dataDir));
  const reader = new BetterSqlite3(path.join(dataDir, 'webbridge.db'), { readonly: true });
  cleanup.push(
    () => store.close(),
    () => reader.close(),
  );
  store.projects.insert({ id: 'p', name: 'P', workspacePath: '/tmp', createdAt: 0 });
  store.conversations.insert({
    id: 'c',
    projectId: 'p',
    title: '',
    createdAt: 0,
    currentLeafId: null,
    modelId: null,
    agentId: null,
    agentSessionId: null,
    agentUnavailable: null,
  });
  store.commitNow();
  return { table: store.messages, store, reader };
}

const message = (id: string, parentId: string | null, extra: Partial<StoredMessage> = {}): StoredMessage => ({
  id,
  conversationId: 'c',
  parentId,
  role: 'assistant',
  text: '',
  status: 'streaming',
  createdAt: 1,
  ...extra,
});

describe('MessageTable', () => {
  it('gives back what it stored, optional fields absent rather than null', () => {
    const { table } = setUp();
    const plain = message('m1', null);
    const full = message('m2', 'm1', {
      model: 'echo',
      error: 'The model failed to answer.',
      tool: { name: 'read_file', args: '{"path":"a"}', approvalId: 'a1' },
    });
    table.insert(plain);
    table.insert(full);
    expect(table.get('m1')).toStrictEqual(plain);
    expect(table.get('m2')).toStrictEqual(full);
    expect(table.ofConversation('c')).toStrictEqual([plain, full]);
  });

  it('orders siblings by insertion under each parent, whatever their times', () => {
    const { table } = setUp();
    table.insert(message('root', null));
    table.insert(message('late', 'root', { createdAt: 9 }));
    table.insert(message('early', 'root', { createdAt: 0 }));
    expect(table.ofConversation('c').map((m) => m.id)).toEqual(['root', 'late', 'early']);
  });

  it('changes, appends and clears fields as the contract shows them', () => {
    const { table } = setUp();
    table.insert(message('m', null, { error: 'failed', status: 'error' }));
    table.appendText('m', 'Hello');
    table.appendText('m', ' world');
    table.change('m', { status: 'streaming', error: null, tool: { name: 't', args: '{}' } });
    expect(table.get('m')).toStrictEqual(
      message('m', null, { text: 'Hello world', status: 'streaming', tool: { name: 't', args: '{}' } }),
    );
  });

  it('commits with the store: another connection sees a message once the turn is committed', async () => {
    const { table, store, reader } = setUp();
    const count = () => (reader.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;
    table.insert(message('m', null));
    table.appendText('m', 'word');
    expect(count()).toBe(0);
    await store.whenCommitted();
    expect(count()).toBe(1);
    expect(store.messages.ofConversation('c').map((m) => m.text)).toEqual(['word']);
  });
});
