/** Where the person's opt-in is kept (this browser only; nothing is sent to the host). */
const OPT_IN_KEY = 'webbridge.notifications';

/**
 * Whether notifications can be shown: `on` after the person opted in and the browser granted
 * the permission; `off` before; `denied` when the browser refuses; `unavailable` without the
 * Notification API or outside a secure context (plain HTTP on a network).
 */
export type NotificationsState = 'on' | 'off' | 'denied' | 'unavailable';

/** The current {@link NotificationsState}. */
export function notificationsState(): NotificationsState {
  if (!window.isSecureContext || typeof Notification === 'undefined') return 'unavailable';
  if (Notification.permission === 'denied') return 'denied';
  const optedIn = localStorage.getItem(OPT_IN_KEY) === 'on';
  return optedIn && Notification.permission === 'granted' ? 'on' : 'off';
}

/**
 * Turns notifications on or off. Turning them on asks the browser's permission, so it must run
 * in the handler of the person's click (browsers refuse a prompt without a user gesture).
 */
export async function setNotifications(on: boolean): Promise<NotificationsState> {
  if (!on) {
    localStorage.setItem(OPT_IN_KEY, 'off');
    return notificationsState();
  }
  if (notificationsState() === 'unavailable') return 'unavailable';
  const permission =
    Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission === 'granted') localStorage.setItem(OPT_IN_KEY, 'on');
  return notificationsState();
}

/**
 * Shows a notification if the person opted in and the page is hidden (a visible page already
 * shows what happened). `tag` replaces an earlier notification about the same thing.
 */
export function notifyInBackground(title: string, body: string, tag: string): void {
  if (document.visibilityState !== 'hidden' || notificationsState() !== 'on') return;
  // Relative to the page: under a base path the icon lives there too.
  const options = { body, tag, icon: 'icons/icon-192.png' };
  try {
    const notification = new Notification(title, options);
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
  } catch {
    // Android's Chrome has no `new Notification` (TypeError: use the service worker's).
    void navigator.serviceWorker?.getRegistration().then((registration) => {
      void registration?.showNotification(title, options);
    });
  }
}
