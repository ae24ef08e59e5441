import type { HostStore } from '../db/HostStore';

/** How many conversations were made to break a commit: each gets its own id. */
let broken = 0;

/**
 * Makes the current turn's COMMIT fail, the one honest way to make COMMIT itself fail: a
 * deferred foreign key, which only COMMIT checks, broken by a conversation of a project that
 * does not exist. Written as part of the turn (its transaction is opened first), so the whole
 * turn rolls back with it.
 */
export function breakThisTurnsCommit(store: HostStore): void {
  store.settings.set('failing-commit', true);
  store.db.pragma('defer_foreign_keys = ON');
  store.db
    .prepare(
      `INSERT INTO conversations (id, project_id, title, created_at) VALUES (?, 'no such project', '', 0)`,
    )
    .run(`broken-${++broken}`);
}
