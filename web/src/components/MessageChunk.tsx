import { Component, type ComponentChildren } from 'preact';
import type { Approval, Message } from '../state/types';
import { MessageWindow } from './MessageWindow';

const NONE: readonly Approval[] = [];
/** The latest messages, drawn in full at once: the screen a conversation opens on. */
export const EAGER_MESSAGES = 24;

/** Props of {@link MessageChunk}. */
export interface MessageChunkProps {
  /** The whole list; this chunk draws `from` to `to` (exclusive). */
  readonly messages: readonly Message[];
  readonly from: number;
  readonly to: number;
  readonly last: Message | undefined;
  readonly lastReply: Message | undefined;
  readonly approvals: readonly Approval[];
  /** Messages from this index on are drawn in full at once, the others when they come near. */
  readonly eagerFrom: number;
  /**
   * Whether the chunk is a box of its own (an item of the list holding a list of its
   * messages): a chunk well above the end, which the browser then skips as one while it is
   * off screen. The latest messages stay items of the list itself.
   */
  readonly boxed: boolean;
}

/**
 * A run of messages of the list that renders again only when one of its own messages changed
 * (identity: the reducer keeps unchanged messages), became or stopped being the last one, or
 * waits on approvals that changed. A streamed word thus costs one chunk's comparison per chunk
 * and one message's render, however long the conversation.
 */
export class MessageChunk extends Component<MessageChunkProps> {
  override shouldComponentUpdate(next: MessageChunkProps): boolean {
    const prev = this.props;
    if (next.from !== prev.from || next.to !== prev.to || next.boxed !== prev.boxed) return true;
    for (let i = next.from; i < next.to; i++) {
      const message = next.messages[i];
      if (message !== prev.messages[i]) return true;
      if ((message === next.last) !== (message === prev.last)) return true;
      if ((message === next.lastReply) !== (message === prev.lastReply)) return true;
      if (i >= next.eagerFrom !== i >= prev.eagerFrom) return true;
      if (message?.status === 'waiting' && next.approvals !== prev.approvals) return true;
    }
    return false;
  }

  override render({ messages, from, to, last, lastReply, approvals, eagerFrom, boxed }: MessageChunkProps) {
    const items: ComponentChildren[] = [];
    for (let i = from; i < to; i++) {
      const message = messages[i];
      if (!message) continue;
      items.push(
        <MessageWindow
          key={message.id}
          message={message}
          isLast={message === last}
          isLastReply={message === lastReply}
          approvals={message.status === 'waiting' ? approvals : NONE}
          eager={i >= eagerFrom}
        />,
      );
    }
    if (!boxed) return items;
    // Boxes are not list items to assistive technology: each message stays an item of the
    // one list of messages (role none on the box and its inner list, an explicit listitem
    // role on each message, which the box's presentation would otherwise take away).
    return (
      <li class="message-chunk" role="none">
        <ol class="message-chunk-list" role="none">
          {items}
        </ol>
      </li>
    );
  }
}
