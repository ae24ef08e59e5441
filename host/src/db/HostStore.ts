import type { Database } from 'better-sqlite3';
import { type CommitWaiter, GroupCommit } from './GroupCommit';
import { MessageTable } from './MessageTable';
import type { StoredMessage } from './StoredMessage';

/** Options of {@link HostStore}. */
export interface HostStoreOptions {
  /**
   * Told of a failed COMMIT that no caller of `whenCommitted` waits for (the words of a reply
   * streaming with no action in the same turn). Those who wait get the error instead.
   * @default a process warning (printed to stderr)
   */
  readonly onCommitError?: (error: unknown) => void;
}

/** A row of `projects`. */
export interface ProjectRow {
  readonly id: string;
  readonly name: string;
  readonly workspace_path: string;
  readonly created_at: number;
}

/** A row of `conversations`. */
export interface ConversationRow {
  readonly id: string;
  readonly project_id: string;
  readonly title: string;
  readonly created_at: number;
  readonly current_leaf_id: string | null;
  readonly model_id: string | null;
  /** The ACP agent behind it; null (or absent on insert) for the built-in loop. */
  readonly agent_id?: string | null;
  /** Its ACP session, once created. */
  readonly agent_session_id?: string | null;
  /** Why its agent session cannot continue, once known. */
  readonly agent_unavailable?: string | null;
}

/** A row of `attachments`. `message_id` is null while the attachment waits for the next send. */
export interface AttachmentRow {
  readonly id: string;
  readonly conversation_id: string;
  readonly message_id: string | null;
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly path: string;
  readonly created_at: number;
}

/** A row of `approvals`. */
export interface ApprovalRow {
  readonly id: string;
  readonly conversation_id: string;
  readonly message_id: string;
  readonly tool: string;
  readonly args: string;
  readonly summary: string;
  readonly status: 'pending' | 'allowed' | 'denied' | 'cancelled';
  readonly created_at: number;
  /** Who answered it (null while pending, and for a cancelled one). */
  readonly decided_kind?: 'device' | 'host' | 'accessCode' | null;
  /** The device's name when a device answered it. */
  readonly decided_name?: string | null;
  /** The device's id when a device answered it. */
  readonly decided_device?: string | null;
  readonly decided_at?: number | null;
  /** JSON `{ options?, diffs? }`: an ACP agent's answers, and what the call would change. */
  readonly details?: string | null;
}

/** Who answered an approval, as {@link HostStore.decideApproval} records it. */
export interface ApprovalDecider {
  readonly kind: 'device' | 'host' | 'accessCode';
  readonly name: string | null;
  readonly deviceId: string | null;
}

/** A row of `push_subscriptions`: one per paired device. */
export interface PushSubscriptionRow {
  readonly device_id: string;
  /** The device's name when it subscribed: an answer from its notification is shown under it. */
  readonly device_name: string;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  readonly approvals: 0 | 1;
  readonly replies: 0 | 1;
  readonly created_at: number;
}

/**
 * Typed access to the host's SQLite file through prepared statements. Everything is
 * synchronous: callers run on the main executor, so there is no interleaving to guard against.
 *
 * Writes are group-committed (see {@link GroupCommit}): all those of one event-loop turn are
 * committed together at its end. Reads on this store see them at once; another connection and
 * the file on disk see them once {@link whenCommitted} resolves. Whoever answers someone for a
 * change waits for that first, so an answered change is a committed one.
 */
export class HostStore {
  readonly db: Database;
  /** The messages, as the contract's messages; their rows stay inside it. */
  readonly messageTable: MessageTable;
  private readonly s: ReturnType<typeof prepare>;
  private readonly group: GroupCommit;
  /**
   * The keys of held writes (`kv\0<key>`, `model\0<conversation id>`), each built once: a key
   * built per write is a new string that every Map lookup hashes again, which cost more than
   * the rest of holding the write (~60 ns of ~75 a write; docs/PERFORMANCE.md,
   * "Request rate: the applied action again").
   */
  private readonly heldKeys = { kv: new Map<string, string>(), model: new Map<string, string>() };

  constructor(db: Database, options: HostStoreOptions = {}) {
    this.db = db;
    this.s = prepare(db);
    this.group = new GroupCommit(
      db,
      options.onCommitError ??
        ((error) => process.emitWarning(`The host's SQLite commit failed: ${String(error)}`)),
    );
    this.messageTable = new MessageTable(db, this.group);
  }

