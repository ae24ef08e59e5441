import { useState } from 'preact/hooks';
import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';
import { richMessage } from '../i18n/richMessage';
import { pathsWithin } from '../render/pathsWithin';
import type { PermissionOption } from '../state/agentMessageTypes';
import { ProjectRootContext, projectRootOf } from '../state/ProjectRootContext';
import { useSession } from '../state/SessionContext';
import type { Approval, ApprovalDecision } from '../state/types';
import { useStoreSelector } from '../state/useStoreSelector';
import { useWatching } from '../state/WatchingContext';
import { DecisionLine } from './DecisionLine';
import { DiffView } from './DiffView';

/** The page's words for an agent's options, by kind: the same on every agent and language. */
const OPTION_LABEL: { readonly [K in PermissionOption['kind']]: MessageKey } = {
  allow_once: 'optionAllowOnce',
  allow_always: 'optionAllowAlways',
  reject_once: 'optionDeny',
  reject_always: 'optionDenyAlways',
};

/** Props of {@link ApprovalCard}. */
export interface ApprovalCardProps {
  readonly approval: Approval;
}

/**
 * A tool call waiting for the person: what it would do (the file changes as diffs, when known),
 * and Allow / Deny, or an ACP agent's own options (allow once or always, deny once or always).
 * The same card in the conversation and in the approvals list, on every device.
 */
export function ApprovalCard({ approval }: ApprovalCardProps) {
  const session = useSession();
  const t = useT();
  const [busy, setBusy] = useState(false);
  // Answered elsewhere while this page did not know yet: the host's 422 says how, where and
  // when, and the card shows it at once instead of buttons that can no longer work.
  const [answered, setAnswered] = useState<ApprovalDecision | undefined>(undefined);
  const watching = useWatching();
  // The card also stands in Settings' list, away from its conversation: its own project's folder.
  const root = useStoreSelector(session.store, (state) =>
    projectRootOf(state.snapshot, approval.conversationId),
  );
  const live = useStoreSelector(session.store, (state) => state.status === 'live');
  // An agent names the file by its whole path on the host: from the project's folder, as the
  // diff below does (two lines of a phone's card otherwise), whole on hover.
  const tool = pathsWithin(approval.tool, root);
  const summary = pathsWithin(approval.summary, root);
  const heading = <strong title={tool === approval.tool ? undefined : approval.tool}>{tool}</strong>;
  const decide = async (decision: 'allow' | 'deny', optionId?: string) => {
    setBusy(true);
    const action = { action: 'approve', approvalId: approval.id, decision } as const;
    await session.act(optionId === undefined ? action : { ...action, optionId }, (error) => {
      const decided = error.problem?.decided;
      if (decided?.approvalId !== approval.id) return false;
      setAnswered(decided);
      session.say(error.detail, 'info');
      return true;
    });
    setBusy(false);
  };
  return (
    <section class="approval" aria-label={t('approvalFor', { tool })} data-approval-id={approval.id}>
      <p class="approval-summary">
        {/* An agent's request names its call by one title, given as both: said once. */}
        {approval.summary === approval.tool
          ? heading
          : richMessage(t('approvalWantsTo'), { tool: heading, summary })}
      </p>
      <ProjectRootContext.Provider value={root}>
        {approval.diffs?.map((diff) => (
          <DiffView key={diff.path} diff={diff} />
        ))}
      </ProjectRootContext.Provider>
      <details>
        <summary>{t('approvalArguments')}</summary>
        <pre>{approval.args}</pre>
      </details>
      {/* A tap on a network that died without a word: the request hangs (nothing has failed, so
          the pending list has nothing yet); the card says it is on its way. */}
      {busy && !live && !answered && (
        <p class="approval-waiting" role="status">
          {t('pendingSending')}
        </p>
      )}
      {answered ? (
        <DecisionLine decided={answered} />
      ) : watching ? (
        <p class="approval-waiting">{t('approvalWatching')}</p>
      ) : approval.options && approval.options.length > 0 ? (
        <div class="approval-actions approval-options">
          {approval.options.map((option) => {
            const allow = option.kind === 'allow_once' || option.kind === 'allow_always';
            return (
              <button
                key={option.optionId}
                type="button"
                class={allow ? (option.kind === 'allow_once' ? 'primary' : undefined) : 'danger'}
                title={option.name}
                data-option-kind={option.kind}
                disabled={busy}
                onClick={() => void decide(allow ? 'allow' : 'deny', option.optionId)}
              >
                {t(OPTION_LABEL[option.kind])}
              </button>
            );
          })}
        </div>
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
