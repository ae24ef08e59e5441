import type { PushChoices } from '@webbridge/client-sdk';
import { useEffect, useState } from 'preact/hooks';
import { useI18n } from '../i18n/I18nContext';
import { asJson, browserSubscription, pushSupported, subscribeBrowser } from '../pwa/pushSubscription';
import { keepWorkerLanguage } from '../pwa/workerLanguage';
import { useSession } from '../state/SessionContext';
import { useWatching } from '../state/WatchingContext';

/** How often a visible page tells the host it is on screen (the host trusts a report 45 s). */
const PRESENCE_EVERY_MS = 20_000;

/** What the host said about this device's push. */
interface Status {
  readonly publicKey: string;
  readonly subscribed: PushChoices | null;
  readonly paired: boolean;
}

/**
 * This device's push notifications (Web Push from the host, shown even with the app closed):
 * the opt-in, and what to be told of (an approval waits; a reply finished or failed). Only a
 * paired device can subscribe. While subscribed, the page tells the host when it is on screen,
 * so nothing is pushed to a device that already shows it.
 */
export function PushSettings() {
  const session = useSession();
  const watching = useWatching();
  const { t, language } = useI18n();
  const [status, setStatus] = useState<Status | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const supported = pushSupported();

  useEffect(() => {
    let live = true;
    session.client.action({ action: 'pushStatus' }).then(
      (result) => live && setStatus(result),
      () => live && setStatus(null),
    );
    return () => {
      live = false;
    };
  }, [session]);

  // The service worker speaks the page's language when no page is open.
  useEffect(() => {
    if (supported) void keepWorkerLanguage(language).catch(() => undefined);
  }, [supported, language]);

  const subscribed = status?.subscribed ?? null;
  useEffect(() => {
    if (subscribed === null) return;
    const report = () =>
      void session.client
        .action({ action: 'reportPresence', visible: document.visibilityState === 'visible' })
        .catch(() => undefined);
    report();
    const timer = setInterval(() => document.visibilityState === 'visible' && report(), PRESENCE_EVERY_MS);
    document.addEventListener('visibilitychange', report);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', report);
    };
  }, [session, subscribed]);

  if (status === null || watching) return null;
  if (!status.paired) return <p class="push-hint">{t('pushNeedsDevice')}</p>;
  if (!supported) return <p class="push-hint">{t('pushUnsupported')}</p>;

  const choose = async (choices: PushChoices | null) => {
    setBusy(true);
    setProblem(null);
    try {
      if (choices === null) {
        await (await browserSubscription())?.unsubscribe();
        await session.client.action({ action: 'unsubscribePush' });
      } else {
        const existing = await browserSubscription();
        const subscription = existing ? asJson(existing) : await subscribeBrowser(status.publicKey);
        await session.client.action({ action: 'subscribePush', subscription, choices });
      }
      setStatus({ ...status, subscribed: choices });
    } catch (error) {
      setProblem(t('pushFailed', { reason: error instanceof Error ? error.message : String(error) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset class="push-settings" disabled={busy}>
      <legend>{t('pushTitle')}</legend>
      <label class="check">
        <input
          type="checkbox"
          checked={subscribed !== null}
          onChange={(event) =>
            void choose(event.currentTarget.checked ? { approvals: true, replies: true } : null)
          }
        />
        {t('pushOptIn')}
      </label>
      {subscribed !== null && (
        <div class="push-choices">
          <label class="check">
            <input
              type="checkbox"
              checked={subscribed.approvals}
              onChange={(event) => void choose({ ...subscribed, approvals: event.currentTarget.checked })}
            />
            {t('pushApprovals')}
          </label>
          <label class="check">
            <input
              type="checkbox"
              checked={subscribed.replies}
              onChange={(event) => void choose({ ...subscribed, replies: event.currentTarget.checked })}
            />
            {t('pushReplies')}
          </label>
        </div>
      )}
      {problem !== null && (
        <p class="push-hint" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