  /**
   * Runs `fn` in one transaction: a savepoint inside the turn's group commit, so a throw rolls
   * back `fn`'s writes only.
   */
  transaction<T>(fn: () => T): T {
    return this.group.atomically(fn);
  }

  /**
   * Resolves at the end of the current event-loop turn, once every write made so far is
   * committed (also when there was none: see {@link GroupCommit}); rejects with the error of a
   * COMMIT that failed, whose writes are then rolled back.
   */
  whenCommitted(): Promise<void> {
    return this.group.whenCommitted();
  }

  /** {@link whenCommitted} as a callback, told the commit's error if it failed. */
  afterCommit(waiter: CommitWaiter): void {
    this.group.afterCommit(waiter);
  }

  /** Commits the pending writes now instead of at the end of the turn. */
  commitNow(): void {
    this.group.commitNow();
  }

  projects(): ProjectRow[] {
    return this.s.projects.all() as ProjectRow[];
  }
  project(id: string): ProjectRow | undefined {
    return this.s.project.get(id) as ProjectRow | undefined;
  }
  insertProject(row: ProjectRow): void {
    this.group.beforeWrite();
    this.s.insertProject.run(row);
  }
  setProjectWorkspace(id: string, workspacePath: string): void {
    this.group.beforeWrite();
    this.s.setProjectWorkspace.run(workspacePath, id);
  }

