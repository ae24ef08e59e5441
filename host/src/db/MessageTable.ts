import type { Database, Statement } from 'better-sqlite3';
import type { GroupCommit } from './GroupCommit';
import { AGENT_FIELDS, type AgentFields, type MessageChange, type StoredMessage } from './StoredMessage';

/** A row of `messages` as SQLite holds it. Nothing outside this file sees it. */
interface MessageRow {
  readonly id: string;
  readonly conversation_id: string;
  readonly parent_id: string | null;
  readonly role: StoredMessage['role'];
  readonly text: string;
  readonly status: StoredMessage['status'];
  readonly created_at: number;
  readonly model: string | null;
  readonly error: string | null;
  readonly tool_name: string | null;
  readonly tool_args: string | null;
  readonly approval_id: string | null;
  readonly sibling_order: number;
  /** JSON of the message's {@link AgentFields}; null when it has none (most built-in messages). */
  readonly agent: string | null;
}

/**
 * The `messages` table: reads and writes {@link StoredMessage}s, the contract's message, and
 * keeps the snake_case row to itself. Writes join the store's group commit exactly as the
 * store's own do (`beforeWrite` first), so a message written here commits with the turn.
 */
export class MessageTable {
  private readonly db: Database;
  private readonly group: GroupCommit;
  private readonly s: ReturnType<typeof prepare>;
  private readonly changeCache = new Map<string, Statement>();

  constructor(db: Database, group: GroupCommit) {
    this.db = db;
    this.group = group;
    this.s = prepare(db);
  }

  /** A conversation's messages, each parent's children in sibling order. */
  ofConversation(conversationId: string): StoredMessage[] {
    return (this.s.messages.all(conversationId) as MessageRow[]).map(fromRow);
  }

  /** A message of any conversation. */
  get(id: string): StoredMessage | undefined {
    const row = this.s.message.get(id) as MessageRow | undefined;
    return row && fromRow(row);
  }

  /** Inserts a message as the last sibling under its parent. */
  insert(message: StoredMessage): void {
    const { max } = this.s.maxSiblingOrder.get(message.conversationId, message.parentId) as {
      max: number | null;
    };
    this.group.beforeWrite();
    this.s.insert.run({
      id: message.id,
      conversation_id: message.conversationId,
      parent_id: message.parentId,
      role: message.role,
      text: message.text,
      status: message.status,
      created_at: message.createdAt,
      model: message.model ?? null,
      error: message.error ?? null,
      ...toolColumns(message.tool),
      sibling_order: max === null ? 0 : max + 1,
      agent: agentColumn(message),
    } satisfies MessageRow);
  }

  /** Appends text in SQL, so a streamed word costs its own bytes, not the whole message. */
  appendText(id: string, text: string): void {
    this.group.beforeWrite();
    this.s.appendText.run(text, id);
  }

  /** Writes the fields a change names, and only those (one prepared statement per set of columns). */
  change(id: string, change: MessageChange): void {
    const columns: Record<string, unknown> = {};
    if (change.role !== undefined) columns.role = change.role;
    if (change.text !== undefined) columns.text = change.text;
    if (change.status !== undefined) columns.status = change.status;
    if (change.error !== undefined) columns.error = change.error;
    if (change.tool !== undefined) Object.assign(columns, toolColumns(change.tool));
    if (change.agent !== undefined) columns.agent = agentColumn(change.agent);
    const keys = Object.keys(columns);
    if (keys.length === 0) return;
    this.group.beforeWrite();
    const sql = `UPDATE messages SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`;
    let statement = this.changeCache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.changeCache.set(sql, statement);
    }
    statement.run({ ...columns, id });
  }

  /** Turns replies interrupted by a previous crash into stopped ones. Returns how many. */
  stopInterrupted(): number {
    this.group.beforeWrite();
    const streaming = this.s.stopStreaming.run().changes;
    // A `waiting` message whose approval is gone can never resume.
    const waiting = this.s.stopOrphanWaiting.run().changes;
    return streaming + waiting;
  }
}

function toolColumns(tool: StoredMessage['tool']) {
  return {
    tool_name: tool?.name ?? null,
    tool_args: tool === undefined ? null : tool.args,
    approval_id: tool?.approvalId ?? null,
  };
}

function agentColumn(message: AgentFields): string | null {
  const fields: Record<string, unknown> = {};
  for (const key of AGENT_FIELDS) if (message[key] !== undefined) fields[key] = message[key];
  return Object.keys(fields).length === 0 ? null : JSON.stringify(fields);
}

function fromRow(row: MessageRow): StoredMessage {
  const message: { -readonly [K in keyof StoredMessage]: StoredMessage[K] } = {
    id: row.id,
    conversationId: row.conversation_id,
    parentId: row.parent_id,
    role: row.role,
    text: row.text,
    status: row.status,
    createdAt: row.created_at,
  };
  // exactOptionalPropertyTypes: absent fields stay absent rather than `undefined`, so the wire
  // JSON and the bridge's equality checks see the same shape.
  if (row.model !== null) message.model = row.model;
  if (row.error !== null) message.error = row.error;
  if (row.tool_name !== null) {
    message.tool = { name: row.tool_name, args: row.tool_args ?? '{}' };
    if (row.approval_id !== null) message.tool.approvalId = row.approval_id;
  }
  // Written only by agentColumn, so it holds AgentFields.
  if (row.agent !== null) Object.assign(message, JSON.parse(row.agent) as AgentFields);
  return message;
}

function prepare(db: Database) {
  return {
    messages: db.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY sibling_order, rowid'),
    message: db.prepare('SELECT * FROM messages WHERE id = ?'),
    insert: db.prepare(
      `INSERT INTO messages (id, conversation_id, parent_id, role, text, status, created_at, model, error,
         tool_name, tool_args, approval_id, sibling_order, agent)
       VALUES (@id, @conversation_id, @parent_id, @role, @text, @status, @created_at, @model, @error,
         @tool_name, @tool_args, @approval_id, @sibling_order, @agent)`,
    ),
    maxSiblingOrder: db.prepare(
      'SELECT MAX(sibling_order) AS max FROM messages WHERE conversation_id = ? AND parent_id IS ?',
    ),
    appendText: db.prepare('UPDATE messages SET text = text || ? WHERE id = ?'),
    stopStreaming: db.prepare(`UPDATE messages SET status = 'stopped' WHERE status = 'streaming'`),
    stopOrphanWaiting: db.prepare(
      `UPDATE messages SET status = 'stopped' WHERE status = 'waiting' AND NOT EXISTS
         (SELECT 1 FROM approvals a WHERE a.message_id = messages.id AND a.status = 'pending')`,
    ),
  };
}
