import type { ConversationSummary } from '@webbridge/contract';
import type { Database } from 'better-sqlite3';
import type { GroupCommit } from './GroupCommit';

/**
 * A conversation as the host keeps it: the contract's summary (its `title` as stored, empty until
 * the first message names it) with its branch, its model and, for an ACP agent's conversation,
 * the agent, its session and why it cannot continue.
 */
export type StoredConversation = Pick<ConversationSummary, 'id' | 'title' | 'projectId' | 'createdAt'> & {
  /** The leaf of the branch shown; null before the first message. */
  readonly currentLeafId: string | null;
  readonly modelId: string | null;
  /** The ACP agent behind it; null for the built-in loop. */
  readonly agentId: string | null;
  /** Its ACP session, once created. */
  readonly agentSessionId: string | null;
  /** Why its agent session cannot continue, once known. */
  readonly agentUnavailable: string | null;
};

/** A row of `conversations` as SQLite holds it. Nothing outside this file sees it. */
interface ConversationRow {
  readonly id: string;
  readonly project_id: string;
  readonly title: string;
  readonly created_at: number;
  readonly current_leaf_id: string | null;
  readonly model_id: string | null;
  readonly agent_id: string | null;
  readonly agent_session_id: string | null;
  readonly agent_unavailable: string | null;
}

/**
 * The `conversations` table: reads and writes {@link StoredConversation}s. Writes join the turn's
 * group commit; the model, of which only the last value counts, is held until the turn's end
 * (`GroupCommit.writeLast`), so its reads flush it first (`beforeRead`).
 */
export class ConversationTable {
  private readonly group: GroupCommit;
  private readonly s: ReturnType<typeof prepare>;
  /**
   * The held-write key of each conversation's model, built once: a key built per write is a new
   * string that every Map lookup hashes again (docs/PERFORMANCE.md, "Request rate: the applied
   * action again").
   */
  private readonly modelKeys = new Map<string, string>();

  constructor(db: Database, group: GroupCommit) {
    this.group = group;
    this.s = prepare(db);
  }

  /** Every conversation, newest first. */
  all(): StoredConversation[] {
    this.group.beforeRead();
    return (this.s.all.all() as ConversationRow[]).map(fromRow);
  }

  /** A conversation, if it exists (a model set this turn included). */
  get(id: string): StoredConversation | undefined {
    this.group.beforeRead();
    return rowOrUndefined(this.s.get.get(id));
  }

  /** The newest conversation of a project. */
  latestOf(projectId: string): StoredConversation | undefined {
    this.group.beforeRead();
    return rowOrUndefined(this.s.latestOf.get(projectId));
  }

  /** The conversation an agent's session is open in, if any. */
  ofSession(agentId: string, sessionId: string): StoredConversation | undefined {
    this.group.beforeRead();
    return rowOrUndefined(this.s.ofSession.get(agentId, sessionId));
  }

  /** Adds a conversation. */
  insert(conversation: StoredConversation): void {
    this.group.beforeWrite();
    this.s.insert.run({
      id: conversation.id,
      project_id: conversation.projectId,
      title: conversation.title,
      created_at: conversation.createdAt,
      current_leaf_id: conversation.currentLeafId,
      model_id: conversation.modelId,
      agent_id: conversation.agentId,
      agent_session_id: conversation.agentSessionId,
      agent_unavailable: conversation.agentUnavailable,
    } satisfies ConversationRow);
  }

  /** Records a conversation's ACP session (a new one, or one that replaced it). */
  setAgentSession(id: string, sessionId: string): void {
    this.group.beforeWrite();
    this.s.setAgentSession.run(sessionId, id);
  }

  /** Records why a conversation's agent session cannot continue; null when it can again. */
  setAgentUnavailable(id: string, reason: string | null): void {
    this.group.beforeWrite();
    this.s.setAgentUnavailable.run(reason, id);
  }

  /** Renames a conversation (empty: untitled). */
  setTitle(id: string, title: string): void {
    this.group.beforeWrite();
    this.s.setTitle.run(title, id);
  }

  /** Moves a conversation's branch to another leaf. */
  setLeaf(id: string, leafId: string | null): void {
    this.group.beforeWrite();
    this.s.setLeaf.run(leafId, id);
  }

  /** Only the last model set in a turn is written (GroupCommit.writeLast). */
  setModel(id: string, modelId: string): void {
    let key = this.modelKeys.get(id);
    if (key === undefined) {
      key = `model\0${id}`;
      this.modelKeys.set(id, key);
    }
    this.group.writeLast(key, () => this.s.setModel.run(modelId, id));
  }

  /** Deletes a conversation; the schema cascades to its messages, attachments and approvals. */
  delete(id: string): void {
    this.group.beforeWrite();
    this.s.delete.run(id);
    this.modelKeys.delete(id);
  }
}

function rowOrUndefined(row: unknown): StoredConversation | undefined {
  return row === undefined ? undefined : fromRow(row as ConversationRow);
}

function fromRow(row: ConversationRow): StoredConversation {
  return {
    id: row.id,
    projectId: row.project_id,
    title: row.title,
    createdAt: row.created_at,
    currentLeafId: row.current_leaf_id,
    modelId: row.model_id,
    agentId: row.agent_id,
    agentSessionId: row.agent_session_id,
    agentUnavailable: row.agent_unavailable,
  };
}

function prepare(db: Database) {
  return {
    all: db.prepare('SELECT * FROM conversations ORDER BY created_at DESC, rowid DESC'),
    get: db.prepare('SELECT * FROM conversations WHERE id = ?'),
    latestOf: db.prepare(
      'SELECT * FROM conversations WHERE project_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
    ),
    ofSession: db.prepare(
      'SELECT * FROM conversations WHERE agent_id = ? AND agent_session_id = ? ORDER BY created_at DESC LIMIT 1',
    ),
    insert: db.prepare(
      `INSERT INTO conversations (id, project_id, title, created_at, current_leaf_id, model_id,
         agent_id, agent_session_id, agent_unavailable)
       VALUES (@id, @project_id, @title, @created_at, @current_leaf_id, @model_id,
         @agent_id, @agent_session_id, @agent_unavailable)`,
    ),
    setAgentSession: db.prepare('UPDATE conversations SET agent_session_id = ? WHERE id = ?'),
    setAgentUnavailable: db.prepare('UPDATE conversations SET agent_unavailable = ? WHERE id = ?'),
    setTitle: db.prepare('UPDATE conversations SET title = ? WHERE id = ?'),
    setLeaf: db.prepare('UPDATE conversations SET current_leaf_id = ? WHERE id = ?'),
    setModel: db.prepare('UPDATE conversations SET model_id = ? WHERE id = ?'),
    delete: db.prepare('DELETE FROM conversations WHERE id = ?'),
  };
}
