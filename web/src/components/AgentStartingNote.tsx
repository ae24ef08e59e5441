import type { StoreState } from '@webbridge/client-sdk';
import { agentNameOf } from '@webbridge/contract';
import { useT } from '../i18n/I18nContext';
import { useSession } from '../state/SessionContext';
import { useStoreSelector } from '../state/useStoreSelector';

/** The current conversation's agent's name while it starts; null otherwise (or the built-in loop). */
function startingAgent({ snapshot }: StoreState): string | null {
  if (!snapshot) return null;
  const agentId = snapshot.conversations.list.find((c) => c.id === snapshot.conversationId)?.agentId;
  const agent = snapshot.agents?.list.find((a) => a.name === agentId);
  if (agent === undefined || agent.builtin || agent.state !== 'starting') return null;
  return agentNameOf(snapshot, snapshot.conversationId) ?? agent.name;
}

/**
 * "Starting OpenCode…" in the empty reply a send to a stopped agent waits with: the first send
 * after a host restart starts the agent's process and reopens its session, seconds in which
 * "Writing…" over nothing read as a page that hung. Drawn only in such a reply (MessageItem).
 */
export function AgentStartingNote() {
  const session = useSession();
  const t = useT();
  const agent = useStoreSelector(session.store, startingAgent);
  if (agent === null) return null;
  return (
    <p class="agent-starting" role="status">
      {t('agentStartingNamed', { agent })}
    </p>
  );
}
