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
 * The fields of a stored message that change after it is created. `null` removes an optional
 * field (an error cleared when a reply is continued).
 */
export interface MessageChange {
  readonly text?: string;
  readonly status?: MessageStatus;
  readonly error?: string | null;
  readonly tool?: ToolCall;
}
