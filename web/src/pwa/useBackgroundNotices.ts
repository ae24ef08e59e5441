import { useEffect, useRef } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import type { Snapshot } from '../state/types';
import { notifyInBackground } from './notifications';

/** At most this much of a reply goes into its notification. */
const EXCERPT = 140;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT - 1)}…` : flat;
}

/**
 * Notifies, while the page is hidden and the person opted in, when a reply finishes (the run
 * goes back to idle) and when a new approval starts waiting. Compares each snapshot with the
 * one before, so the snapshot the page opens with notifies nothing.
 */
export function useBackgroundNotices(snapshot: Snapshot | null): void {
  const t = useT();
  const before = useRef<{ running: boolean; approvals: ReadonlySet<string> } | null>(null);
  useEffect(() => {
    if (snapshot === null) return;
    const running = snapshot.conversations.run.state !== 'idle';
    const approvals = new Set(snapshot.approvals.map((approval) => approval.id));
    const previous = before.current;
    before.current = { running, approvals };
    if (previous === null) return;
    for (const approval of snapshot.approvals) {
      if (previous.approvals.has(approval.id)) continue;
      notifyInBackground(
        t('notifyApprovalTitle'),
        t('notifyApprovalBody', { tool: approval.tool, summary: approval.summary }),
        `approval-${approval.id}`,
      );
    }
    if (previous.running && !running) {
      const reply = snapshot.conversations.messages.findLast((message) => message.role === 'assistant');
      notifyInBackground(t('notifyReplyTitle'), excerpt(reply?.text ?? ''), 'reply');
    }
  }, [snapshot, t]);
}
