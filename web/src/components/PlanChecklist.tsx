import type { StoreState } from '@webbridge/client-sdk';
import type { MessageKey } from '../i18n/catalogue';
import { useT } from '../i18n/I18nContext';
import { pure } from '../render/pure';
import type { PlanEntry } from '../state/agentChromeTypes';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';

/** What the checklist shows: the plan (kept by identity while words stream) and whether a turn runs. */
function planView({ snapshot }: StoreState) {
  const plan = snapshot?.agents?.session?.plan;
  if (!plan || plan.length === 0) return null;
  return { plan, running: snapshot.conversations.run.state !== 'idle' };
}

const STATUS_KEY: Record<PlanEntry['status'], MessageKey> = {
  pending: 'planPending',
  in_progress: 'planInProgress',
  completed: 'planCompleted',
};

const MARK: Record<PlanEntry['status'], string> = { pending: '○', in_progress: '◐', completed: '✓' };

/**
 * The agent's plan as a checklist pinned above the composer while the agent works (or while
 * entries are left to do): each entry with its status, in words for a screen reader too.
 */
export const PlanChecklist = pure(function PlanChecklist() {
  const session = useSession();
  const t = useT();
  const view = useStoreSelector(session.store, planView);
  if (view === null) return null;
  const { plan, running } = view;
  const done = plan.filter((e) => e.status === 'completed').length;
  if (!running && done === plan.length) return null;
  return (
    <details class="plan" open>
      <summary>
        <span class="plan-title">{t('planTitle')}</span>
        <span class="plan-progress">{t('planProgress', { done, total: plan.length })}</span>
      </summary>
      <ol class="plan-entries">
        {plan.map((entry, index) => (
          // The plan comes whole each time, entries without ids: their place is their key.
          <li key={index} class={`plan-entry plan-${entry.status}`}>
            <span class="plan-mark" aria-hidden="true">
              {MARK[entry.status]}
            </span>
            <span class="plan-content" dir="auto">
              {entry.content}
            </span>
            <span class="visually-hidden">{t(STATUS_KEY[entry.status])}</span>
          </li>
        ))}
      </ol>
    </details>
  );
});
