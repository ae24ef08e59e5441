import { useT } from '../i18n/I18nContext';
import type { OpenFromLink } from '../pwa/useOpenFromPush';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';
import { useWatching } from '../state/WatchingContext';

/**
 * Names the conversation a link (`/?conversation=…`) pointed to while the host is in another:
 * the host switches only when the person taps "Open it" (a watching device, which cannot
 * switch, only reads the name). Gone once the host is there anyway, or the person stays.
 */
export function LinkedConversationBar({ linked, openLinked, dismissLinked }: OpenFromLink) {
  const session = useSession();
  const t = useT();
  const watching = useWatching();
  const id = linked?.conversationId;
  const { here, title } = useStoreSelector(session.store, ({ snapshot }) => ({
    here: snapshot?.conversationId === id,
    title: snapshot?.conversations.list.find((c) => c.id === id)?.title ?? null,
  }));
  if (linked === null || here || title === null) return null;
  return (
    <div
      class="notice notice-info linked-conversation"
      role="status"
      data-conversation-id={linked.conversationId}
    >
      <span dir="auto">{t('linkedConversation', { title: title || t('newChat') })}</span>
      <div class="linked-actions">
        {!watching && (
          <button type="button" onClick={openLinked}>
            {t('openLinkedConversation')}
          </button>
        )}
        <button type="button" onClick={dismissLinked}>
          {t('stayHere')}
        </button>
      </div>
    </div>
  );
}
