import type { Approval, Message } from './types';

// The agent parts of messages and approvals the page draws, taken from the contract's types
// through the SDK's (the page imports the SDK only, which does not name these).

/** A change of one file: what an approval shows and an agent's tool call records. */
export type FileDiff = NonNullable<Approval['diffs']>[number];
/** One of an agent's own answers to its permission request. */
export type PermissionOption = NonNullable<Approval['options']>[number];
/** An ACP agent's tool call, on the `tool` message that shows it. */
export type AgentToolCall = NonNullable<Message['agentTool']>;
/** Why an agent's turn ended. */
export type StopReason = NonNullable<Message['stopReason']>;
