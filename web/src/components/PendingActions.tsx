import type { PendingAction } from '@webbridge/client-sdk';
import { useT } from '../i18n/I18nContext';

/** Props of {@link PendingActions}. */
export interface PendingActionsProps {
  readonly pending: readonly PendingAction[];
}

/**
 * What was sent but could not reach the host yet: a message shows its text marked "Sending…",
 * another action its name. The SDK sends each again with its actionId until the host answers,
 * so the person sees that nothing was lost, and nothing is sent twice.
 */
export function PendingActions({ pending }: PendingActionsProps) {
  const t = useT();
  if (pending.length === 0) return null;
  return (
    <ul class="pending-actions" aria-label={t('pendingList')}>
      {pending.map(({ actionId, action }) => (
        <li key={actionId} class="pending-action" data-action={action.action}>
          {action.action === 'send' ? (
            <>
              <span class="pending-text" dir="auto">
                {action.text}
              </span>
              <span class="pending-state" role="status">
                {t('pendingSending')}
              </span>
            </>
          ) : (
            <span class="pending-state" role="status">
              {t('pendingAction', { action: action.action })}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
