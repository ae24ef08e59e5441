import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Session } from '../state/createSession';
import { isOpenMessage, type OpenTarget } from './openMessage';
import { redeemTapTicket, TAP_PARAM } from './tapTicket';

/** A conversation a link named, shown in the page until the person opens it or stays. */
interface LinkedConversation {
  readonly conversationId: string;
  /** The approval the link named in it, whose card is brought into view once it is open. */
  readonly approval?: string | undefined;
}

/** What {@link useOpenFromPush} offers the page. */
export interface OpenFromLink {
  /** A conversation a link named that is not the host's current one; null when none waits. */
  readonly linked: LinkedConversation | null;
  /** The person chose to open it: the host switches to it. */
  readonly openLinked: () => void;
  /** The person stays where the host is. */
  readonly dismissLinked: () => void;
}

/** Makes the target's conversation current and brings the approval's card into view. */
async function go(session: Session, target: OpenTarget): Promise<void> {
  const state = session.store.getState().snapshot;
  if (state === null) return;
  const approval = state.approvals.find((a) => a.id === target.approval);
  const conversationId = approval?.conversationId ?? target.conversation;
  if (conversationId && conversationId !== state.conversationId) {
    await session.act({ action: 'selectConversation', conversationId });
  }
  if (approval) {
    // After the conversation's messages are on screen.
    setTimeout(
      () => document.querySelector(`[data-approval-id="${CSS.escape(approval.id)}"]`)?.scrollIntoView(),
      300,
    );
  }
}

/**
 * Takes the page where a tapped notification or a link points, once connected.
 * - Told by the service worker (a `webbridge:open` message: a notification tapped while a
 *   window was open), the page goes there: the person tapped that notification.
 * - Opened by the service worker for a tapped notification (its address carries a tap ticket
 *   the worker left in Cache Storage: pwa/tapTicket.ts), the page goes there too.
 * - Opened at `/?approval=…&conversation=…` by any link anyone may send, the page does not
 *   move the host: switching the host's conversation moves
 *   every device's page and where the next send lands. It names the conversation
 *   ({@link OpenFromLink.linked}) and switches only when the person chooses to open it. A link
 *   to the conversation the host is in already just brings the approval into view.
 * The query leaves the address either way.
 */
export function useOpenFromPush(session: Session, connected: boolean): OpenFromLink {
  const [linked, setLinked] = useState<LinkedConversation | null>(null);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (isOpenMessage(event.data)) void go(session, event.data);
    };
    navigator.serviceWorker?.addEventListener('message', onMessage);
    return () => navigator.serviceWorker?.removeEventListener('message', onMessage);
  }, [session]);

  useEffect(() => {
    if (!connected) return;
    const params = new URLSearchParams(location.search);
    const target = {
      approval: params.get('approval') ?? undefined,
      conversation: params.get('conversation') ?? undefined,
    };
    if (target.approval === undefined && target.conversation === undefined) return;
    const ticket = params.get(TAP_PARAM);
    history.replaceState(history.state, '', location.pathname + location.hash);
    void (async () => {
      // The service worker's own window for a tapped notification: the person asked to go there.
      if (ticket !== null && (await redeemTapTicket(ticket))) return go(session, target);
      const state = session.store.getState().snapshot;
      if (state === null) return;
      const approval = state.approvals.find((a) => a.id === target.approval);
      const conversationId = approval?.conversationId ?? target.conversation;
      const known = state.conversations.list.some((c) => c.id === conversationId);
      if (conversationId === undefined || conversationId === state.conversationId || !known) {
        // Nothing to switch: only the approval's card, when it is here, comes into view.
        return go(session, { approval: target.approval });
      }
      setLinked({ conversationId, approval: approval?.id });
    })();
  }, [session, connected]);

  const openLinked = useCallback(() => {
    if (linked === null) return;
    setLinked(null);
    void go(session, { conversation: linked.conversationId, approval: linked.approval });
  }, [session, linked]);
  const dismissLinked = useCallback(() => setLinked(null), []);

  return { linked, openLinked, dismissLinked };
}
