import path from 'node:path';
import type { ListedSession } from '@webbridge/contract';
import type { ConversationTable } from '../db/ConversationTable';
import type { ProjectTable } from '../db/ProjectTable';
import type { MainExecutor } from '../executor/MainExecutor';
import type { AgentSessions } from './AgentSessions';
import { notApplicable } from './errors';
import type { Selection } from './Selection';

/** What {@link AgentDesk} works on: the tables it reads and writes, the selection, and moving to a conversation. */
export interface AgentDeskTarget {
  readonly executor: Pick<MainExecutor, 'run'>;
  readonly store: {
    readonly conversations: Pick<ConversationTable, 'get' | 'ofSession' | 'setAgentSession'>;
    readonly projects: Pick<ProjectTable, 'all' | 'get'>;
  };
  readonly selection: Pick<Selection, 'conversationId' | 'createConversation'>;
  moveTo(conversationId: string): void;
}

/**
 * Desk to phone: the sessions an agent lists (`session/list`, e.g. started in its own terminal UI
 * at the desk), and opening one as a conversation whose history is the agent's replay, so the
 * next `send` continues the work.
 */
export class AgentDesk {
  private readonly core: AgentDeskTarget;
  private readonly sessions: Pick<AgentSessions, 'connect' | 'open'>;

  constructor(core: AgentDeskTarget, sessions: Pick<AgentSessions, 'connect' | 'open'>) {
    this.core = core;
    this.sessions = sessions;
  }

  /** The sessions an agent lists (desk to phone), each with the conversation it is open in. */
  async listSessions(agentId: string): Promise<ListedSession[]> {
    const connection = await this.sessions.connect(agentId);
    const { sessions } = await connection.listSessions();
    return this.run(() =>
      sessions.map((s) => {
        const open = this.core.store.conversations.ofSession(agentId, s.sessionId);
        return {
          sessionId: s.sessionId,
          cwd: s.cwd,
          ...(s.title == null ? {} : { title: s.title }),
          ...(s.updatedAt == null ? {} : { updatedAt: s.updatedAt }),
          ...(open === undefined ? {} : { conversationId: open.id }),
        };
      }),
    );
  }

  /**
   * Opens a session the agent listed as the current conversation (or selects the one it is open
   * in), its history imported from the agent's replay; the next `send` continues it.
   */
  async openListed(agentId: string, sessionId: string, projectId: string | undefined): Promise<string> {
    const { store } = this.core;
    const existing = await this.run(() => {
      const row = store.conversations.ofSession(agentId, sessionId);
      if (row && row.id !== this.core.selection.conversationId) this.core.moveTo(row.id);
      return row?.id;
    });
    if (existing !== undefined) return existing;
    const listed = (await this.listSessions(agentId)).find((s) => s.sessionId === sessionId);
    const conversationId = await this.run(() => {
      const project =
        projectId === undefined
          ? projectOfFolder(store.projects.all(), listed?.cwd)
          : store.projects.get(projectId);
      if (!project) {
        throw notApplicable(
          listed === undefined
            ? `The agent "${agentId}" lists no session ${sessionId}.`
            : `No project has ${listed.cwd} as its workspace: add one for that folder first.`,
        );
      }
      const row = this.core.selection.createConversation(project.id, listed?.title ?? '', agentId);
      store.conversations.setAgentSession(row.id, sessionId);
      this.core.moveTo(row.id);
      return row.id;
    });
    await this.sessions.open(conversationId);
    return conversationId;
  }

  /** Runs `task` on the main executor. */
  private run<T>(task: () => T): Promise<T> {
    return this.core.executor.run(task);
  }
}

/** The project whose workspace is `folder`, if any. */
function projectOfFolder<P extends { readonly workspacePath: string }>(
  projects: readonly P[],
  folder: string | undefined,
): P | undefined {
  if (folder === undefined) return undefined;
  const wanted = path.resolve(folder);
  return projects.find((p) => path.resolve(p.workspacePath) === wanted);
}
