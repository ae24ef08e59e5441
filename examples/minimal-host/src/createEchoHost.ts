import { CONNECTION_STRINGS, PROTOCOL_VERSION } from '@webbridge/contract';
import type { HostAdapter } from '@webbridge/server';
import { chatOnlyActions, createSerialQueue, EchoReplies, MemoryConversations } from '@webbridge/server';

/**
 * An app's own controller, in memory, behind `HostAdapter`: each reply echoes the user's text word
 * by word (`EchoReplies`; an app with a model writes its own `send` and `stop` the same way).
 * Handlers run as `runOnMain` tasks and never await; the echo runs outside them and hands each
 * word back as a task of its own, so a `stop` is never stuck behind it.
 */
export function createEchoHost(wordDelayMs = 40) {
  const model = { id: 'echo', name: 'Echo', provider: 'in-memory' };
  const conversations = new MemoryConversations({ title: 'Echo', model });
  const { store } = conversations;
  const runOnMain = createSerialQueue();
  const replies = new EchoReplies(conversations, runOnMain, wordDelayMs);

  return {
    readState: store.readState,
    subscribe: store.subscribe,
    runOnMain,
    actions: {
      // From the helpers: settings, the one model and project, 422 for what an echo lacks;
      // conversations; the echo's send and stop.
      ...chatOnlyActions(store),
      ...conversations.actions,
      ...replies.actions,
    },
    addAttachment: conversations.addAttachment,
    resolveMedia: conversations.resolveMedia,
    // This app reads no folders, so no workspace URI from a browser is ever authorised (403).
    authoriseWorkspace: () => undefined,
    locale: () => ({ language: 'en', strings: CONNECTION_STRINGS, protocol: PROTOCOL_VERSION }),
    close: () => replies.close(),
  } satisfies HostAdapter & { close(): void };
}