  /** Every conversation, newest first. */
  conversations(): ConversationRow[] {
    this.group.beforeRead();
    return this.s.conversations.all() as ConversationRow[];
  }
  conversation(id: string): ConversationRow | undefined {
    this.group.beforeRead();
    return this.s.conversation.get(id) as ConversationRow | undefined;
  }
  /** The newest conversation of a project. */
  latestConversation(projectId: string): ConversationRow | undefined {
    this.group.beforeRead();
    return this.s.latestConversation.get(projectId) as ConversationRow | undefined;
  }
  insertConversation(row: ConversationRow): void {
    this.group.beforeWrite();
    this.s.insertConversation.run({
      agent_id: null,
      agent_session_id: null,
      agent_unavailable: null,
      ...row,
    });
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
  /** The conversation an agent's session is open in, if any. */
  conversationOfSession(agentId: string, sessionId: string): ConversationRow | undefined {
    this.group.beforeRead();
    return this.s.conversationOfSession.get(agentId, sessionId) as ConversationRow | undefined;
  }
  setConversationTitle(id: string, title: string): void {
    this.group.beforeWrite();
    this.s.setConversationTitle.run(title, id);
  }
  setConversationLeaf(id: string, leafId: string | null): void {
    this.group.beforeWrite();
    this.s.setConversationLeaf.run(leafId, id);
  }
  /** Only the last model set in a turn is written (GroupCommit.writeLast). */
  setConversationModel(id: string, modelId: string): void {
    this.group.writeLast(this.heldKey('model', id), () => this.s.setConversationModel.run(modelId, id));
  }
  /** Deletes a conversation; the schema cascades to its messages, attachments and approvals. */
  deleteConversation(id: string): void {
    this.group.beforeWrite();
    this.s.deleteConversation.run(id);
    this.heldKeys.model.delete(id);
  }

  /** A conversation's messages (a read for tools beside the host; the controller uses {@link messageTable}). */
  messages(conversationId: string): StoredMessage[] {
    return this.messageTable.ofConversation(conversationId);
  }

  attachmentsOfConversation(conversationId: string): AttachmentRow[] {
    return this.s.attachmentsOfConversation.all(conversationId) as AttachmentRow[];
  }
  pendingAttachments(conversationId: string): AttachmentRow[] {
    return this.s.pendingAttachments.all(conversationId) as AttachmentRow[];
  }
  /** Bytes of every attachment not sent yet, in all conversations. */
  pendingBytes(): number {
    return (this.s.pendingBytes.get() as { bytes: number }).bytes;
  }
  attachment(id: string): AttachmentRow | undefined {
    return this.s.attachment.get(id) as AttachmentRow | undefined;
  }
  insertAttachment(row: AttachmentRow): void {
    this.group.beforeWrite();
    this.s.insertAttachment.run(row);
  }
  attachToMessage(attachmentId: string, messageId: string): void {
    this.group.beforeWrite();
    this.s.attachToMessage.run(messageId, attachmentId);
  }
  deleteAttachment(id: string): void {
    this.group.beforeWrite();
    this.s.deleteAttachment.run(id);
  }

  pendingApprovals(): ApprovalRow[] {
    return this.s.pendingApprovals.all() as ApprovalRow[];
  }
  approval(id: string): ApprovalRow | undefined {
    return this.s.approval.get(id) as ApprovalRow | undefined;
  }
  insertApproval(row: ApprovalRow): void {
    this.group.beforeWrite();
    this.s.insertApproval.run({ details: null, ...row });
  }
  /**
   * Cancels the pending approvals of ACP agents: their question died with the process that
   * asked it (a restart). Returns how many.
   */
  cancelAgentApprovals(): number {
    this.group.beforeWrite();
    return this.s.cancelAgentApprovals.run().changes;
  }
  setApprovalStatus(id: string, status: ApprovalRow['status']): void {
    this.group.beforeWrite();
    this.s.setApprovalStatus.run(status, id);
  }
  /** Records an approval's answer: its status, who gave it and when. */
  decideApproval(id: string, status: 'allowed' | 'denied', by: ApprovalDecider, at: number): void {
    this.group.beforeWrite();
    this.s.decideApproval.run({ id, status, kind: by.kind, name: by.name, device: by.deviceId, at });
  }
  /** The answered approvals of a conversation (allowed or denied). */
  decidedApprovals(conversationId: string): ApprovalRow[] {
    return this.s.decidedApprovals.all(conversationId) as ApprovalRow[];
  }

  pushSubscriptions(): PushSubscriptionRow[] {
    return this.s.pushSubscriptions.all() as PushSubscriptionRow[];
  }
  pushSubscription(deviceId: string): PushSubscriptionRow | undefined {
    return this.s.pushSubscription.get(deviceId) as PushSubscriptionRow | undefined;
  }
  /** Adds or replaces a device's subscription (one per device). */
  putPushSubscription(row: PushSubscriptionRow): void {
    this.group.beforeWrite();
    this.s.putPushSubscription.run(row);
  }
  /** Removes a device's subscription; with `endpoint`, only if it is still that one. */
  deletePushSubscription(deviceId: string, endpoint?: string): void {
    this.group.beforeWrite();
    if (endpoint === undefined) this.s.deletePushSubscription.run(deviceId);
    else this.s.deletePushSubscriptionAt.run(deviceId, endpoint);
  }

  /** Every setting, parsed from JSON. */
  settings(): Map<string, unknown> {
    const rows = this.s.settings.all() as { key: string; value: string }[];
    return new Map(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
  }
  setSetting(key: string, value: unknown): void {
    this.group.beforeWrite();
    this.s.setSetting.run(key, JSON.stringify(value));
  }

  kv(key: string): string | undefined {
    this.group.beforeRead();
    const row = this.s.kv.get(key) as { value: string } | undefined;
    return row?.value;
  }
  /** Only the last value set for a key in a turn is written (GroupCommit.writeLast). */
  setKv(key: string, value: string): void {
    this.group.writeLast(this.heldKey('kv', key), () => this.s.setKv.run(key, value));
  }

  private heldKey(kind: 'kv' | 'model', id: string): string {
    const keys = this.heldKeys[kind];
    let key = keys.get(id);
    if (key === undefined) {
      key = `${kind}\0${id}`;
      keys.set(id, key);
    }
    return key;
  }

  /** Commits what is pending, then closes the database. Idempotent. */
  close(): void {
    if (!this.db.open) return;
    this.group.commitNow();
    this.db.close();
  }
}

function prepare(db: Database) {
  return {
    projects: db.prepare('SELECT * FROM projects ORDER BY created_at, rowid'),
    project: db.prepare('SELECT * FROM projects WHERE id = ?'),
    insertProject: db.prepare(
      'INSERT INTO projects (id, name, workspace_path, created_at) VALUES (@id, @name, @workspace_path, @created_at)',
    ),
    setProjectWorkspace: db.prepare('UPDATE projects SET workspace_path = ? WHERE id = ?'),
    conversations: db.prepare('SELECT * FROM conversations ORDER BY created_at DESC, rowid DESC'),
    conversation: db.prepare('SELECT * FROM conversations WHERE id = ?'),
    latestConversation: db.prepare(
      'SELECT * FROM conversations WHERE project_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
    ),
    insertConversation: db.prepare(
      `INSERT INTO conversations (id, project_id, title, created_at, current_leaf_id, model_id,
         agent_id, agent_session_id, agent_unavailable)
       VALUES (@id, @project_id, @title, @created_at, @current_leaf_id, @model_id,
         @agent_id, @agent_session_id, @agent_unavailable)`,
    ),
    setAgentSession: db.prepare('UPDATE conversations SET agent_session_id = ? WHERE id = ?'),
    setAgentUnavailable: db.prepare('UPDATE conversations SET agent_unavailable = ? WHERE id = ?'),
    conversationOfSession: db.prepare(
      'SELECT * FROM conversations WHERE agent_id = ? AND agent_session_id = ? ORDER BY created_at DESC LIMIT 1',
    ),
    cancelAgentApprovals: db.prepare(
      `UPDATE approvals SET status = 'cancelled' WHERE status = 'pending' AND conversation_id IN
         (SELECT id FROM conversations WHERE agent_id IS NOT NULL)`,
    ),
    setConversationTitle: db.prepare('UPDATE conversations SET title = ? WHERE id = ?'),
    setConversationLeaf: db.prepare('UPDATE conversations SET current_leaf_id = ? WHERE id = ?'),
    setConversationModel: db.prepare('UPDATE conversations SET model_id = ? WHERE id = ?'),
    deleteConversation: db.prepare('DELETE FROM conversations WHERE id = ?'),
    attachmentsOfConversation: db.prepare(
      'SELECT * FROM attachments WHERE conversation_id = ? ORDER BY created_at, rowid',
    ),
    pendingAttachments: db.prepare(
      'SELECT * FROM attachments WHERE conversation_id = ? AND message_id IS NULL ORDER BY created_at, rowid',
    ),
    pendingBytes: db.prepare(
      'SELECT COALESCE(SUM(size), 0) AS bytes FROM attachments WHERE message_id IS NULL',
    ),
    attachment: db.prepare('SELECT * FROM attachments WHERE id = ?'),
    insertAttachment: db.prepare(
      `INSERT INTO attachments (id, conversation_id, message_id, name, type, size, path, created_at)
       VALUES (@id, @conversation_id, @message_id, @name, @type, @size, @path, @created_at)`,
    ),
    attachToMessage: db.prepare('UPDATE attachments SET message_id = ? WHERE id = ?'),
    deleteAttachment: db.prepare('DELETE FROM attachments WHERE id = ?'),
    pendingApprovals: db.prepare(
      `SELECT * FROM approvals WHERE status = 'pending' ORDER BY created_at, rowid`,
    ),
    approval: db.prepare('SELECT * FROM approvals WHERE id = ?'),
    insertApproval: db.prepare(
      `INSERT INTO approvals (id, conversation_id, message_id, tool, args, summary, status, created_at, details)
       VALUES (@id, @conversation_id, @message_id, @tool, @args, @summary, @status, @created_at, @details)`,
    ),
    setApprovalStatus: db.prepare('UPDATE approvals SET status = ? WHERE id = ?'),
    decideApproval: db.prepare(
      `UPDATE approvals SET status = @status, decided_kind = @kind, decided_name = @name,
         decided_device = @device, decided_at = @at WHERE id = @id`,
    ),
    decidedApprovals: db.prepare(
      `SELECT * FROM approvals WHERE conversation_id = ? AND status IN ('allowed', 'denied')`,
    ),
    pushSubscriptions: db.prepare('SELECT * FROM push_subscriptions ORDER BY created_at, rowid'),
    pushSubscription: db.prepare('SELECT * FROM push_subscriptions WHERE device_id = ?'),
    putPushSubscription: db.prepare(
      `INSERT INTO push_subscriptions (device_id, device_name, endpoint, p256dh, auth, approvals, replies, created_at)
       VALUES (@device_id, @device_name, @endpoint, @p256dh, @auth, @approvals, @replies, @created_at)
       ON CONFLICT(device_id) DO UPDATE SET device_name = excluded.device_name, endpoint = excluded.endpoint, p256dh = excluded.p256dh,
         auth = excluded.auth, approvals = excluded.approvals, replies = excluded.replies`,
    ),
    deletePushSubscription: db.prepare('DELETE FROM push_subscriptions WHERE device_id = ?'),
    deletePushSubscriptionAt: db.prepare(
      'DELETE FROM push_subscriptions WHERE device_id = ? AND endpoint = ?',
    ),
    settings: db.prepare('SELECT key, value FROM settings'),
    setSetting: db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ),
    kv: db.prepare('SELECT value FROM kv WHERE key = ?'),
    setKv: db.prepare(
      'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ),
  };
}
