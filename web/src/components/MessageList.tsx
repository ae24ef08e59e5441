import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Snapshot } from '../state/types';
import { MessageItem } from './MessageItem';

/** Props of {@link MessageList}. */
export interface MessageListProps {
  readonly snapshot: Snapshot;
}

/**
 * The current branch of the conversation. Follows the bottom while a reply streams, unless
 * the person scrolled up to read.
 */
export function MessageList({ snapshot }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const { messages, run } = snapshot.conversations;
  const last = messages.at(-1);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [messages, last?.text, snapshot.approvals]);
  useLayoutEffect(() => {
    pinned.current = true;
  }, [snapshot.conversationId]);

  const lastReply = messages.findLast((m) => m.role === 'assistant');
  return (
    <div
      class="messages"
      ref={scroller}
      onScroll={(event) => {
        const el = event.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      {messages.length === 0 ? (
        <p class="empty">No messages yet. Write something below.</p>
      ) : (
        <ol class="message-list" aria-label="Messages">
          {messages.map((message) => (
            <MessageItem
              key={message.id}
              message={message}
              idle={run.state === 'idle'}
              isLast={message === last}
              isLastReply={message === lastReply}
              approvals={snapshot.approvals}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
