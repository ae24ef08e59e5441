import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChatController,
  createHostAdapter,
  HostStore,
  MainExecutor,
  openDatabase,
  WorkspaceAuthoriser,
} from '@webbridge/host';
import { createBridge } from '@webbridge/server';
import { afterEach, describe, expect, it } from 'vitest';

const CODE = 'failed-commit-code-3k8q';
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0)) await close();
});

describe('an action whose group commit fails', () => {
  it('is answered 500 problem+json without internals, and the error is logged', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-failed-commit-'));
    mkdirSync(join(dataDir, 'workspace'));
    const store = new HostStore(openDatabase(dataDir));
    const controller = new ChatController({
      store,
      executor: new MainExecutor(),
      authoriser: new WorkspaceAuthoriser([join(dataDir, 'workspace')]),
      uploadDir: join(dataDir, 'uploads'),
    });
    const adapter = createHostAdapter(controller);
    // Every action of this host also leaves a deferred foreign-key violation in its turn, which
    // only COMMIT checks: the commit of the turn fails as a full disk's would.
    const failing = {
      ...adapter,
      runOnMain: <T>(task: () => T) =>
        adapter.runOnMain(() => {
          // A write through the store first opens the turn's transaction, where the pragma holds.
          store.kv.set('probe', 'x');
          store.db.pragma('defer_foreign_keys = ON');
          store.db
            .prepare(
              `INSERT INTO conversations (id, project_id, title, created_at) VALUES (?, 'none', '', 0)`,
            )
            .run(`orphan-${Math.random()}`);
          return task();
        }),
    };
    const lines: string[] = [];
    const bridge = createBridge({
      host: failing,
      accessCode: CODE,
      uploadDir: join(dataDir, 'uploads'),
      logLevel: 'info',
      logDestination: { write: (line: string) => lines.push(line) },
    });
    const url = (await bridge.listen({ port: 0, hostname: '127.0.0.1' })).urls[0]!;
    cleanup.push(
      () => bridge.stop(),
      () => controller.close(),
    );
    const state = controller.readState();
    const response = await fetch(new URL('/api/action', url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${CODE}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        action: 'renameConversation',
        conversationId: state.conversationId,
        title: 'never stored',
      }),
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await response.text();
    expect(body).not.toMatch(/FOREIGN|SQLITE|sqlite/i);
    expect(lines.some((line) => line.includes('unhandled error') && /FOREIGN KEY/.test(line))).toBe(true);
    // The rename went with the turn: the file never held it.
    controller.close();
    const reopened = new HostStore(openDatabase(dataDir));
    expect(reopened.conversations.get(state.conversationId)?.title).toBe('');
    reopened.close();
  });
});
