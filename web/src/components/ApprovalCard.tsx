import { useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { richMessage } from '../i18n/richMessage';
import { useSession } from '../state/SessionContext';
import type { Approval, ApprovalDecision } from '../state/types';
import { useWatching } from '../state/WatchingContext';
import { DecisionLine } from './DecisionLine';

/** Props of {@link ApprovalCard}. */
export interface ApprovalCardProps {
  readonly approval: Approval;
}

/** A tool call waiting for the person: what it would do, and Allow / Deny. */
export function ApprovalCard({ approval }: ApprovalCardProps) {
  const session = useSession();
  const t = useT();
  const [busy, setBusy] = useState(false);
  // Answered elsewhere while this page did not know yet: the host's 422 says how, where and
  // when, and the card shows it at once instead of buttons that can no longer work.
  const [answered, setAnswered] = useState<ApprovalDecision | undefined>(undefined);
  const watching = useWatching();
  const decide = async (decision: 'allow' | 'deny') => {
    setBusy(true);
    await session.act({ action: 'approve', approvalId: approval.id, decision }, (error) => {
      const decided = error.problem?.decided;
      if (decided?.approvalId !== approval.id) return false;
      setAnswered(decided);
      session.say(error.detail, 'info');
      return true;
    });
    setBusy(false);
  };
  return (
    <section
      class="approval"
      aria-label={t('approvalFor', { tool: approval.tool })}
      data-approval-id={approval.id}
    >
      <p class="approval-summary">
        {richMessage(t('approvalWantsTo'), {
          tool: <strong>{approval.tool}</strong>,
          summary: approval.summary,
        })}
      </p>
      <details>
        <summary>{t('approvalArguments')}</summary>
        <pre>{approval.args}</pre>
      </details>
      {answered ? (
        <DecisionLine decided={answered} />
      ) : watching ? (
        <p class="approval-waiting">{t('approvalWatching')}</p>
      ) : (
        <div class="approval-actions">
          <button type="button" class="primary" disabled={busy} onClick={() => void decide('allow')}>
            {t('allow')}
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => void decide('deny')}>
            {t('deny')}
          </button>
        </div>
      )}
    </section>
  );
}
