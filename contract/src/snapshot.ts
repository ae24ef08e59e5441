import { z } from 'zod';
import {
  agentSchema,
  agentSessionSchema,
  agentToolCallSchema,
  fileDiffSchema,
  permissionOptionSchema,
  stopReasonSchema,
} from './agents';
import { PROTOCOL_VERSION } from './limits';

/** A temporary credential that grants reading one attachment's file through /api/media. */
export const mediaRefSchema = z.object({
  /** The media id: ≥128 random bits, base64url. Never logged. */
  id: z.string().min(22),
  /** When the id stops working (epoch milliseconds). Ask for a fresh one after that. */
  expiresAt: z.number().int(),
});
/** A media id and its expiry. */
export type MediaRef = z.infer<typeof mediaRefSchema>;

/** A file attached to a message or waiting to be sent with the next one, as the host knows it. */
export const attachmentSchema = z.object({
  /** Stable attachment id (not a credential). */
  id: z.string().min(1),
  name: z.string(),
  /** MIME type. */
  type: z.string(),
  /** Size in bytes. */
  size: z.number().int().nonnegative(),
});
/** An attachment in the host's projection (no media id yet). */
export type HostAttachment = z.infer<typeof attachmentSchema>;

/** An attachment on the wire: the server adds a currently valid media id. */
export const wireAttachmentSchema = attachmentSchema.extend({ media: mediaRefSchema });
/** An attachment as the browser sees it. */
export type Attachment = z.infer<typeof wireAttachmentSchema>;

/** Who wrote a message. `tool` messages carry a tool call's result. */
export const messageRoleSchema = z.enum(['user', 'assistant', 'tool', 'system']);

/** Where a message is in its life. `waiting` = blocked on an approval. */
export const messageStatusSchema = z.enum(['complete', 'streaming', 'stopped', 'error', 'waiting']);

/** What the controller is doing in the current conversation. */
export const runStatusSchema = z.object({
  state: z.enum(['idle', 'streaming', 'waiting_approval']),
  /** The assistant message being produced, if any. */
  messageId: z.string().nullable(),
});
/** The run state of the current conversation. */
export type RunStatus = z.infer<typeof runStatusSchema>;

/**
 * Who answered an approval: a paired device (by the name it was paired with), the host's own
 * console (`host`), or a browser that presented the access code itself (`accessCode`).
 */
export const deciderSchema = z.discriminatedUnion('kind', [
  /** A paired device, by the name it was paired with. */
  z.object({ kind: z.literal('device'), name: z.string() }),
  /** The host's own console. */
  z.object({ kind: z.literal('host') }),
  /** A browser that presented the access code itself. */
  z.object({ kind: z.literal('accessCode') }),
]);
/** The members of {@link deciderSchema}, exported so the API document can name each one. */
export const [deviceDeciderSchema, hostDeciderSchema, accessCodeDeciderSchema] = deciderSchema.options;
/** Who answered an approval. */
export type Decider = z.infer<typeof deciderSchema>;

/** How an approval was answered, by whom and when: every device shows the same line. */
export const approvalDecisionSchema = z.object({
  decision: z.enum(['allow', 'deny']),
  by: deciderSchema,
  /** When it was answered (epoch milliseconds). */
  at: z.number().int(),
});
/** How an approval was answered, by whom and when. */
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/** A tool invocation recorded on a message. */
export const toolCallSchema = z.object({
  name: z.string(),
  /** The arguments as JSON text. */
  args: z.string(),
  approvalId: z.string().optional(),
  /** Present once the call's approval was answered (on the call and on its result). */
  decided: approvalDecisionSchema.optional(),
});

/** Builds the message schema over an attachment schema (host projection or wire). */
function messageSchemaOf<A extends z.ZodTypeAny>(attachment: A) {
  return z.object({
    id: z.string().min(1),
    parentId: z.string().nullable(),
    role: messageRoleSchema,
    text: z.string(),
    status: messageStatusSchema,
    createdAt: z.number().int(),
    attachments: z.array(attachment),
    /** Position among the siblings of this message (branches): index 0-based, count ≥ 1. */
    sibling: z.object({ index: z.number().int().nonnegative(), count: z.number().int().positive() }),
    model: z.string().optional(),
    /** A readable reason when status is `error`. */
    error: z.string().optional(),
    tool: toolCallSchema.optional(),
    /** An ACP agent's message: `true` when its text is the agent's thinking, not its answer. */
    thought: z.literal(true).optional(),
    /** On a `tool` message of an ACP agent: the tool call it shows (its text output is `text`). */
    agentTool: agentToolCallSchema.optional(),
    /** On the last message of an ACP agent's turn: why the turn ended. */
    stopReason: stopReasonSchema.optional(),
    /**
     * On the result of one of the host's own file tools (write_file, patch_file) that ran: what
     * it changed, file by file, so the conversation's history shows the diff its approval showed.
     */
    diffs: z.array(fileDiffSchema).optional(),
  });
}

/** One line of the conversation list. */
export const conversationSummarySchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  projectId: z.string().min(1),
  createdAt: z.number().int(),
  /** The agent behind the conversation for its whole life; absent (embedding apps, older hosts) = `builtin`. */
  agentId: z.string().min(1).optional(),
  /** Why an agent's conversation cannot take another turn (its history stays readable). */
  unavailable: z.string().optional(),
});

/** A folder the controller may act in, as a `file:` URI. */
export const workspaceSchema = z.object({ uri: z.string(), name: z.string() });

