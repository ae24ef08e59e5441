import { useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { type NotificationsState, notificationsState, setNotifications } from '../pwa/notifications';

/**
 * The opt-in for background notifications: a checkbox whose click asks the browser's
 * permission (a user gesture, as browsers require). Says why when the browser cannot notify.
 */
export function NotificationsToggle() {
  const t = useT();
  const [state, setState] = useState<NotificationsState>(notificationsState);
  if (state === 'unavailable') return <p class="notify-hint">{t('notifyUnavailable')}</p>;
  return (
    <div class="notify-toggle">
      <label class="check">
        <input
          type="checkbox"
          checked={state === 'on'}
          disabled={state === 'denied'}
          onChange={async (event) => setState(await setNotifications(event.currentTarget.checked))}
        />{' '}
        {t('notifyOptIn')}
      </label>
      {state === 'denied' && <p class="notify-hint">{t('notifyBlocked')}</p>}
    </div>
  );
}
