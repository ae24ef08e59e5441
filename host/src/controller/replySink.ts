import { ProtocolError, type Settings } from '@webbridge/contract';
import type { StoredMessage } from '../db/StoredMessage';
import { ModelError } from '../models/ModelError';
import type { MessageRepository } from './MessageRepository';
import type { ProjectionPublisher } from './ProjectionPublisher';
import type { ReplySink } from './ReplyRunner';
import type { ToolCalls } from './ToolCalls';

/** What the sink writes to: the controller's shared state (its core), seen from here. */
export interface ReplySinkTarget {
  readonly closed: boolean;
  readonly messages: MessageRepository;
  readonly publisher: ProjectionPublisher;
  readonly toolCalls: ToolCalls;
  readonly settings: Settings;
  followToolResult(conversationId: string, result: StoredMessage | undefined): void;
  refresh(): void;
}

/**
 * Where the controller's running replies report to: streamed text, tool calls, the end and
 * failures, each written to the store and published.
 *
 * Each report checks `core.closed` first: after `close()` the store is gone, and a report that
 * raced the shutdown must leave it alone.
 */
export function createReplySink(core: ReplySinkTarget): ReplySink {
  return {
    onText: (conversationId, messageId, text) => {
      if (core.closed || !core.messages.appendText(conversationId, messageId, text)) return;
      core.publisher.appendText(messageId, text);
    },
    onToolCall: (conversationId, messageId, name, args) => {
      if (core.closed) return;
      const result = core.toolCalls.handle(conversationId, messageId, name, args, core.settings);
      core.followToolResult(conversationId, result);
      core.refresh();
    },
    onFinish: (conversationId, messageId) => {
      if (core.closed) return;
      core.messages.change(conversationId, messageId, { status: 'complete' });
      core.refresh();
    },
    onError: (conversationId, messageId, error) => {
      if (core.closed) return;
      // Foreign errors can carry URLs, paths or keys; show only the messages written for people.
      const reason =
        error instanceof ProtocolError || error instanceof ModelError
          ? error.message
          : 'The model failed to answer.';
      core.messages.change(conversationId, messageId, { status: 'error', error: reason });
      core.refresh();
    },
  };
}
