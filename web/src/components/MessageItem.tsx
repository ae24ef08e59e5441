import { useState } from 'preact/hooks';
import type { MessageKey } from '../i18n/catalogue';
import { useI18n, useT } from '../i18n/I18nContext';
import { pure } from '../render/pure';
import { useIdleTitle } from '../render/useIdleTitle';
import { useSession } from '../state/SessionContext';
import type { Approval, Message } from '../state/types';
import { AgentStartingNote } from './AgentStartingNote';
import { AgentToolCard } from './AgentToolCard';
import { ApprovalCard } from './ApprovalCard';
import { AttachmentView } from './AttachmentView';
import { ChangesSummary } from './ChangesSummary';
import { CopyButton } from './CopyButton';
import { DecisionLine } from './DecisionLine';
import { Markdown } from './Markdown';
import { MessageActions } from './MessageActions';
import { MessageEditor } from './MessageEditor';
import { PlainReply } from './PlainReply';
import { RenderBoundary } from './RenderBoundary';
import { StopReasonLine } from './StopReasonLine';
import '../agentMessages.css';
import { ThoughtView } from './ThoughtView';
import { ToolResultDiffs } from './ToolResultDiffs';

/** Props of {@link MessageItem}. */
export interface MessageItemProps {
  readonly message: Message;
  readonly isLast: boolean;
  readonly isLastReply: boolean;
  /** The pending approvals, for a message that waits on one (else an empty list). */
  readonly approvals: readonly Approval[];
  /** Its place in the whole conversation (from 0), of `setSize` messages. */
  readonly index: number;
  readonly setSize: number;
  /** Told the message's element as it is drawn and removed: the list measures it. */
  readonly measure: (element: HTMLLIElement | null) => void;
}

const ROLE: { readonly [R in Message['role']]: MessageKey } = {
  user: 'roleUser',
  assistant: 'roleAssistant',
  tool: 'roleTool',
  system: 'roleSystem',
};

const STATUS: { readonly [S in Message['status']]: MessageKey | null } = {
  complete: null,
  streaming: 'statusWriting',
  stopped: 'statusStopped',
  error: 'statusError',
  waiting: 'statusWaiting',
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
  index,
  setSize,
  measure,
}: MessageItemProps) {
  const session = useSession();
  const { t, format } = useI18n();
  const [editing, setEditing] = useState(false);
  // The tooltip's date, once the page is idle: not the opening's first Intl formatter.
  const role = useIdleTitle<HTMLSpanElement>(
    () => format.dateTime(message.createdAt),
    [format, message.createdAt],
  );
  // A reply that called a tool and is still streaming is waiting for the tool to finish.
  // An agent's tool call card and its thinking say their own state.
  const statusKey =
    message.agentTool || message.thought
      ? null
      : message.status === 'streaming' && message.tool
        ? 'statusRunning'
        : STATUS[message.status];
  const status = statusKey && t(statusKey);
  const waitingOn = message.status === 'waiting' ? approvals.filter((a) => a.messageId === message.id) : [];

  return (
    // The list holds only the messages near the screen: each says where it is in the whole.
    <li
      ref={measure}
      class={`message message-${message.role} status-${message.status}`}
      data-message-id={message.id}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      aria-busy={message.status === 'streaming'}
    >
      <div class="message-head">
        <span class="role" ref={role}>
          {t(ROLE[message.role])}
        </span>
        {message.model && message.role === 'assistant' && <span class="model">{message.model}</span>}
        {status && <span class={`status status-label-${message.status}`}>{status}</span>}
        {!editing && (message.text !== '' || message.role === 'assistant') && (
          <CopyButton
            hidden={message.text === ''}
            text={message.text}
            label={t('copyMessage')}
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
        // A message that cannot be drawn shows as written; the rest of the page carries on.
        <RenderBoundary fallback={<PlainReply text={message.text} reason="broken" />}>
          {message.agentTool ? (
            <AgentToolCard
              call={message.agentTool}
              output={message.text}
              diffsShownBelow={waitingOn.some((approval) => (approval.diffs?.length ?? 0) > 0)}
              {...(message.status === 'error' || message.status === 'stopped'
                ? { ended: message.status }
                : {})}
            />
          ) : message.thought ? (
            <ThoughtView text={message.text} streaming={message.status === 'streaming'} />
          ) : (
            <MessageBody message={message} />
          )}
        </RenderBoundary>
      )}
      {message.tool && !message.agentTool && (
        <p class="tool-call">
          {t(message.role === 'tool' ? 'toolRan' : 'toolCalls')}{' '}
          <code class="tool-name">{message.tool.name}</code>{' '}
          <code class="tool-args" title={message.tool.args}>
            {message.tool.args}
          </code>
        </p>
      )}
      {message.attachments.length > 0 && (
        <ul class="attachments" aria-label={t('attachments')}>
          {message.attachments.map((attachment) => (
            <AttachmentView key={attachment.id} attachment={attachment} />
          ))}
        </ul>
      )}
      {message.role === 'assistant' &&
        message.status === 'streaming' &&
        message.text === '' &&
        !message.tool && <AgentStartingNote />}
      {message.status === 'error' && message.error && (
        <p class="message-error" role="alert">
          {message.error}
        </p>
      )}
      {message.stopReason && message.stopReason !== 'end_turn' && (
        <StopReasonLine reason={message.stopReason} />
      )}
      {message.stopReason && <ChangesSummary messageId={message.id} />}
      {message.tool?.decided && <DecisionLine decided={message.tool.decided} />}
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
  const t = useT();
  if (message.role === 'assistant') {
    if (message.text === '' && message.status === 'streaming') {
      // A running tool call says so in its status; no typing dots under it.
      if (message.tool) return null;
      return (
        <p class="body typing">
          <span class="visually-hidden">{t('statusWriting')}</span>
        </p>
      );
    }
    return (
      <div class={`body markdown${message.status === 'streaming' ? ' streaming' : ''}`} dir="auto">
        <Markdown text={message.text} />
      </div>
    );
  }
  if (message.role === 'tool') {
    return (
      <>
        <details class="body tool-result">
          <summary>{message.tool ? t('toolResultOf', { tool: message.tool.name }) : t('toolResult')}</summary>
          <pre dir="auto">{message.text}</pre>
        </details>
        {message.diffs && message.diffs.length > 0 && <ToolResultDiffs diffs={message.diffs} />}
      </>
    );
  }
  return message.text === '' ? null : (
    <p class="body plain" dir="auto">
      {message.text}
    </p>
  );
}
