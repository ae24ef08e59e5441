import { useSession } from '../state/SessionContext';
import type { Snapshot } from '../state/types';
import { ConversationItem } from './ConversationItem';

/** Props of {@link ConversationList}. */
export interface ConversationListProps {
  readonly snapshot: Snapshot;
  readonly onNavigate: () => void;
}

/** The conversations of the current project, newest first, with "New chat". */
export function ConversationList({ snapshot, onNavigate }: ConversationListProps) {
  const session = useSession();
  const list = snapshot.conversations.list
    .filter((c) => c.projectId === snapshot.projectId)
    .sort((a, b) => b.createdAt - a.createdAt);
  return (
    <section class="panel" aria-labelledby="conversations-heading">
      <div class="panel-head">
        <h2 id="conversations-heading">Conversations</h2>
        <button
          type="button"
          class="small"
          onClick={async () => {
            if (await session.act({ action: 'newConversation', projectId: snapshot.projectId })) onNavigate();
          }}
        >
          + New chat
        </button>
      </div>
      <ul class="conversations">
        {list.map((conversation) => (
          <ConversationItem
            key={conversation.id}
            conversation={conversation}
            current={conversation.id === snapshot.conversationId}
            onNavigate={onNavigate}
          />
        ))}
      </ul>
    </section>
  );
}
