import { useEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { pure } from '../render/pure';
import { whenNear } from '../render/whenNear';
import type { Message } from '../state/types';
import { MessageItem, type MessageItemProps } from './MessageItem';

const ROLE_KEY = {
  user: 'roleUser',
  assistant: 'roleAssistant',
  tool: 'roleTool',
  system: 'roleSystem',
} as const;

/** Props of {@link MessageWindow}. */
export interface MessageWindowProps extends MessageItemProps {
  /** Drawn in full at once (one of the latest messages), not only once near the screen. */
  readonly eager: boolean;
}

/**
 * A message drawn in full (markdown, actions, attachments) once it comes within a screen of
 * the viewport, or at once when `eager`; until then a light stand-in: the same list item with
 * the role and the text as written, so the list keeps every message for find-in-page, screen
 * readers and its scroll height. Once drawn in full it stays so. A 2,000-message conversation
 * opened at its end thus parses and builds the few messages on screen, not 2,000.
 */
export const MessageWindow = pure(function MessageWindow({ eager, ...item }: MessageWindowProps) {
  const [near, setNear] = useState(eager);
  // Latched: a message drawn in full because it was among the latest stays drawn.
  const full = useRef(eager);
  if (eager || near) full.current = true;
  if (full.current) return <MessageItem {...item} />;
  return <MessageStandIn message={item.message} onNear={() => setNear(true)} />;
});

function MessageStandIn({ message, onNear }: { readonly message: Message; readonly onNear: () => void }) {
  const t = useT();
  const li = useRef<HTMLLIElement>(null);
  useEffect(() => {
    const element = li.current;
    // The list's scrolling element (MessageList's), whose screen "near" is measured against.
    return element ? whenNear(element, element.closest('.messages'), onNear) : undefined;
  }, []);
  return (
    <li
      ref={li}
      // biome-ignore lint/a11y/noRedundantRoles: inside a chunk's box (role none) the implicit role turns presentational
      role="listitem"
      class={`message message-${message.role} status-${message.status} message-stand-in`}
      data-message-id={message.id}
    >
      <div class="message-head">
        <span class="role">{t(ROLE_KEY[message.role])}</span>
      </div>
      {message.text !== '' && (
        <p class="body plain" dir="auto">
          {message.text}
        </p>
      )}
    </li>
  );
}
