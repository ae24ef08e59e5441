import { useEffect } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { useObservable } from '../state/hooks';
import { useSession } from '../state/SessionContext';

/** The latest notice (an action that failed, or did nothing after a 409), dismissable. */
export function NoticeBar() {
  const session = useSession();
  const t = useT();
  const notice = useObservable(session.notice);
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => {
      if (session.notice.get() === notice) session.notice.set(null);
    }, 8000);
    return () => clearTimeout(timer);
  }, [notice, session]);
  if (notice === null) return null;
  return (
    <div class={`notice notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
      <span>{notice.phrase ? t(notice.phrase.key, notice.phrase.params) : notice.text}</span>
      <button type="button" class="icon" aria-label={t('dismiss')} onClick={() => session.notice.set(null)}>
        ×
      </button>
    </div>
  );
}
