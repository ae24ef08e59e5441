import type { PushPayload } from '@webbridge/contract';
import { decisionKey } from '../i18n/decisionKey';
import { askKey } from '../pwa/askKey';
import { closeTagged } from './noticeTurn';
import { BASE, scope } from './scope';
import type { WorkerWords } from './workerWords';

const ICON = `${BASE}icons/icon-192.png`;

/**
 * The options a persistent notification takes that TypeScript's library leaves out (they are
 * Chromium's and Firefox's, not every engine's): buttons, and alerting again on a replacement.
 */
interface PersistentOptions extends NotificationOptions {
  readonly actions?: readonly { readonly action: string; readonly title: string }[];
  readonly renotify?: boolean;
}

function show(title: string, options: PersistentOptions): Promise<void> {
  return scope.registration.showNotification(title, options);
}

/**
 * What a notification keeps for a tap: the payload it was shown for, and a fresh id to tell it
 * from a replacement with the same tag (noticeTurn.ts).
 */
type NoticeData = PushPayload & { readonly notice: string };

/**
 * Shows (or, for a withdrawn approval, closes) the notification for a push, in `words`'
 * language: what waits once in plain words ("Write notes.md?"), how it was answered ("Allowed
 * on Pixel 7 at 10:14"), or that a reply finished or failed.
 */
export function showNotice(words: WorkerWords, payload: PushPayload): Promise<void> {
  const { t } = words;
  const data: NoticeData = { ...payload, notice: crypto.randomUUID() };
  const base = { tag: payload.tag, icon: ICON, lang: words.language, dir: words.dir, data };
  switch (payload.kind) {
    case 'approval':
      return show(t('notifyApprovalTitle'), {
        ...base,
        body: t(askKey(payload.ask.verb), { target: payload.ask.target }),
        renotify: true,
        requireInteraction: true,
        // Shown where the platform shows actions (Android, desktop); elsewhere a tap opens the app.
        actions: [
          { action: 'allow', title: t('allow') },
          { action: 'deny', title: t('deny') },
        ],
      });
    case 'answered': {
      const { decided } = payload;
      const device = decided.by.kind === 'device' ? decided.by.name : '';
      return show(t(decisionKey(decided), { device, time: words.time(decided.at) }), {
        ...base,
        body: payload.tool,
      });
    }
    case 'withdrawn':
      return closeTagged(payload.tag);
    case 'reply':
      return show(
        t(payload.outcome === 'finished' ? 'pushReplyFinishedTitle' : 'pushReplyFailedTitle'),
        // No title unless the host was started with reply titles on.
        { ...base, body: payload.title ?? '' },
      );
    default: {
      const never: never = payload;
      return never;
    }
  }
}
