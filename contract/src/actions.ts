import { z } from 'zod';
import { agentConfigOptionSchema, listedSessionSchema } from './agents';
import { fastParser } from './fastAccept';
import { REQUIRED_GUARD_FIELDS, sessionGuardShape } from './identity';
import { MAX_MESSAGE_TEXT } from './limits';
import { pushChoicesSchema, pushSubscriptionSchema } from './push';
import { attachmentSchema, mediaRefSchema, settingsSchema } from './snapshot';

/** A client-chosen id that makes an action safe to retry: the same id returns the first result. */
const actionIdShape = { actionId: z.string().min(8).max(128).optional() } as const;

/** Declares an action that does not depend on which conversation is current. */
function plainAction<N extends string, S extends z.ZodRawShape>(name: N, shape: S) {
  return z.object({ action: z.literal(name), ...actionIdShape, ...shape }).strict();
}

/** Declares a session-sensitive action: it carries the identity fields and is checked (409). */
function sensitiveAction<N extends string, S extends z.ZodRawShape>(name: N, shape: S) {
  return z.object({ action: z.literal(name), ...actionIdShape, ...sessionGuardShape, ...shape }).strict();
}

const id = z.string().min(1).max(200);

/** Every action a browser can post to /api/action, discriminated on `action`. */
export const actionSchema = z.discriminatedUnion('action', [
  sensitiveAction('send', {
    text: z.string().max(MAX_MESSAGE_TEXT),
    /** Pending attachments to send with the text; default: all pending ones. */
    attachmentIds: z.array(id).max(100).optional(),
  }),
  sensitiveAction('stop', {}),
  sensitiveAction('continue', {}),
  sensitiveAction('workspace', { uri: z.string().min(1).max(4096) }),
  sensitiveAction('model', { modelId: id }),
  sensitiveAction('branch', {
    /** A message on the current branch; the branch switches to its sibling at `index`. */
    messageId: id,
    index: z.number().int().nonnegative(),
  }),
  sensitiveAction('editMessage', { messageId: id, text: z.string().max(MAX_MESSAGE_TEXT) }),
  sensitiveAction('regenerate', {
    /** The assistant message to answer again; default: the last one. */
    messageId: id.optional(),
  }),
  plainAction('newConversation', {
    projectId: id.optional(),
    title: z.string().max(200).optional(),
    /** The agent behind it for its whole life (`agents.list`); default: the built-in loop. */
    agentId: id.optional(),
  }),
  plainAction('selectConversation', { conversationId: id }),
  plainAction('renameConversation', { conversationId: id, title: z.string().min(1).max(200) }),
  plainAction('deleteConversation', { conversationId: id }),
  plainAction('selectProject', { projectId: id }),
  plainAction('approve', {
    approvalId: id,
    decision: z.enum(['allow', 'deny']),
    /**
     * One of an ACP agent's options (the approval's `options`); its kind must agree with
     * `decision`. Default: allow once, or reject once.
     */
    optionId: id.optional(),
  }),
  /** Switches the current conversation's agent session to one of its modes (`agents.session.modes`). */
  sensitiveAction('agentMode', { modeId: id }),
  /** Sets one of the current conversation's agent session settings (`agents.session.configOptions`). */
  sensitiveAction('agentOption', { optionId: id, value: z.union([id, z.boolean()]) }),
  /** The sessions an agent lists (e.g. ones started at the desk), to open one with `openAgentSession`. */
  plainAction('agentSessions', { agentId: id }),
  /**
   * Opens a session an agent listed as a conversation (or selects the conversation it is open in
   * already) and makes it current: the next `send` continues it. `projectId` is the project whose
   * workspace is the session's folder; default: the project whose workspace is its `cwd`.
   */
  plainAction('openAgentSession', { agentId: id, sessionId: id, projectId: id.optional() }),
  plainAction('updateSettings', { settings: settingsSchema.partial().strict() }),
  plainAction('removeAttachment', { attachmentId: id }),
  plainAction('refreshMedia', { attachmentId: id }),
  /** This device's push: the host's VAPID public key and whether (and for what) it is subscribed. */
  plainAction('pushStatus', {}),
  /** Subscribes this paired device to push (one subscription per device; a new one replaces it). */
  plainAction('subscribePush', { subscription: pushSubscriptionSchema, choices: pushChoicesSchema }),
  /** Ends this device's push subscription. */
  plainAction('unsubscribePush', {}),
  /**
   * Whether this device's page is visible. A device whose page is visible and reported so within
   * the last 45 s gets no push: it sees everything already. The page reports every 20 s while visible.
   */
  plainAction('reportPresence', { visible: z.boolean() }),
]);

/** Any action a browser can post. */
export type Action = z.infer<typeof actionSchema>;

