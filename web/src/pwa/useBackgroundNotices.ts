import type { Store } from '@webbridge/client-sdk';
import { agentNameOf, approvalAsk } from '@webbridge/contract';
import { useEffect, useRef } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import type { Snapshot } from '../state/types';
import { askKey } from './askKey';
import { notifyInBackground } from './notifications';

/** At most this much of a reply goes into its notification. */
const EXCERPT = 140;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT - 1)}…` : flat;
}

/**
 * Notifies, while the page is hidden and the person opted in, when a reply finishes (the run
 * goes back to idle) and when a new approval starts waiting. Compares each state of the store
 * with the one before, so the snapshot the page opens with notifies nothing. It listens to the
 * store itself, not to renders: renders wait for a frame (see useStoreSelector), and a hidden
 * page is exactly where notifications matter.
 */
export function useBackgroundNotices(store: Store): void {
  const t = useT();
  const translate = useRef(t);
  translate.current = t;
  useEffect(() => {
    let before: Snapshot | null = store.getState().snapshot;
    return store.subscribe(({ snapshot }) => {
      const previous = before;
      before = snapshot;
      // A streamed word changes neither: nothing to compare.
      if (snapshot === null || previous === null) return;
      if (
        snapshot.approvals === previous.approvals &&
        snapshot.conversations.run === previous.conversations.run
      )
        return;
      const tr = translate.current;
      const waited = new Set(previous.approvals.map((approval) => approval.id));
      for (const approval of snapshot.approvals) {
        if (waited.has(approval.id)) continue;
        // What waits, once and in plain words ("Write notes.md?"); never the call's other
        // arguments, nor an agent's title for it: a notification shows on a locked screen.
        const ask = approvalAsk(approval, agentNameOf(snapshot, approval.conversationId));
        notifyInBackground(
          tr('notifyApprovalTitle'),
          tr(askKey(ask.verb), { target: ask.target }),
          `approval-${approval.id}`,
        );
      }
      const running = (s: Snapshot) => s.conversations.run.state !== 'idle';
      if (running(previous) && !running(snapshot)) {
        const reply = snapshot.conversations.messages.findLast((message) => message.role === 'assistant');
        notifyInBackground(tr('notifyReplyTitle'), excerpt(reply?.text ?? ''), 'reply');
      }
    });
  }, [store]);
}
