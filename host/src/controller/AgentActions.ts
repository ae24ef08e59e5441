import type { ActionResultOf } from '@webbridge/contract';
import { AgentDesk, type AgentDeskTarget } from './AgentDesk';
import type { AgentSessions } from './AgentSessions';
import { notApplicable } from './errors';

/** What {@link AgentActions} works with. */
export interface AgentActionsDeps {
  /** Where a listed session is opened (and the current conversation's agent is checked). */
  readonly desk: AgentDeskTarget;
  readonly sessions: Pick<AgentSessions, 'connect' | 'open' | 'setMode' | 'setOption'>;
}

/**
 * The actions on agents: the sessions an agent lists and opening one (desk to phone), and the
 * current conversation's agent session's mode and settings. Each checks on the executor and
 * answers with a promise (they wait on the agent: `DeferredActionName` in the server), which
 * rejects with a `ProtocolError` or the agent's readable `AgentError`.
 */
export class AgentActions {
  private readonly core: AgentActionsDeps['desk'];
  private readonly sessions: AgentActionsDeps['sessions'];
  private readonly desk: AgentDesk;

  constructor(deps: AgentActionsDeps) {
    this.core = deps.desk;
    this.sessions = deps.sessions;
    this.desk = new AgentDesk(deps.desk, deps.sessions);
  }

  /** The sessions an agent lists, each with the conversation it is open in, if any. */
  listSessions(agentId: string): Promise<ActionResultOf<'agentSessions'>> {
    return this.desk.listSessions(agentId).then((sessions) => ({ sessions }));
  }

  /** Opens a listed session as the current conversation (its history imported) or selects it. */
  openSession(
    agentId: string,
    sessionId: string,
    projectId?: string,
  ): Promise<ActionResultOf<'openAgentSession'>> {
    return this.desk.openListed(agentId, sessionId, projectId).then((conversationId) => ({ conversationId }));
  }

  /** Switches the current conversation's agent session to a mode. */
  setMode(modeId: string): Promise<ActionResultOf<'agentMode'>> {
    const conversationId = this.agentConversation();
    return this.sessions.setMode(conversationId, modeId).then(() => ({ modeId }));
  }

  /** Sets one of the current conversation's agent session settings. */
  setOption(optionId: string, value: string | boolean): Promise<ActionResultOf<'agentOption'>> {
    const conversationId = this.agentConversation();
    return this.sessions
      .setOption(conversationId, optionId, value)
      .then((configOptions) => ({ configOptions }));
  }

  private agentConversation(): string {
    const { conversationId } = this.core.selection;
    if (this.core.store.conversations.get(conversationId)?.agentId == null) {
      throw notApplicable('This conversation is not backed by an ACP agent.');
    }
    return conversationId;
  }
}
