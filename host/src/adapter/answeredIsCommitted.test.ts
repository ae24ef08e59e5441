import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatController } from '../controller/ChatController';
import { HostStore } from '../db/HostStore';
import { openDatabase } from '../db/openDatabase';
import { MainExecutor } from '../executor/MainExecutor';
import { breakThisTurnsCommit } from '../testing/failingCommit';
import { tempDir } from '../testing/testController';
import { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import { createHostAdapter } from './createHostAdapter';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const close of cleanup.splice(0)) close();
});

/** A controller over a store this test holds, and a second connection on the same file. */
function host() {
  const dataDir = tempDir();
  const workspace = path.join(dataDir, 'workspace');
  fs.mkdirSync(workspace);
  const store = new HostStore(openDatabase(dataDir));
  const controller = new ChatController({
    store,
    executor: new MainExecutor(),
    authoriser: new WorkspaceAuthoriser([workspace]),
    uploadDir: path.join(dataDir, 'uploads'),
    echoDelayMs: 1,
  });
  // The rows the controller made when it opened, on disk before the test looks.
  store.commitNow();
  const reader = new BetterSqlite3(path.join(dataDir, 'webbridge.db'), { readonly: true });
  cleanup.push(
    () => controller.close(),
    () => reader.close(),
  );
  return { controller, store, adapter: createHostAdapter(controller), reader };
}

const titleOf = (reader: Database, id: string) =>
  (reader.prepare('SELECT title FROM conversations WHERE id = ?').get(id) as { title: string }).title;

describe('an action answered through runOnMain', () => {
  it('is visible to another connection the moment its answer arrives', async () => {
    const { controller, adapter, reader } = host();
    const { conversationId } = controller.readState();
    const answers = ['one', 'two', 'three'].map((title) =>
      adapter.runOnMain(() => {
        const result = adapter.actions.renameConversation({
          action: 'renameConversation',
          conversationId,
          title,
        });
        // Applied in memory and on this connection, not yet on disk: the turn is still open.
        expect(titleOf(reader, conversationId)).not.toBe(title);
        return result;
      }),
    );
    const first = await answers[0];
    expect(first).toEqual({ conversationId });
    // All three share one commit, so the first answer already finds the last title on disk.
    expect(titleOf(reader, conversationId)).toBe('three');
    await Promise.all(answers);
  });

  it('fails with the COMMIT that failed: every task of the turn is refused and nothing stays', async () => {
    const { controller, store, adapter, reader } = host();
    const { conversationId } = controller.readState();
    const rename = adapter.runOnMain(() =>
      adapter.actions.renameConversation({ action: 'renameConversation', conversationId, title: 'lost' }),
    );
    // A sibling task in the same turn leaves a deferred foreign-key violation behind, which
    // only COMMIT checks.
    const sibling = adapter.runOnMain(() => {
      store.kv.set('probe', 'x');
      breakThisTurnsCommit(store);
    });
    await expect(rename).rejects.toThrow(/FOREIGN KEY/);
    await expect(sibling).rejects.toThrow(/FOREIGN KEY/);
    expect(titleOf(reader, conversationId)).toBe('');
    expect(reader.prepare(`SELECT value FROM kv WHERE key = 'probe'`).get()).toBeUndefined();
  });

  it('commits what is pending when the controller closes', () => {
    const { controller, adapter, reader } = host();
    const { conversationId } = controller.readState();
    adapter.actions.renameConversation({ action: 'renameConversation', conversationId, title: 'kept' });
    expect(titleOf(reader, conversationId)).toBe('');
    controller.close();
    expect(titleOf(reader, conversationId)).toBe('kept');
  });
});
