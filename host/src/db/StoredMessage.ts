import type { HostMessage, MessageStatus, ToolCall } from '@webbridge/contract';

/**
 * A message as the host keeps it: the contract's message (its roles, statuses and optional
 * fields) without what the conversation tree derives (its attachments and its place among its
 * siblings), plus the conversation it belongs to. The SQL row behind it stays in
 * `MessageTable`.
 */
export type StoredMessage = Omit<HostMessage, 'attachments' | 'sibling'> & {
  readonly conversationId: string;
};

/** A message about to be stored: the host gives it its id, its time and its sibling order. */
export type NewMessage = Omit<StoredMessage, 'id' | 'createdAt'>;

/**
 * The fields stored together in one JSON column: an ACP agent's (thinking, tool call, stop
 * reason) and the diffs of the host's own file tools, none of which is ever queried by.
 */
export type AgentFields = Pick<HostMessage, 'thought' | 'agentTool' | 'stopReason' | 'diffs'>;

/** The keys of {@link AgentFields}, in the order the wire shows them. */
export const AGENT_FIELDS = [
  'thought',
  'agentTool',
  'stopReason',
  'diffs',
] as const satisfies readonly (keyof AgentFields)[];

/**
 * The fields of a stored message that change after it is created. `null` removes an optional
 * field (an error cleared when a reply is continued).
 */
export interface MessageChange {
  /** Only an agent's reply still empty when its turn's first update is a tool call, which it becomes. */
  readonly role?: 'tool';
  readonly text?: string;
  readonly status?: MessageStatus;
  readonly error?: string | null;
  readonly tool?: ToolCall;
  /** Replaces all of the message's ACP fields (absent ones are removed). */
  readonly agent?: AgentFields;
}

/** Applies a change to a message, as `MessageTable.change` does to its row. */
export function applyChange(message: StoredMessage, change: MessageChange): StoredMessage {
  const next: { -readonly [K in keyof StoredMessage]: StoredMessage[K] } = { ...message };
  if (change.role !== undefined) next.role = change.role;
  if (change.text !== undefined) next.text = change.text;
  if (change.status !== undefined) next.status = change.status;
  if (change.error === null) delete next.error;
  else if (change.error !== undefined) next.error = change.error;
  if (change.tool !== undefined) next.tool = change.tool;
  if (change.agent !== undefined) {
    for (const key of AGENT_FIELDS) delete next[key];
    Object.assign(next, change.agent);
  }
  return next;
}
