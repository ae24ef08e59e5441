import type {
  conversationSummarySchema,
  messageRoleSchema,
  messageStatusSchema,
  modelSchema,
  projectSchema,
  toolCallSchema,
  toolSchema,
  workspaceSchema,
} from '@webbridge/contract';
import type { z } from 'zod';

/*
 * The parts of the snapshot a UI names that the contract exports only as schemas, inferred
 * from those schemas (never written out by hand). The others (Snapshot, Message, Attachment,
 * MediaRef, Approval, Settings, RunStatus, ...) are re-exported from the contract unchanged.
 */

/** One entry of the conversation list. */
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;
/** A project and its workspace folder. */
export type Project = z.infer<typeof projectSchema>;
/** A workspace folder as a `file:` URI and a name. */
export type Workspace = z.infer<typeof workspaceSchema>;
/** A model the controller can answer with. */
export type Model = z.infer<typeof modelSchema>;
/** A tool the model may call. */
export type Tool = z.infer<typeof toolSchema>;
/** A tool invocation recorded on a message. */
export type ToolCall = z.infer<typeof toolCallSchema>;
/** Who wrote a message. */
export type MessageRole = z.infer<typeof messageRoleSchema>;
/** Where a message is in its life (`waiting` = blocked on an approval). */
export type MessageStatus = z.infer<typeof messageStatusSchema>;
