import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/I18nContext';
import { pure } from '../render/pure';
import { useIdleTitle } from '../render/useIdleTitle';
import { useSession } from '../state/SessionContext';
import type { ConversationSummary } from '../state/types';
import { ApprovalMark } from './ApprovalMark';
import { Icon } from './Icon';

/** Props of {@link ConversationItem}. */
export interface ConversationItemProps {
  readonly conversation: ConversationSummary;
  readonly current: boolean;
  /** An approval waits in this conversation: marked beside its name. */
  readonly waiting?: boolean;
  readonly onNavigate: () => void;
}

/** One conversation: open it, rename it, or delete it (asked twice). */
export const ConversationItem = pure(function ConversationItem({
  conversation,
  current,
  waiting = false,
  onNavigate,
}: ConversationItemProps) {
  const session = useSession();
  const { t, format } = useI18n();
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const [title, setTitle] = useState(conversation.title);
  const name = conversation.title || t('newChat');
  // The date of the tooltip, formatted once the page is idle: the first date formatted on the
  // page makes its Intl formatter (ICU's data loaded, ~0.1 s on a slow phone), which the first
  // paint does not need, least of all on a phone, where the sidebar is a closed drawer.
  // Again when the item is back from renaming or deleting: its button is a new element.
  const began = useIdleTitle<HTMLButtonElement>(
    () => t('createdAt', { date: format.dateTime(conversation.createdAt) }),
    [t, format, conversation.createdAt, mode],
  );

  if (mode === 'rename') {
    return (
      <li class="conversation">
        <form
          class="rename"
          onSubmit={async (event) => {
            event.preventDefault();
            const trimmed = title.trim();
            if (trimmed === '') return;
            if (
              await session.act({
                action: 'renameConversation',
                conversationId: conversation.id,
                title: trimmed,
              })
            )
              setMode('view');
          }}
        >
          <input
            aria-label={t('renameTo', { name })}
            value={title}
            maxLength={200}
            autofocus
            onInput={(event) => setTitle(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                setMode('view');
              }
            }}
          />
          <button type="submit" class="small primary">
            {t('save')}
          </button>
        </form>
      </li>
    );
  }
  return (
    <li class={`conversation${current ? ' current' : ''}`}>
      <button
        type="button"
        class="conversation-open"
        dir="auto"
        aria-current={current ? 'page' : undefined}
        ref={began}
        onClick={async () => {
          if (
            current ||
            (await session.act({ action: 'selectConversation', conversationId: conversation.id }))
          )
            onNavigate();
        }}
      >
        {name}
        {waiting && <ApprovalMark label={t('approvalWaitsThere')} />}
      </button>
      {mode === 'delete' ? (
        <span class="conversation-confirm">
          <button
            type="button"
            class="small danger"
            onClick={async () => {
              await session.act({ action: 'deleteConversation', conversationId: conversation.id });
              setMode('view');
            }}
          >
            {t('delete')}
          </button>
          <button type="button" class="small" onClick={() => setMode('view')}>
            {t('keep')}
          </button>
        </span>
      ) : (
        <span class="conversation-tools">
          <button
            type="button"
            class="icon"
            aria-label={t('renameConversation', { name })}
            title={t('rename')}
            onClick={() => {
              setTitle(conversation.title);
              setMode('rename');
            }}
          >
            <Icon name="edit" />
          </button>
          <button
            type="button"
            class="icon"
            aria-label={t('deleteConversation', { name })}
            title={t('delete')}
            onClick={() => setMode('delete')}
          >
            <Icon name="trash" />
          </button>
        </span>
      )}
    </li>
  );
});
