import { HostStore, openDatabase } from '@webbridge/host';

/** A second, read-only use of a host's SQLite file: where did a message really land? */
export interface HostDb {
  /** The conversations holding a user message with exactly this text (one entry per message). */
  conversationsWithUserText(text: string): string[];
  /** How many messages are still streaming, in any conversation. */
  streamingCount(): number;
  close(): void;
}

/**
 * Opens the host's database beside the running host (WAL lets a second connection read while
 * the host writes), so tests check the persisted truth rather than a projection of it.
 */
export function openHostDb(dataDir: string): HostDb {
  const store = new HostStore(openDatabase(dataDir));
  return {
    conversationsWithUserText(text) {
      const found: string[] = [];
      for (const conversation of store.conversations.all()) {
        for (const message of store.messages.ofConversation(conversation.id)) {
          if (message.role === 'user' && message.text === text) found.push(conversation.id);
        }
      }
      return found;
    },
    streamingCount() {
      let count = 0;
      for (const conversation of store.conversations.all()) {
        for (const message of store.messages.ofConversation(conversation.id))
          if (message.status === 'streaming') count++;
      }
      return count;
    },
    close: () => store.close(),
  };
}