/** A project and the workspace folder its tools act in. */
export const projectSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  workspace: workspaceSchema,
  createdAt: z.number().int(),
});

/** A model the controller can answer with. */
export const modelSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  provider: z.string(),
});

/** A tool the model may call. */
export const toolSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  /** Calls wait for an approval unless the tool is allowed for the session in settings. */
  needsApproval: z.boolean(),
  enabled: z.boolean(),
  /** The MCP server the tool comes from (its name in the host's MCP config); absent for the host's own tools. */
  server: z.string().optional(),
});

/**
 * One MCP server the host is configured to use, and how it is doing. While a server is not
 * `ready` its tools are not listed.
 */
export const mcpServerSchema = z.object({
  /** The server's name in the host's MCP config; its tools are named `<name>__<tool>`. */
  name: z.string().min(1),
  transport: z.enum(['stdio', 'http']),
  /**
   * `starting`: first connection under way; `ready`: its tools are listed; `failed`: it could
   * not start or stopped working (see `lastError`), a retry is scheduled unless its config is
   * invalid; `restarting`: connecting again after a failure or a restart asked for.
   */
  state: z.enum(['starting', 'ready', 'failed', 'restarting']),
  /** How many of its tools are listed now (0 unless `ready`). */
  toolCount: z.number().int().nonnegative(),
  /** `ask`: each call waits for an approval; `allow`: calls run at once, except destructive tools. */
  approval: z.enum(['ask', 'allow']),
  /** Why it last failed, in words a person can act on; never the config's env or headers. */
  lastError: z.string().optional(),
});
/** An MCP server's status. */
export type McpServer = z.infer<typeof mcpServerSchema>;

/** A tool call waiting for the user to allow or deny it. */
export const approvalSchema = z.object({
  id: z.string().min(1),
  tool: z.string(),
  /** One line a person can judge the call by. */
  summary: z.string(),
  /** The arguments as JSON text. */
  args: z.string(),
  conversationId: z.string(),
  messageId: z.string(),
  createdAt: z.number().int(),
  /**
   * An ACP agent's own answers (allow once / always, reject once / always); `approve` may name
   * one by `optionId`. Absent for the host's own tools (allow and deny only).
   */
  options: z.array(permissionOptionSchema).optional(),
  /** What the call would change, file by file, when that is known. */
  diffs: z.array(fileDiffSchema).optional(),
});
/** A pending approval. */
export type Approval = z.infer<typeof approvalSchema>;

/** The controller's settings. `updateSettings` takes any subset of them. */
export const settingsSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']),
  /** Tools allowed without asking for the rest of this session. */
  autoApprove: z.array(z.string()),
  /** Whether the command-running tool is enabled at all. */
  allowCommands: z.boolean(),
  systemPrompt: z.string().max(20_000),
});
/** The controller's settings. */
export type Settings = z.infer<typeof settingsSchema>;

/** Builds the snapshot schema over an attachment schema (host projection or wire). */
function snapshotSchemaOf<A extends z.ZodTypeAny>(attachment: A) {
  const message = messageSchemaOf(attachment);
  return z.object({
    instanceId: z.string().min(1),
    sessionRevision: z.number().int().nonnegative(),
    conversationId: z.string().min(1),
    projectId: z.string().min(1),
    conversations: z.object({
      list: z.array(conversationSummarySchema),
      /** The current conversation's active branch, root first. */
      messages: z.array(message),
      /** Attachments uploaded for the next send. */
      pending: z.array(attachment),
      run: runStatusSchema,
    }),
    projects: z.object({
      list: z.array(projectSchema),
      /** Workspace roots the host has authorised; a project's workspace is one of them or below. */
      roots: z.array(workspaceSchema),
    }),
    models: z.object({ current: z.string(), list: z.array(modelSchema) }),
    tools: z.object({
      list: z.array(toolSchema),
      /** The host's MCP servers; absent when it has none configured (and from older hosts). */
      servers: z.array(mcpServerSchema).optional(),
    }),
    approvals: z.array(approvalSchema),
    settings: settingsSchema,
    /**
     * The agents a conversation can be backed by (the built-in loop first), and the current
     * conversation's ACP session. Absent from hosts without agents (embedding apps, older hosts).
     */
    agents: z.object({ list: z.array(agentSchema), session: agentSessionSchema.optional() }).optional(),
  });
}

/** A message as the host projects it. */
export const hostMessageSchema = messageSchemaOf(attachmentSchema);
/** A message in the host's projection. */
export type HostMessage = z.infer<typeof hostMessageSchema>;

/** A message on the wire (attachments carry media ids). */
export const messageSchema = messageSchemaOf(wireAttachmentSchema);
/** A message as the browser sees it. */
export type Message = z.infer<typeof messageSchema>;

/**
 * The host's projection of its controller state: what `HostAdapter.readState()` returns.
 * Immutable; unchanged parts keep their identity from one projection to the next.
 */
export const projectionSchema = snapshotSchemaOf(attachmentSchema);
/** The host's projection of its controller state. */
export type Projection = z.infer<typeof projectionSchema>;

/** The full state as the browser receives it (GET /api/state and snapshot events). */
export const snapshotSchema = snapshotSchemaOf(wireAttachmentSchema).extend({
  protocol: z.literal(PROTOCOL_VERSION),
});
/** The full state as the browser receives it. */
export type Snapshot = z.infer<typeof snapshotSchema>;

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
