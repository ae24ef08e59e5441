import { useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { useSession } from '../state/SessionContext';
import type { Approval, ConversationSummary } from '../state/types';
import { ConversationItem } from './ConversationItem';
import { ConversationSearch, matchesTitle } from './ConversationSearch';

/** Props of {@link ConversationList}. */
export interface ConversationListProps {
  readonly conversations: readonly ConversationSummary[];
  readonly projectId: string;
  readonly conversationId: string;
  readonly approvals: readonly Approval[];
  readonly onNavigate: () => void;
}

/** The conversations of the current project, newest first, with "New chat". */
export function ConversationList({
  conversations,
  projectId,
  conversationId,
  approvals,
  onNavigate,
}: ConversationListProps) {
  const session = useSession();
  const t = useT();
  const [query, setQuery] = useState('');
  const list = conversations
    .filter((c) => c.projectId === projectId && matchesTitle(c.title || t('newChat'), query))
    .sort((a, b) => b.createdAt - a.createdAt);
  return (
    <section class="panel" aria-labelledby="conversations-heading">
      <div class="panel-head">
        <h2 id="conversations-heading">{t('conversations')}</h2>
        <button
          type="button"
          class="small"
          onClick={async () => {
            if (await session.act({ action: 'newConversation', projectId })) onNavigate();
          }}
        >
          {t('newChatButton')}
        </button>
      </div>
      <ConversationSearch query={query} onQuery={setQuery} />
      {list.length === 0 && query.trim() !== '' && (
        <p class="search-empty" role="status">
          {t('noConversationMatches', { query: query.trim() })}
        </p>
      )}
      <ul class="conversations">
        {list.map((conversation) => (
          <ConversationItem
            key={conversation.id}
            conversation={conversation}
            current={conversation.id === conversationId}
            waiting={approvals.some((a) => a.conversationId === conversation.id)}
            onNavigate={onNavigate}
          />
        ))}
      </ul>
    </section>
  );
}
