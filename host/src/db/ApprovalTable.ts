import type { Approval, ApprovalDecision, Decider } from '@webbridge/contract';
import type { Database } from 'better-sqlite3';
import type { GroupCommit } from './GroupCommit';

/** Where an approval is in its life. `cancelled`: its reply was stopped, or its agent's question withdrawn. */
type ApprovalStatus = 'pending' | 'allowed' | 'denied' | 'cancelled';

/**
 * An approval as the host keeps it: the contract's approval (an ACP agent's options and the
 * diffs included), its status, and once allowed or denied how it was answered.
 */
export type StoredApproval = Approval & {
  readonly status: ApprovalStatus;
  /** How, by whom and when it was answered; present once it is allowed or denied. */
  readonly decided?: ApprovalDecision;
};

/** Who answered an approval, as {@link ApprovalTable.decide} records it. */
export interface ApprovalDecider {
  readonly kind: Decider['kind'];
  /** The device's name when a device answered it, kept as it was then. */
  readonly name: string | null;
  /** The device's id when a device answered it (not shown). */
  readonly deviceId: string | null;
}

/** A row of `approvals` as SQLite holds it. Nothing outside this file sees it. */
interface ApprovalRow {
  readonly id: string;
  readonly conversation_id: string;
  readonly message_id: string;
  readonly tool: string;
  readonly args: string;
  readonly summary: string;
  readonly status: ApprovalStatus;
  readonly created_at: number;
  /** Null while pending, and for a cancelled one. */
  readonly decided_kind: Decider['kind'] | null;
  readonly decided_name: string | null;
  readonly decided_device: string | null;
  readonly decided_at: number | null;
  /** JSON `{ options?, diffs? }`: an ACP agent's answers, and what the call would change. */
  readonly details: string | null;
}

/**
 * The `approvals` table: reads and writes {@link StoredApproval}s, and answers the projection's
 * two questions (the pending approvals, a conversation's decisions) in the contract's shapes.
 * Writes join the turn's group commit.
 */
export class ApprovalTable {
  private readonly group: GroupCommit;
  private readonly s: ReturnType<typeof prepare>;

  constructor(db: Database, group: GroupCommit) {
    this.group = group;
    this.s = prepare(db);
  }

  /** An approval in any state, if it exists. */
  get(id: string): StoredApproval | undefined {
    const row = this.s.get.get(id) as ApprovalRow | undefined;
    return row && fromRow(row);
  }

  /** The approvals waiting for an answer, oldest first, as the projection shows them. */
  pending(): Approval[] {
    return (this.s.pending.all() as ApprovalRow[]).map(toApproval);
  }

  /** How a conversation's answered approvals (allowed or denied) were answered, by approval id. */
  decisionsOf(conversationId: string): Map<string, ApprovalDecision> {
    const decisions = new Map<string, ApprovalDecision>();
    for (const row of this.s.decided.all(conversationId) as ApprovalRow[]) {
      const decided = decisionOf(row);
      if (decided) decisions.set(row.id, decided);
    }
    return decisions;
  }

  /** Records a new question: a pending approval (its options and diffs kept as they are asked). */
  insertPending(approval: Approval): void {
    const details: Pick<Approval, 'options' | 'diffs'> = {};
    if (approval.options !== undefined) details.options = approval.options;
    if (approval.diffs !== undefined) details.diffs = approval.diffs;
    this.group.beforeWrite();
    this.s.insert.run({
      id: approval.id,
      conversation_id: approval.conversationId,
      message_id: approval.messageId,
      tool: approval.tool,
      args: approval.args,
      summary: approval.summary,
      status: 'pending',
      created_at: approval.createdAt,
      details: Object.keys(details).length === 0 ? null : JSON.stringify(details),
    });
  }

  /** Records an approval's answer: its status, who gave it and when. */
  decide(id: string, status: 'allowed' | 'denied', by: ApprovalDecider, at: number): void {
    this.group.beforeWrite();
    this.s.decide.run({ id, status, kind: by.kind, name: by.name, device: by.deviceId, at });
  }

  /** Cancels an approval: nobody may answer it any more (its reply stopped, its question withdrawn). */
  cancel(id: string): void {
    this.group.beforeWrite();
    this.s.cancel.run(id);
  }

  /**
   * Cancels the pending approvals of ACP agents: their question died with the process that
   * asked it (a restart). Returns how many.
   */
  cancelAgentQuestions(): number {
    this.group.beforeWrite();
    return this.s.cancelAgentQuestions.run().changes;
  }
}

/** The approval as the projection shows it: `details` spread into `options` and `diffs`. */
function toApproval(row: ApprovalRow): Approval {
  const approval: Approval = {
    id: row.id,
    tool: row.tool,
    summary: row.summary,
    args: row.args,
    conversationId: row.conversation_id,
    messageId: row.message_id,
    createdAt: row.created_at,
  };
  const details = detailsOf(row);
  if (details?.options !== undefined) approval.options = details.options;
  if (details?.diffs !== undefined) approval.diffs = details.diffs;
  return approval;
}

function fromRow(row: ApprovalRow): StoredApproval {
  const decided = decisionOf(row);
  return { ...toApproval(row), status: row.status, ...(decided === undefined ? {} : { decided }) };
}

/** Written by this table only, so it holds the contract's shapes; unreadable JSON counts as none. */
function detailsOf(row: ApprovalRow): Pick<Approval, 'options' | 'diffs'> | undefined {
  if (row.details === null) return undefined;
  try {
    return JSON.parse(row.details) as Pick<Approval, 'options' | 'diffs'>;
  } catch {
    return undefined;
  }
}

/** An answered approval's decision; undefined while it is not answered. */
function decisionOf(row: ApprovalRow): ApprovalDecision | undefined {
  if (row.status !== 'allowed' && row.status !== 'denied') return undefined;
  const decision = row.status === 'allowed' ? 'allow' : 'deny';
  // Rows answered before decisions were recorded have no decider: the host is all we know.
  const by: Decider =
    row.decided_kind === 'device'
      ? { kind: 'device', name: row.decided_name ?? '' }
      : row.decided_kind === 'accessCode'
        ? { kind: 'accessCode' }
        : { kind: 'host' };
  return { decision, by, at: row.decided_at ?? row.created_at };
}

function prepare(db: Database) {
  return {
    get: db.prepare('SELECT * FROM approvals WHERE id = ?'),
    pending: db.prepare(`SELECT * FROM approvals WHERE status = 'pending' ORDER BY created_at, rowid`),
    decided: db.prepare(
      `SELECT * FROM approvals WHERE conversation_id = ? AND status IN ('allowed', 'denied')`,
    ),
    insert: db.prepare(
      `INSERT INTO approvals (id, conversation_id, message_id, tool, args, summary, status, created_at, details)
       VALUES (@id, @conversation_id, @message_id, @tool, @args, @summary, @status, @created_at, @details)`,
    ),
    decide: db.prepare(
      `UPDATE approvals SET status = @status, decided_kind = @kind, decided_name = @name,
         decided_device = @device, decided_at = @at WHERE id = @id`,
    ),
    cancel: db.prepare(`UPDATE approvals SET status = 'cancelled' WHERE id = ?`),
    cancelAgentQuestions: db.prepare(
      `UPDATE approvals SET status = 'cancelled' WHERE status = 'pending' AND conversation_id IN
         (SELECT id FROM conversations WHERE agent_id IS NOT NULL)`,
    ),
  };
}
