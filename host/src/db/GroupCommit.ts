import type { Database, Statement } from 'better-sqlite3';
import { LastValueWrites } from './LastValueWrites';

/** Told once the turn ended: with no argument when its writes are committed, else the error. */
export type CommitWaiter = (failure?: unknown) => void;

/** The current event-loop turn: who waits for its end, and its transaction if it wrote. */
interface Turn {
  readonly waiters: CommitWaiter[];
  /** Whether the turn has written (its BEGIN ran); a turn that only answered has not. */
  began: boolean;
  /** Why SQLite ended the turn's transaction before its commit (a failed write), if it did. */
  lost: unknown;
  readonly timer: NodeJS.Immediate;
}

/**
 * Group commit: every write of one event-loop turn goes into one SQLite transaction, committed
 * once in a `setImmediate`. The many actions read from many sockets in one poll phase, and the
 * words of every reply streaming at that moment, then share one COMMIT (its locks and its
 * write(2) to the WAL) instead of paying one each.
 *
 * The first write outside a transaction opens the turn's transaction ({@link beforeWrite});
 * `db.transaction(fn)` inside it becomes a savepoint, so a task that throws still rolls back
 * only its own changes. The same connection reads its own uncommitted writes, so nothing above
 * the store changes; another connection (a backup, a second tool) sees the turn whole or not.
 *
 * {@link whenCommitted} resolves at the end of the turn also when the turn wrote nothing: every
 * answer decided in a turn (a 409 as much as an applied change) leaves at the same point, after
 * the commit. Besides the order this gives (no answer names a state the disk might not keep),
 * it is the cheaper way to answer a burst: the loop reads every request that has arrived before
 * it writes any answer, instead of one answer per read. Under 50 connections that halved the
 * server's CPU per 409 (docs/PERFORMANCE.md, "Request rate"); one idle request waits one
 * `setImmediate`.
 *
 * Writes of which only the last value counts ({@link writeLast}) wait in memory until any
 * other statement of the store runs or the turn commits, so a turn writes each of them once.
 *
 * A COMMIT that fails (disk full, an I/O error) rolls the whole turn back and rejects every
 * {@link whenCommitted} of it; nobody waiting, the error goes to `onError`.
 */
