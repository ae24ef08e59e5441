import type { Database } from 'better-sqlite3';
import { ApprovalTable } from './ApprovalTable';
import { AttachmentTable } from './AttachmentTable';
import { ConversationTable } from './ConversationTable';
import { type CommitWaiter, GroupCommit } from './GroupCommit';
import { KvTable } from './KvTable';
import { MessageTable } from './MessageTable';
import { ProjectTable } from './ProjectTable';
import { PushSubscriptionTable } from './PushSubscriptionTable';
import { SettingsTable } from './SettingsTable';

/** Options of {@link HostStore}. */
export interface HostStoreOptions {
  /**
   * Told of a failed COMMIT that no caller of `whenCommitted` waits for (the words of a reply
   * streaming with no action in the same turn). Those who wait get the error instead.
   * @default a process warning (printed to stderr)
   */
  readonly onCommitError?: (error: unknown) => void;
}

/**
 * The host's SQLite file: the database handle, its group commit, and one table object per
 * table. Each table owns its SQL and its row, and speaks the contract's types (camelCase), so no
 * SQL row leaves this folder. Everything is synchronous: callers run on the main executor, so
 * there is no interleaving to guard against.
 *
 * Writes are group-committed (see {@link GroupCommit}): all those of one event-loop turn are
 * committed together at its end. Reads through the tables see them at once; another connection
 * and the file on disk see them once {@link whenCommitted} resolves. Whoever answers someone for
 * a change waits for that first, so an answered change is a committed one.
 */
export class HostStore {
  readonly db: Database;
  readonly projects: ProjectTable;
  readonly conversations: ConversationTable;
  readonly messages: MessageTable;
  readonly attachments: AttachmentTable;
  readonly approvals: ApprovalTable;
  readonly pushSubscriptions: PushSubscriptionTable;
  readonly settings: SettingsTable;
  readonly kv: KvTable;
  private readonly group: GroupCommit;

  constructor(db: Database, options: HostStoreOptions = {}) {
    this.db = db;
    this.group = new GroupCommit(
      db,
      options.onCommitError ??
        ((error) => process.emitWarning(`The host's SQLite commit failed: ${String(error)}`)),
    );
    this.projects = new ProjectTable(db, this.group);
    this.conversations = new ConversationTable(db, this.group);
    this.messages = new MessageTable(db, this.group);
    this.attachments = new AttachmentTable(db, this.group);
    this.approvals = new ApprovalTable(db, this.group);
    this.pushSubscriptions = new PushSubscriptionTable(db, this.group);
    this.settings = new SettingsTable(db, this.group);
    this.kv = new KvTable(db, this.group);
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

  /** Commits what is pending, then closes the database. Idempotent. */
  close(): void {
    if (!this.db.open) return;
    this.group.commitNow();
    this.db.close();
  }
}
