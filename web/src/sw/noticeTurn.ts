import { scope } from './scope';

// Every show and close of a notification runs in turn. A browser may identify a tagged
// notification by its tag alone (Chromium does), so a close that reaches it after the
// replacement with the same tag was shown removes the replacement: in turn, a close is sent
// before any later show.
let turn: Promise<unknown> = Promise.resolve();

/** Runs `step` after every show and close asked for before it. */
export function inTurn<T>(step: () => Promise<T> | T): Promise<T> {
  const run = turn.then(step, step);
  turn = run.catch(() => undefined);
  return run;
}

/** The id the worker gave a notification it showed (its data's `notice`), if any. */
function noticeOf(notification: Notification): string | undefined {
  const data: unknown = notification.data;
  return typeof data === 'object' && data !== null && 'notice' in data && typeof data.notice === 'string'
    ? data.notice
    : undefined;
}

/** A notification with Chromium's and Firefox's `timestamp` (TypeScript's library has none). */
type Stamped = Notification & { readonly timestamp?: number };

/** Whether `shown` (from getNotifications) is the notification `tapped` was, not a replacement. */
function sameNotice(shown: Stamped, tapped: Stamped): boolean {
  const id = noticeOf(tapped);
  if (id !== undefined) return noticeOf(shown) === id;
  return shown.timestamp === tapped.timestamp && shown.title === tapped.title && shown.body === tapped.body;
}

/**
 * Closes a tapped notification only while it is still the one shown under its tag: never the
 * replacement ("Allowed on Pixel 7 at 10:14") that took its place, however fast it came.
 */
export function closeTapped(tapped: Notification): Promise<void> {
  return inTurn(async () => {
    if (!tapped.tag) {
      tapped.close();
      return;
    }
    for (const shown of await scope.registration.getNotifications({ tag: tapped.tag })) {
      if (sameNotice(shown, tapped)) shown.close();
    }
  });
}

/** Closes every notification under `tag` (an approval withdrawn). */
export async function closeTagged(tag: string): Promise<void> {
  for (const notification of await scope.registration.getNotifications({ tag })) notification.close();
}