export class GroupCommit {
  private turn: Turn | undefined;
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  private readonly savepoint: Statement;
  private readonly release: Statement;
  private readonly rollbackTo: Statement;
  private readonly last = new LastValueWrites();
  /** How many {@link atomically} calls are running: a write inside one must not wait. */
  private depth = 0;

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void,
  ) {
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    // Prepared once: better-sqlite3's db.transaction(fn) builds its wrappers on every call.
    this.savepoint = db.prepare('SAVEPOINT host_write');
    this.release = db.prepare('RELEASE host_write');
    this.rollbackTo = db.prepare('ROLLBACK TO host_write');
  }

  /**
   * Runs `fn` so that a throw undoes its writes alone: the turn's own BEGIN when these are the
   * turn's first writes, a savepoint inside the turn (or inside someone else's transaction)
   * otherwise.
   */
  atomically<T>(fn: () => T): T {
    if (this.beforeWrite()) {
      this.depth++;
      try {
        return fn();
      } catch (error) {
        this.abandonTurn();
        throw error;
      } finally {
        this.depth--;
      }
    }
    this.savepoint.run();
    this.depth++;
    try {
      const result = fn();
      this.release.run();
      return result;
    } catch (error) {
      // After a failed write SQLite may have rolled the whole transaction back itself
      // (SQLITE_FULL): then there is no savepoint left to undo, and the turn knows it is lost.
      if (this.db.inTransaction) {
        this.rollbackTo.run();
        this.release.run();
      }
      throw error;
    } finally {
      this.depth--;
    }
  }

  /**
   * A write of which only the last value counts, under `key` (what it overwrites): held until
   * another statement of the store runs or the turn commits, replacing the one held for the
   * same key. Inside {@link atomically} (or someone else's transaction) it runs at once, so a
   * rollback there undoes it. `write` must not fail but for the disk (a plain UPDATE or upsert
   * of one row): if it does, the turn is treated as failed.
   */
  writeLast(key: string, write: () => void): void {
    // Opened, not beforeWrite: the writes held already stay held (they touch other keys).
    this.open();
    if (this.depth > 0 || this.turn?.began !== true) {
      write();
      return;
    }
    this.last.set(key, write);
  }

  /** Call before reading a table that {@link writeLast} writes to: runs what waits. */
  beforeRead(): void {
    if (this.last.waiting) this.beforeWrite();
  }

  /**
   * Call before each write: opens the turn's transaction unless one is open already. Returns
   * true when this call opened it, so nothing but what follows is in it yet.
   */
  beforeWrite(): boolean {
    const opened = this.open();
    // Writes held by writeLast run before any other statement, in the transaction.
    if (this.last.waiting) this.last.run();
    return opened;
  }

  /** Opens the turn's transaction unless one is open; true when this call opened it. */
  private open(): boolean {
    const { turn } = this;
    if (turn === undefined || !turn.began) {
      // Someone else's transaction (a migration): its writes are its own to commit.
      if (this.db.inTransaction) return false;
      this.begin.run();
      if (turn === undefined) this.turn = this.newTurn(true);
      else turn.began = true;
      return true;
    }
    if (!this.db.inTransaction) {
      // SQLite rolled the turn back itself after a failed write (SQLITE_FULL, SQLITE_IOERR):
      // the turn's earlier writes are gone, so it must not commit; a new BEGIN keeps the
      // later writes out of autocommit until the turn ends and rolls back whole.
      turn.lost ??= new Error('A write of this turn failed and SQLite rolled the turn back.');
      this.begin.run();
    }
    return false;
  }

  private newTurn(began: boolean): Turn {
    return { waiters: [], began, lost: undefined, timer: setImmediate(() => this.commitNow()) };
  }

  /**
   * Rolls back a turn that {@link beforeWrite} has just opened for one transaction that threw:
   * its writes are the only ones in it, so no savepoint was needed to undo them alone.
   */
  private abandonTurn(): void {
    const { turn } = this;
    if (turn === undefined || !turn.began) return;
    if (this.db.inTransaction) this.rollback.run();
    // Nothing of the turn is written now; it still ends (and answers its waiters) as planned.
    turn.began = false;
    turn.lost = undefined;
  }

  /**
   * Resolves at the end of the current turn, once its writes (if any) are committed; rejects
   * with the error if their commit fails.
   */
  whenCommitted(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.afterCommit((failure) => (failure === undefined ? resolve() : reject(failure))),
    );
  }

  /**
   * {@link whenCommitted} as a callback: `waiter` is called at the end of the current turn with
   * no argument once its writes (if any) are committed, or with the error if their commit
   * failed. For the answer path, which then settles one promise of its own instead of chaining.
   */
  afterCommit(waiter: CommitWaiter): void {
    this.turn ??= this.newTurn(false);
    this.turn.waiters.push(waiter);
  }

  /** Commits the pending writes now (close, or a test about to read the file from elsewhere). */
  commitNow(): void {
    const { turn } = this;
    if (turn === undefined) return;
    this.turn = undefined;
    clearImmediate(turn.timer);
    let failure = turn.lost;
    if (turn.began && failure === undefined && !this.db.inTransaction) {
      failure = new Error('A write of this turn failed and SQLite rolled the turn back.');
    }
    if (turn.began && failure === undefined) {
      try {
        this.last.run();
        this.commit.run();
      } catch (error) {
        failure = error;
      }
    }
    if (failure === undefined) {
      for (const waiter of turn.waiters) waiter();
      return;
    }
    this.last.drop();
    // A COMMIT refused for a deferred constraint leaves the transaction open; end it.
    if (this.db.inTransaction) this.rollback.run();
    if (turn.waiters.length === 0) this.onError(failure);
    for (const waiter of turn.waiters) waiter(failure);
  }
}
