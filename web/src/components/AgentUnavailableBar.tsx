import type { StoreState } from '@webbridge/client-sdk';
import { useT } from '../i18n/I18nContext';
import { pure } from '../render/pure';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';

/** Why the current conversation's agent cannot take another turn, if it cannot. */
function unavailableReason({ snapshot }: StoreState): string | null {
  if (snapshot === null) return null;
  const current = snapshot.conversations.list.find((c) => c.id === snapshot.conversationId);
  if (current?.unavailable) return current.unavailable;
  const agentSession = snapshot.agents?.session;
  if (agentSession && !agentSession.canContinue) return agentSession.reason ?? '';
  return null;
}

/**
 * Says above the composer that this agent conversation cannot continue (e.g. the agent cannot
 * reopen its session after a host restart), with the host's reason; its history stays readable.
 */
export const AgentUnavailableBar = pure(function AgentUnavailableBar() {
  const session = useSession();
  const t = useT();
  const reason = useStoreSelector(session.store, unavailableReason);
  if (reason === null) return null;
  return (
    <p class="agent-unavailable" role="status" dir="auto">
      {t('agentCannotContinue', { reason })}
    </p>
  );
});
