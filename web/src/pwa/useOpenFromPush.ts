import { useEffect } from 'preact/hooks';
import type { Session } from '../state/createSession';
import { isOpenMessage, type OpenTarget } from './openMessage';

/** Makes the target's conversation current and brings the approval's card into view. */
async function open(session: Session, target: OpenTarget): Promise<void> {
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
 * Takes the page where a tapped notification points, once connected: the app opened at
 * `/?approval=…&conversation=…` by the service worker, or told by it (a `webbridge:open`
 * message) when a window was already open. The query then leaves the address.
 */
export function useOpenFromPush(session: Session, connected: boolean): void {
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (isOpenMessage(event.data)) void open(session, event.data);
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
    history.replaceState(history.state, '', location.pathname + location.hash);
    void open(session, target);
  }, [session, connected]);
}
