import type { Database } from 'better-sqlite3';

/**
 * The schema, one entry per version. Entry `i` moves a database from `user_version = i` to
 * `i + 1`. Append new entries; never edit a released one, because databases in the field have
 * already run it.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    workspace_path TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    title TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    -- No foreign key: the leaf points into messages, which point back at the conversation.
    current_leaf_id TEXT,
    model_id TEXT
  );
  CREATE INDEX conversations_by_project ON conversations(project_id, created_at);
  CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    parent_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
    text TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('complete', 'streaming', 'stopped', 'error', 'waiting')),
    created_at INTEGER NOT NULL,
    model TEXT,
    error TEXT,
    tool_name TEXT,
    tool_args TEXT,
    approval_id TEXT,
    sibling_order INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX messages_by_conversation ON messages(conversation_id);
  CREATE INDEX messages_by_parent ON messages(parent_id);
  CREATE INDEX messages_by_status ON messages(status);
  CREATE TABLE attachments (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    message_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    size INTEGER NOT NULL,
    path TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX attachments_by_conversation ON attachments(conversation_id, message_id);
  CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    tool TEXT NOT NULL,
    args TEXT NOT NULL,
    summary TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'allowed', 'denied', 'cancelled')),
    created_at INTEGER NOT NULL
  );
  CREATE INDEX approvals_by_status ON approvals(status);
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  // Paired devices: only the SHA-256 of each credential's secret, never the credential.
  `
  CREATE TABLE devices (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('control', 'view')),
    secret_hash TEXT NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen INTEGER NOT NULL
  );
  `,
  // Approvals that agree across devices: who answered and when. The device id (not shown) lets
  // a push name the device that answered; the name is kept as it was then.
  `
  ALTER TABLE approvals ADD COLUMN decided_kind TEXT CHECK (decided_kind IN ('device', 'host', 'accessCode'));
  ALTER TABLE approvals ADD COLUMN decided_name TEXT;
  ALTER TABLE approvals ADD COLUMN decided_device TEXT;
  ALTER TABLE approvals ADD COLUMN decided_at INTEGER;
  CREATE TABLE push_subscriptions (
    device_id TEXT PRIMARY KEY,
    device_name TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    approvals INTEGER NOT NULL CHECK (approvals IN (0, 1)),
    replies INTEGER NOT NULL CHECK (replies IN (0, 1)),
    created_at INTEGER NOT NULL
  );
  `,
  // Conversations backed by an ACP agent: the agent, its session, and why it cannot continue.
  // A message's and an approval's ACP fields (thought, tool call, stop reason; options, diffs)
  // are JSON, read and written only through MessageTable and HostStore.
  `
  ALTER TABLE conversations ADD COLUMN agent_id TEXT;
  ALTER TABLE conversations ADD COLUMN agent_session_id TEXT;
  ALTER TABLE conversations ADD COLUMN agent_unavailable TEXT;
  ALTER TABLE messages ADD COLUMN agent TEXT;
  ALTER TABLE approvals ADD COLUMN details TEXT;
  `,
];

/**
 * Brings the database up to the newest schema. Each step runs in its own transaction together
 * with its `user_version` bump, so a crash mid-migration leaves the previous version intact.
 */
export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The database was written by a newer webbridge (schema ${current}, this build knows ${MIGRATIONS.length}).`,
    );
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    const step = MIGRATIONS[version]!;
    db.transaction(() => {
      db.exec(step);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
