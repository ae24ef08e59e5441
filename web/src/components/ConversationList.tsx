import type { StoreState } from '@webbridge/client-sdk';
import { useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { lazyComponent } from '../render/lazyComponent';
import { useSession } from '../state/SessionContext';
import type { Approval, ConversationSummary } from '../state/types';
import { useStoreSelector } from '../state/useStoreSelector';
import { ConversationItem } from './ConversationItem';
import { ConversationTitleFilter, matchesTitle } from './ConversationTitleFilter';

/** The sheet, in its own chunk: shown only when the person asks for it. */
const NewConversationSheet = lazyComponent(() =>
  import('./NewConversationSheet').then((module) => module.NewConversationSheet),
);

/** The agents and projects a new conversation can have (kept by identity while words stream). */
const agentsView = ({ snapshot }: StoreState) => snapshot?.agents?.list;
const projectsView = ({ snapshot }: StoreState) => snapshot?.projects.list;

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
  const [choosing, setChoosing] = useState(false);
  const agents = useStoreSelector(session.store, agentsView);
  const projects = useStoreSelector(session.store, projectsView);
  // "New chat" stays one tap (the built-in agent, this project); with other agents or projects
  // to choose from, a second button opens the choice.
  const canChoose = (agents?.length ?? 0) > 1 || (projects?.length ?? 0) > 1;
  const list = conversations
    .filter((c) => c.projectId === projectId && matchesTitle(c.title || t('newChat'), query))
    .sort((a, b) => b.createdAt - a.createdAt);
  return (
    <section class="panel" aria-labelledby="conversations-heading">
      <div class="panel-head">
        <h2 id="conversations-heading">{t('conversations')}</h2>
        {/* Together: where they do not fit beside the heading, both go on the next line. */}
        <div class="panel-head-actions">
          <button
            type="button"
            class="small"
            onClick={async () => {
              if (await session.act({ action: 'newConversation', projectId })) onNavigate();
            }}
          >
            {t('newChatButton')}
          </button>
          {canChoose && (
            <button
              type="button"
              class="small new-with-agent"
              aria-haspopup="dialog"
              aria-label={t('newConversationChooseLabel')}
              title={t('newConversationChooseLabel')}
              onClick={() => setChoosing(true)}
            >
              {t('newConversationChoose')}
            </button>
          )}
        </div>
      </div>
      {choosing && (
        <NewConversationSheet
          agents={agents ?? []}
          projects={projects ?? []}
          projectId={projectId}
          onClose={() => setChoosing(false)}
          onDone={() => {
            setChoosing(false);
            onNavigate();
          }}
        />
      )}
      <ConversationTitleFilter query={query} onQuery={setQuery} />
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
