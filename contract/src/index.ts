export { CONTINUABLE_STATUSES, isContinuable } from './actionRules';
export type {
  Action,
  ActionName,
  ActionOf,
  ActionResponse,
  ActionResultOf,
  SensitiveAction,
  UploadResponse,
} from './actions';
export {
  ACTION_NAMES,
  ACTION_SCHEMAS,
  actionResponseSchema,
  actionResultSchemas,
  actionSchema,
  isSensitiveAction,
  parseAction,
  SENSITIVE_ACTIONS,
  uploadResponseSchema,
} from './actions';
export type {
  Agent,
  AgentConfigOption,
  AgentSession,
  AgentState,
  AgentToolCall,
  AgentToolContent,
  FileDiff,
  ListedSession,
  PermissionOption,
  PlanEntry,
  StopReason,
} from './agents';
export {
  agentCommandSchema,
  agentConfigOptionSchema,
  agentDiffContentSchema,
  agentModeSchema,
  agentSchema,
  agentSessionSchema,
  agentStateSchema,
  agentTerminalContentSchema,
  agentToolCallSchema,
  agentToolContentSchema,
  agentToolKindSchema,
  agentToolStatusSchema,
  agentUsageSchema,
  BUILTIN_AGENT,
  fileDiffSchema,
  listedSessionSchema,
  permissionOptionKindSchema,
  permissionOptionSchema,
  planEntrySchema,
  stopReasonSchema,
} from './agents';
export type { ApprovalAsk } from './approvalAsk';
export { type AskedApproval, agentNameOf, approvalAsk, approvalAskSchema, notifiedTool } from './approvalAsk';
export { CONNECTION_STRINGS_AR } from './connectionStrings/ar';
export { CONNECTION_STRINGS_DE } from './connectionStrings/de';
export { CONNECTION_STRINGS_ES } from './connectionStrings/es';
export { CONNECTION_STRINGS_FR } from './connectionStrings/fr';
export { CONNECTION_STRINGS_JA } from './connectionStrings/ja';
export { CONNECTION_STRINGS_PT_BR } from './connectionStrings/pt-BR';
export { CONNECTION_STRINGS_ZH_CN } from './connectionStrings/zh-CN';
export type { DecodedFrame, FrameFailure, SseMessage } from './decodeFrame';
export { decodeFrame } from './decodeFrame';
export type { Device, DevicesResponse, ForgetDeviceRequest, PairRequest, PairResponse } from './devices';
export {
  deviceSchema,
  devicesResponseSchema,
  forgetDeviceRequestSchema,
  forgetDeviceResponseSchema,
  MAX_DEVICE_NAME,
  MAX_DEVICES,
  PAIRING_TOKEN_TTL_MS,
  pairRequestSchema,
  pairResponseSchema,
} from './devices';
export type {
  AppendEvent,
  DeltaEvent,
  EventFrames,
  HeartbeatEvent,
  ProjectionDelta,
  SnapshotEvent,
  StateEvent,
  StreamEvent,
} from './events';
export {
  APPEND_EVENT,
  appendEventSchema,
  appendFrameSchema,
  appendSchema,
  deltaEventSchema,
  eventFramesSchema,
  eventsQuerySchema,
  HEARTBEAT_EVENT,
  heartbeatEventSchema,
  messagePatchSchema,
  projectionDeltaSchema,
  STATE_EVENT,
  snapshotEventSchema,
  stateDataSchema,
  stateEventSchema,
  streamEventSchema,
} from './events';
export { type Accepts, fastAccept, fastParser, type StringRules, stringRules } from './fastAccept';
export type { DeclaredHeader } from './headers';
export { bearerHeaderSchema, HEADER_REFUSALS, headersOf, isPublicRoute, isViewAllowed } from './headers';
export type { SessionGuard, SessionIdentity } from './identity';
export {
  identityKey,
  identityOf,
  madeAgainst,
  sameIdentity,
  sessionGuardShape,
  sessionIdentitySchema,
} from './identity';
export { formatLastEventId, formatStateTag, parseLastEventId, parseStateTag } from './lastEventId';
export type { AccessLevel } from './limits';
export {
  ACCESS_HEADER,
  ACTION_ID_TTL_MS,
  CLIENT_ADDRESS_HEADER,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_MEDIA_TTL_MS,
  DEFAULT_UPLOAD_LIMIT,
  MAX_JSON,
  MAX_MESSAGE_TEXT,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
} from './limits';
export type { ConnectionStringKey, Locale } from './locale';
export { CONNECTION_STRINGS, localeSchema } from './locale';
export { loneAppend } from './loneAppend';
export type { ProblemExtras } from './ProtocolError';
export { ProtocolError, problemBody, problemHeaders } from './ProtocolError';
export type { ErrorCode, Problem } from './problem';
export {
  ERROR_CODES,
  ERROR_STATUS,
  ERROR_TITLE,
  PROBLEM_CONTENT_TYPE,
  problemSchema,
  problemType,
  sessionMismatchSchema,
  validationIssueSchema,
} from './problem';
export type { PushChoices, PushDecision, PushPayload, PushSubscriptionJson } from './push';
export { pushChoicesSchema, pushDecisionSchema, pushPayloadSchema, pushSubscriptionSchema } from './push';
export { MAX_MEDIA_ID, mediaQuerySchema, uploadQuerySchema } from './queries';
export type { Contract } from './router';
export { contract } from './router';
export { parseJsonSafely, withoutForbiddenKeys } from './safeJson';
export type {
  Approval,
  ApprovalDecision,
  Attachment,
  ConversationSummary,
  Decider,
  HostAttachment,
  HostMessage,
  McpServer,
  MediaRef,
  Message,
  MessageRole,
  MessageStatus,
  Model,
  Project,
  Projection,
  RunStatus,
  Settings,
  Snapshot,
  Tool,
  ToolCall,
  Workspace,
} from './snapshot';
export {
  accessCodeDeciderSchema,
  approvalDecisionSchema,
  approvalSchema,
  attachmentSchema,
  conversationSummarySchema,
  deciderSchema,
  deviceDeciderSchema,
  hostDeciderSchema,
  hostMessageSchema,
  mcpServerSchema,
  mediaRefSchema,
  messageRoleSchema,
  messageSchema,
  messageStatusSchema,
  modelSchema,
  projectionSchema,
  projectSchema,
  runStatusSchema,
  settingsSchema,
  snapshotSchema,
  toolCallSchema,
  toolSchema,
  wireAttachmentSchema,
  workspaceSchema,
} from './snapshot';
export { heartbeatFrame, sseFrame, streamEventFrame } from './sseFrame';
export type { StatePart, StateSide } from './stateParts';
export { CONFIGURATION_PARTS, DELTA_PARTS, STATE_PARTS } from './stateParts';
