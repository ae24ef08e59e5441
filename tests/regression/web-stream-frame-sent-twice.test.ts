import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTION_STRINGS, PROTOCOL_VERSION } from '@webbridge/contract';
import {
  chatOnlyActions,
  createBridge,
  createSerialQueue,
  EchoReplies,
  MemoryConversations,
} from '@webbridge/server';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Through `bridge.app.fetch` (no Node response: the events route writes to a web
 * ReadableStream), a frame written while the reader was already waiting made the stream ask
 * for more at once, inside the write; the subscriber then flushed again before recording what
 * it had sent and wrote the same frame twice (every append of a reply came twice, and a
 * client resynchronised). Found when the web mocks became the real bridge.
 */
describe('a stream served through app.fetch sends each frame once', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('while a reply streams to a reader that is always waiting', async () => {
    const conversations = new MemoryConversations({ model: { id: 'echo', name: 'Echo', provider: 'test' } });
    const runOnMain = createSerialQueue();
    const replies = new EchoReplies(conversations, runOnMain, 5);
    const uploadDir = mkdtempSync(join(tmpdir(), 'frame-twice-'));
    const bridge = createBridge({
      host: {
        readState: conversations.store.readState,
        subscribe: conversations.store.subscribe,
        runOnMain,
        actions: { ...chatOnlyActions(conversations.store), ...conversations.actions, ...replies.actions },
        addAttachment: conversations.addAttachment,
        resolveMedia: conversations.resolveMedia,
        authoriseWorkspace: () => undefined,
        locale: () => ({ language: 'en', strings: CONNECTION_STRINGS, protocol: PROTOCOL_VERSION }),
      },
      accessCode: 'code-code',
      uploadDir,
      logLevel: 'silent',
    });
    cleanups.push(async () => {
      replies.close();
      await bridge.stop();
      rmSync(uploadDir, { recursive: true, force: true });
    });
    const headers = { Authorization: 'Bearer code-code', Host: 'localhost' };
    const events = await bridge.app.fetch(new Request('http://localhost/api/events', { headers }));
    const reader = events.body!.getReader();
    const state = conversations.store.readState();
    const send = await bridge.app.fetch(
      new Request('http://localhost/api/action', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          action: 'send',
          text: 'one two three four five six',
          sessionRevision: state.sessionRevision,
          conversationId: state.conversationId,
          projectId: state.projectId,
        }),
      }),
    );
    expect(send.status).toBe(200);
    const ids: string[] = [];
    let text = '';
    // Until a delta (not the first snapshot) says the run is idle again.
    while (!/"kind":"delta"[^\n]*"run":\{"state":"idle"/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      const chunk = new TextDecoder().decode(value);
      text += chunk;
      for (const id of chunk.matchAll(/^id:(\d+)$/gm)) ids.push(id[1]!);
    }
    await reader.cancel();
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect(ids).toEqual([...new Set(ids)]);
  });
});
