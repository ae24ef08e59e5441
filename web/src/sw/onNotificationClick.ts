import { type PushPayload, pushPayloadSchema } from '@webbridge/contract';
import { decideFromNotification } from './decideFromNotification';
import { keepAlive } from './keepAlive';
import { closeTapped } from './noticeTurn';
import { openApp } from './openApp';
import { BASE, scope } from './scope';

/** Brings the app to the front: an open window, else a new one at the start page. */
async function focusApp(): Promise<unknown> {
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows[0];
  return open ? open.focus() : scope.clients.openWindow(BASE);
}

/** What a tap on a push's notification does, once the tapped notification is closed. */
function tapOn(payload: PushPayload, action: string): () => Promise<unknown> {
  switch (payload.kind) {
    case 'approval':
      return action === 'allow' || action === 'deny'
        ? () => decideFromNotification(payload, action)
        : () => openApp({ approval: payload.approvalId, conversation: payload.conversationId });
    case 'answered':
      return () => openApp({ approval: payload.approvalId });
    case 'reply':
      return () => openApp({ conversation: payload.conversationId });
    case 'withdrawn':
      // Never shown (a withdrawn approval's notification is closed).
      return focusApp;
    default: {
      const never: never = payload;
      return never;
    }
  }
}

/**
 * A tap on a notification. A push's approval: Allow / Deny answer with its token, a tap opens
 * the app at it; an answer or a reply opens the app at it. A notification the page showed
 * through this worker (phones have no `new Notification`) brings the page to the front.
 */
export function onNotificationClick(event: NotificationEvent): void {
  // Before anything is sent: a decision's replacement is shown only after this close (in turn).
  const closed = closeTapped(event.notification).catch(() => undefined);
  // What this worker kept when it showed a push (showNotice.ts); a page's notice has none.
  const push = pushPayloadSchema.safeParse(event.notification.data);
  keepAlive(event, closed.then(push.success ? tapOn(push.data, event.action) : focusApp));
}
