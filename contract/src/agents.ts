import { z } from 'zod';

/**
 * The id of the host's own agent loop (echo and OpenAI-compatible models, the host's tools).
 * It is always listed and is the default agent of a new conversation.
 */
export const BUILTIN_AGENT = 'builtin';

/**
 * Where an agent is in its life. `idle`: configured, its process not started yet (it starts on
 * first use); `starting`; `ready`; `failed` (see `reason`); `needs_sign_in` (see `signIn`).
 */
export const agentStateSchema = z.enum(['idle', 'starting', 'ready', 'failed', 'needs_sign_in']);
/** Where an agent is in its life. */
export type AgentState = z.infer<typeof agentStateSchema>;

/** An agent a conversation can be backed by: the built-in loop or an ACP agent the host runs. */
export const agentSchema = z.object({
  /** Its id in actions (`newConversation`'s `agentId`), e.g. `builtin`, `opencode`. */
  name: z.string().min(1),
  /** A name to show, from the agent's `initialize` answer when it gave one. */
  title: z.string().optional(),
  /** Its version, from `initialize`. */
  version: z.string().optional(),
  /** Whether this is the host's own loop. */
  builtin: z.boolean(),
  state: agentStateSchema,
  /** Why it failed, in words a person can act on. */
  reason: z.string().optional(),
  /** For `needs_sign_in`: the command to run on the host to sign in. */
  signIn: z.string().optional(),
});
/** An agent and its state. */
export type Agent = z.infer<typeof agentSchema>;

/** What an agent's tool call does (ACP's `ToolKind`). */
export const agentToolKindSchema = z.enum([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);

/** Where an agent's tool call is (ACP's `ToolCallStatus`). */
export const agentToolStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'failed']);

/** A proposed or made change of one file: what an approval shows and a tool call records. */
export const fileDiffSchema = z.object({
  /** The file's absolute path on the host. */
  path: z.string(),
  /** The text before; null for a new file. */
  oldText: z.string().nullable(),
  newText: z.string(),
});
/** A change of one file. */
export type FileDiff = z.infer<typeof fileDiffSchema>;

/**
 * What an agent's tool call produced, beside its text (which is the tool message's `text`, so
 * long output streams as appends): a file change, or a terminal it runs in.
 */
export const agentToolContentSchema = z.discriminatedUnion('type', [
  fileDiffSchema.extend({ type: z.literal('diff') }),
  z.object({ type: z.literal('terminal'), terminalId: z.string() }),
]);
/** The members of {@link agentToolContentSchema}, exported so the API document can name each one. */
export const [agentDiffContentSchema, agentTerminalContentSchema] = agentToolContentSchema.options;
/** A diff or a terminal of an agent's tool call. */
export type AgentToolContent = z.infer<typeof agentToolContentSchema>;

/** An agent's tool call, recorded on the `tool` message that shows it. */
export const agentToolCallSchema = z.object({
  /** The agent's `toolCallId`. */
  id: z.string(),
  title: z.string(),
  kind: agentToolKindSchema,
  status: agentToolStatusSchema,
  /** Files it works on. */
  locations: z.array(z.object({ path: z.string(), line: z.number().int().optional() })),
  content: z.array(agentToolContentSchema),
});
/** An agent's tool call. */
export type AgentToolCall = z.infer<typeof agentToolCallSchema>;

/** Why an agent's turn ended (ACP's `StopReason`). */
export const stopReasonSchema = z.enum([
  'end_turn',
  'max_tokens',
  'max_turn_requests',
  'refusal',
  'cancelled',
]);
/** Why an agent's turn ended. */
export type StopReason = z.infer<typeof stopReasonSchema>;

/** One entry of an agent's plan. */
export const planEntrySchema = z.object({
  content: z.string(),
  priority: z.enum(['high', 'medium', 'low']),
  status: z.enum(['pending', 'in_progress', 'completed']),
});
/** One entry of an agent's plan. */
export type PlanEntry = z.infer<typeof planEntrySchema>;

/** How an agent's permission option answers (ACP's `PermissionOptionKind`). */
export const permissionOptionKindSchema = z.enum([
  'allow_once',
  'allow_always',
  'reject_once',
  'reject_always',
]);

/** One of the answers an agent offers to its permission request. */
export const permissionOptionSchema = z.object({
  /** The id to pass as `approve`'s `optionId`. */
  optionId: z.string(),
  name: z.string(),
  kind: permissionOptionKindSchema,
});
/** An answer an agent offers to its permission request. */
export type PermissionOption = z.infer<typeof permissionOptionSchema>;

/** A slash command an agent offers. */
export const agentCommandSchema = z.object({ name: z.string(), description: z.string() });

/** A mode of an agent's session (e.g. ask, code, plan). */
export const agentModeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
});

/** A setting of an agent's session (its model, its permission mode, …), switched by `agentOption`. */
export const agentConfigOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  /** What it is about, for a page to place it (`mode`, `model`, `thought_level`, or another word). */
  category: z.string().optional(),
  /** `select`: one of `options`; `boolean`: on or off. */
  type: z.enum(['select', 'boolean']),
  currentValue: z.union([z.string(), z.boolean()]),
  options: z.array(z.object({ value: z.string(), name: z.string() })).optional(),
});
/** A setting of an agent's session. */
export type AgentConfigOption = z.infer<typeof agentConfigOptionSchema>;

/** The context window as an agent last reported it. */
export const agentUsageSchema = z.object({
  /** Tokens in the context now. */
  used: z.number().nonnegative(),
  /** The context window's size in tokens. */
  size: z.number().nonnegative(),
});

/**
 * The current conversation's agent session, when it is backed by an ACP agent: what it offers
 * now (modes, settings, commands), its plan and usage, and whether it can take another turn.
 */
export const agentSessionSchema = z.object({
  agentId: z.string().min(1),
  /** False when the session cannot continue (see `reason`); its history stays readable. */
  canContinue: z.boolean(),
  reason: z.string().optional(),
  modes: z.object({ current: z.string(), list: z.array(agentModeSchema) }).optional(),
  configOptions: z.array(agentConfigOptionSchema),
  commands: z.array(agentCommandSchema),
  plan: z.array(planEntrySchema),
  usage: agentUsageSchema.optional(),
});
/** The current conversation's agent session. */
export type AgentSession = z.infer<typeof agentSessionSchema>;

/** A session an agent lists (`session/list`), e.g. one started at the desk, to open on the phone. */
export const listedSessionSchema = z.object({
  sessionId: z.string(),
  /** Its working folder on the host. */
  cwd: z.string(),
  title: z.string().optional(),
  /** ISO 8601, as the agent gave it. */
  updatedAt: z.string().optional(),
  /** The conversation it is open in already, if any. */
  conversationId: z.string().optional(),
});
/** A session an agent lists. */
export type ListedSession = z.infer<typeof listedSessionSchema>;
