import { useState } from 'preact/hooks';
import { useSession } from '../state/SessionContext';
import type { Approval } from '../state/types';
import { useWatching } from '../state/WatchingContext';

/** Props of {@link ApprovalCard}. */
export interface ApprovalCardProps {
  readonly approval: Approval;
}

/** A tool call waiting for the person: what it would do, and Allow / Deny. */
export function ApprovalCard({ approval }: ApprovalCardProps) {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const watching = useWatching();
  const decide = async (decision: 'allow' | 'deny') => {
    setBusy(true);
    await session.act({ action: 'approve', approvalId: approval.id, decision });
    setBusy(false);
  };
  return (
    <section class="approval" aria-label={`Approval for ${approval.tool}`} data-approval-id={approval.id}>
      <p class="approval-summary">
        <strong>{approval.tool}</strong> wants to: {approval.summary}
      </p>
      <details>
        <summary>Arguments</summary>
        <pre>{approval.args}</pre>
      </details>
      {watching ? (
        <p class="approval-waiting">Waiting for a decision by someone in control.</p>
      ) : (
        <div class="approval-actions">
          <button type="button" class="primary" disabled={busy} onClick={() => void decide('allow')}>
            Allow
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => void decide('deny')}>
            Deny
          </button>
        </div>
      )}
    </section>
  );
}
