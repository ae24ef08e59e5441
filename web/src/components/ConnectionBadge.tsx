import type { ConnectionStatus } from '@webbridge/client-sdk';
import type { MessageKey } from '../i18n/catalogue';
import { useI18n } from '../i18n/I18nContext';
import { relativeTime } from '../i18n/relativeTime';
import { useSession } from '../state/SessionContext';
import { useNow } from '../state/useNow';
import { useStoreSelector } from '../state/useStoreSelector';

const LABEL: { readonly [S in ConnectionStatus]: MessageKey } = {
  connecting: 'statusConnecting',
  live: 'statusLive',
  reconnecting: 'statusReconnecting',
  offline: 'statusOffline',
  unauthorized: 'statusUnauthorized',
};

/**
 * The connection state, always visible. "Live" only while the stream is current (the SDK's
 * liveness: bytes within the heartbeat interval plus a grace); otherwise reconnecting or
 * offline, with how long ago the page was last current, so stale content never passes for
 * live content.
 */
export function ConnectionBadge() {
  const { status, lastCurrentAt } = useStoreSelector(useSession().store, (state) => ({
    status: state.status,
    lastCurrentAt: state.lastCurrentAt,
  }));
  const { t, language } = useI18n();
  const stale = status !== 'live' && lastCurrentAt !== null;
  const now = useNow(stale);
  const label = t(LABEL[status]);
  const since = stale ? t('statusLastCurrent', { when: relativeTime(language, lastCurrentAt, now) }) : '';
  return (
    <output
      class={`badge badge-${status}`}
      data-status={status}
      aria-live="polite"
      // The age is left out of what is announced: it changes every second.
      aria-label={t('connectionLabel', { status: label })}
      title={since || undefined}
    >
      <span class="dot" aria-hidden="true" />
      <span class="badge-label">{label}</span>
      {since && <span class="badge-since">{since}</span>}
    </output>
  );
}
