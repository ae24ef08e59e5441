import { useT } from '../i18n/I18nContext';
import type { Approval } from '../state/types';
import { ApprovalCard } from './ApprovalCard';

/** Props of {@link ApprovalsPanel}. */
export interface ApprovalsPanelProps {
  readonly approvals: readonly Approval[];
}

/** Every pending approval, in any conversation. */
export function ApprovalsPanel({ approvals }: ApprovalsPanelProps) {
  const t = useT();
  return (
    <section class="panel panel-approvals" aria-labelledby="approvals-heading">
      <h2 id="approvals-heading">{t('approvalsWaiting', { count: approvals.length })}</h2>
      {approvals.map((approval) => (
        <ApprovalCard key={approval.id} approval={approval} />
      ))}
    </section>
  );
}
