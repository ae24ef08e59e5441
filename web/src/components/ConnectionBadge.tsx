import type { ConnectionStatus } from '@webbridge/client-sdk';
import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';
import { useStoreState } from '../state/hooks';
import { useSession } from '../state/SessionContext';

const LABEL: { readonly [S in ConnectionStatus]: MessageKey } = {
  connecting: 'statusConnecting',
  live: 'statusLive',
  reconnecting: 'statusReconnecting',
  offline: 'statusOffline',
  unauthorized: 'statusUnauthorized',
};

/** The connection state, always visible: live, reconnecting or offline. */
export function ConnectionBadge() {
  const { status } = useStoreState(useSession().store);
  const t = useT();
  const label = t(LABEL[status]);
  return (
    <output
      class={`badge badge-${status}`}
      data-status={status}
      aria-live="polite"
      aria-label={t('connectionLabel', { status: label })}
    >
      <span class="dot" aria-hidden="true" />
      {label}
    </output>
  );
}
