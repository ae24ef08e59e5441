import { OPEN_MESSAGE, type OpenMessage, type OpenTarget } from '../pwa/openMessage';
import { issueTapTicket, TAP_PARAM } from '../pwa/tapTicket';
import { BASE, scope } from './scope';

/**
 * Opens the app (an open window first) at `target`: `?approval=` or `?conversation=`. An open
 * window is loaded and connected: it goes to the place itself (useOpenFromPush.ts). A new window
 * also gets a tap ticket (pwa/tapTicket.ts), so that it goes there at once too, where a link of
 * the same address from anyone else would only name the conversation.
 */
export async function openApp(target: OpenTarget): Promise<unknown> {
  const query: Record<string, string> = {};
  if (target.approval !== undefined) query.approval = target.approval;
  if (target.conversation !== undefined) query.conversation = target.conversation;
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows[0];
  if (open) {
    const message: OpenMessage = { type: OPEN_MESSAGE, ...target };
    open.postMessage(message);
    return open.focus();
  }
  query[TAP_PARAM] = await issueTapTicket().catch(() => '');
  return scope.clients.openWindow(
    new URL(`${BASE}?${new URLSearchParams(query)}`, scope.location.origin).href,
  );
}