/**
 * `actionSchema.safeParse`, with a test derived from the schema first (fastAccept.ts): a valid
 * action is taken without zod's walk; anything else gets zod's result and issues.
 */
export const parseAction = fastParser(actionSchema);
/** The name of an action. */
export type ActionName = Action['action'];
/** The action with this name. */
export type ActionOf<N extends ActionName> = Extract<Action, { action: N }>;

/** Every action's schema, by name. */
export const ACTION_SCHEMAS = Object.fromEntries(
  actionSchema.options.map((option) => [option.shape.action.value, option]),
) as unknown as { [N in ActionName]: z.ZodType<ActionOf<N>> & { shape: Record<string, z.ZodTypeAny> } };

/** All action names, in declaration order. */
export const ACTION_NAMES = actionSchema.options.map((o) => o.shape.action.value) as ActionName[];

/**
 * The session-sensitive actions, derived from the schemas: an action is sensitive when its
 * schema carries the identity fields. Never a hand-written list.
 */
export const SENSITIVE_ACTIONS: ReadonlySet<ActionName> = new Set(
  actionSchema.options
    .filter((o) => REQUIRED_GUARD_FIELDS.every((field) => field in o.shape))
    .map((o) => o.shape.action.value),
);

/** The sensitive actions as a type. */
export type SensitiveAction = Extract<Action, { sessionRevision: number }>;

/** Whether an action must pass the session identity check. */
export function isSensitiveAction(action: Action): action is SensitiveAction {
  return SENSITIVE_ACTIONS.has(action.action);
}

/** What each action returns (the response body's `result`). */
export const actionResultSchemas = {
  send: z.object({ conversationId: z.string(), messageId: z.string(), replyId: z.string() }),
  stop: z.object({ stopped: z.boolean() }),
  continue: z.object({ messageId: z.string() }),
  workspace: z.object({ projectId: z.string(), uri: z.string() }),
  model: z.object({ modelId: z.string() }),
  branch: z.object({ messageId: z.string() }),
  editMessage: z.object({ messageId: z.string(), replyId: z.string() }),
  regenerate: z.object({ replyId: z.string() }),
  newConversation: z.object({ conversationId: z.string() }),
  selectConversation: z.object({ conversationId: z.string() }),
  renameConversation: z.object({ conversationId: z.string() }),
  deleteConversation: z.object({ conversationId: z.string() }),
  selectProject: z.object({ projectId: z.string() }),
  approve: z.object({
    approvalId: z.string(),
    decision: z.enum(['allow', 'deny']),
    /** The agent's option that was answered, for an ACP agent's approval. */
    optionId: z.string().optional(),
  }),
  agentMode: z.object({ modeId: z.string() }),
  agentOption: z.object({ configOptions: z.array(agentConfigOptionSchema) }),
  agentSessions: z.object({ sessions: z.array(listedSessionSchema) }),
  openAgentSession: z.object({ conversationId: z.string() }),
  updateSettings: z.object({ settings: settingsSchema }),
  removeAttachment: z.object({ attachmentId: z.string() }),
  refreshMedia: z.object({ attachmentId: z.string(), media: mediaRefSchema }),
  pushStatus: z.object({
    /** The host's VAPID public key (base64url): the page's `applicationServerKey`. */
    publicKey: z.string(),
    /** This device's choices while it is subscribed; null when it is not (or is no paired device). */
    subscribed: pushChoicesSchema.nullable(),
    /** Whether this request came from a paired device (only those can subscribe). */
    paired: z.boolean(),
  }),
  subscribePush: z.object({ subscribed: pushChoicesSchema }),
  unsubscribePush: z.object({ subscribed: z.null() }),
  reportPresence: z.object({ visible: z.boolean() }),
} satisfies { [N in ActionName]: z.ZodTypeAny };

/** The result of the action with this name. */
export type ActionResultOf<N extends ActionName> = z.infer<(typeof actionResultSchemas)[N]>;

/** The 200 response of /api/action: the action's name and its result. */
export const actionResponseSchema = z.discriminatedUnion(
  'action',
  ACTION_NAMES.map((name) =>
    z.object({ action: z.literal(name), result: actionResultSchemas[name] }),
  ) as unknown as [ActionResponseMember, ActionResponseMember, ...ActionResponseMember[]],
);
type ActionResponseMember = z.ZodObject<{ action: z.ZodLiteral<ActionName>; result: z.ZodTypeAny }>;

/** The 200 response of /api/action. */
export type ActionResponse = { [N in ActionName]: { action: N; result: ActionResultOf<N> } }[ActionName];

/** The 201 response of /api/upload: the new pending attachment. */
export const uploadResponseSchema = z.object({ attachment: attachmentSchema });
/** The 201 response of /api/upload. */
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
