import { useState } from 'preact/hooks';
import { pure } from '../render/pure';
import { useSession } from '../state/SessionContext';
import type { Approval, Message } from '../state/types';
import { ApprovalCard } from './ApprovalCard';
import { AttachmentView } from './AttachmentView';
import { CopyButton } from './CopyButton';
import { Markdown } from './Markdown';
import { MessageActions } from './MessageActions';
import { MessageEditor } from './MessageEditor';

/** Props of {@link MessageItem}. */
export interface MessageItemProps {
  readonly message: Message;
  readonly isLast: boolean;
  readonly isLastReply: boolean;
  /** The pending approvals, for a message that waits on one (else an empty list). */
  readonly approvals: readonly Approval[];
}

const ROLE: { readonly [R in Message['role']]: string } = {
  user: 'You',
  assistant: 'Assistant',
  tool: 'Tool',
  system: 'System',
};

const STATUS: { readonly [S in Message['status']]: string | null } = {
  complete: null,
  streaming: 'Writing…',
  stopped: 'Stopped',
  error: 'Error',
  waiting: 'Waiting for approval',
};

/**
 * One message: its text, attachments, status and what can be done with it. Renders again only
 * when one of its props changes identity: the reducer keeps unchanged messages, so a streamed
 * word re-renders the growing reply alone.
 */
export const MessageItem = pure(function MessageItem({
  message,
  isLast,
  isLastReply,
  approvals,
}: MessageItemProps) {
  const session = useSession();
  const [editing, setEditing] = useState(false);
  // A reply that called a tool and is still streaming is waiting for the tool to finish.
  const status = message.status === 'streaming' && message.tool ? 'Running…' : STATUS[message.status];
  const waitingOn = message.status === 'waiting' ? approvals.filter((a) => a.messageId === message.id) : [];

  return (
    <li
      class={`message message-${message.role} status-${message.status}`}
      data-message-id={message.id}
      aria-busy={message.status === 'streaming'}
    >
      <div class="message-head">
        <span class="role">{ROLE[message.role]}</span>
        {message.model && message.role === 'assistant' && <span class="model">{message.model}</span>}
        {status && <span class={`status status-label-${message.status}`}>{status}</span>}
        {!editing && (message.text !== '' || message.role === 'assistant') && (
          <CopyButton
            hidden={message.text === ''}
            text={message.text}
            label="Copy message"
            selectTarget={() => document.querySelector(`[data-message-id="${CSS.escape(message.id)}"] .body`)}
          />
        )}
      </div>
      {editing ? (
        <MessageEditor
          initial={message.text}
          onCancel={() => setEditing(false)}
          onSave={async (text) => {
            if (await session.sensitive((client) => client.editMessage(message.id, text))) setEditing(false);
          }}
        />
      ) : (
        <MessageBody message={message} />
      )}
      {message.tool && (
        <p class="tool-call">
          {message.role === 'tool' ? 'Ran' : 'Calls'} <code class="tool-name">{message.tool.name}</code>{' '}
          <code class="tool-args" title={message.tool.args}>
            {message.tool.args}
          </code>
        </p>
      )}
      {message.attachments.length > 0 && (
        <ul class="attachments" aria-label="Attachments">
          {message.attachments.map((attachment) => (
            <AttachmentView key={attachment.id} attachment={attachment} />
          ))}
        </ul>
      )}
      {message.status === 'error' && message.error && (
        <p class="message-error" role="alert">
          {message.error}
        </p>
      )}
      {waitingOn.map((approval) => (
        <ApprovalCard key={approval.id} approval={approval} />
      ))}
      {!editing && (
        <MessageActions
          message={message}
          isLast={isLast}
          isLastReply={isLastReply}
          onEdit={() => setEditing(true)}
        />
      )}
    </li>
  );
});

function MessageBody({ message }: { message: Message }) {
  if (message.role === 'assistant') {
    if (message.text === '' && message.status === 'streaming') {
      // A running tool call says so in its status; no typing dots under it.
      if (message.tool) return null;
      return (
        <p class="body typing">
          <span class="visually-hidden">Writing…</span>
        </p>
      );
    }
    return (
      <div class={`body markdown${message.status === 'streaming' ? ' streaming' : ''}`}>
        <Markdown text={message.text} />
      </div>
    );
  }
  if (message.role === 'tool') {
    return (
      <details class="body tool-result">
        <summary>Result{message.tool ? ` of ${message.tool.name}` : ''}</summary>
        <pre>{message.text}</pre>
      </details>
    );
  }
  return message.text === '' ? null : <p class="body plain">{message.text}</p>;
}
