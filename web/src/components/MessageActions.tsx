import { useT } from '../i18n/I18nContext';
import { useForkable } from '../state/ForkableContext';
import { useIdle } from '../state/IdleContext';
import { useSession } from '../state/SessionContext';
import type { Message } from '../state/types';
import { useWatching } from '../state/WatchingContext';
import { BranchSwitcher } from './BranchSwitcher';

/** Props of {@link MessageActions}. */
export interface MessageActionsProps {
  readonly message: Message;
  readonly isLast: boolean;
  readonly isLastReply: boolean;
  readonly onEdit: () => void;
}

/**
 * What can be done with a message: switch its version, edit, regenerate, continue. Nothing in
 * an ACP agent's conversation (see ForkableContext).
 */
export function MessageActions({ message, isLast, isLastReply, onEdit }: MessageActionsProps) {
  const session = useSession();
  const t = useT();
  const idle = useIdle();
  const watching = useWatching();
  const forkable = useForkable();
  const canContinue =
    idle &&
    isLast &&
    message.role === 'assistant' &&
    !message.tool &&
    (message.status === 'stopped' || message.status === 'error');
  const canRegenerate =
    message.role === 'assistant' &&
    message.status !== 'streaming' &&
    message.status !== 'waiting' &&
    isLastReply;
  // An agent's conversation only goes forward: every action here would fork or resume it.
  if (watching || !forkable) return null;
  if (message.sibling.count <= 1 && message.role !== 'user' && !canRegenerate && !canContinue) return null;

  return (
    <div class="message-actions">
      {message.sibling.count > 1 && <BranchSwitcher message={message} disabled={!idle} />}
      {message.role === 'user' && (
        <button type="button" class="link-button" disabled={!idle} onClick={onEdit}>
          {t('edit')}
        </button>
      )}
      {canRegenerate && (
        <button
          type="button"
          class="link-button"
          disabled={!idle}
          onClick={() => void session.sensitive((client) => client.regenerate(message.id))}
        >
          {t('regenerate')}
        </button>
      )}
      {canContinue && (
        <button
          type="button"
          class="link-button"
          onClick={() => void session.sensitive((client) => client.continue())}
        >
          {t('continue')}
        </button>
      )}
    </div>
  );
}
