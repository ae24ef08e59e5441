export type {
  AccessLevel,
  Action,
  ActionName,
  ActionOf,
  ActionResultOf,
  Approval,
  ApprovalDecision,
  Attachment,
  ConnectionStringKey,
  ConversationSummary,
  Decider,
  Device,
  DevicesResponse,
  ErrorCode,
  HostAttachment,
  Locale,
  MediaRef,
  Message,
  MessageRole,
  MessageStatus,
  Model,
  Problem,
  Project,
  PushChoices,
  PushPayload,
  PushSubscriptionJson,
  RunStatus,
  SessionIdentity,
  Settings,
  Snapshot,
  Tool,
  ToolCall,
  Workspace,
} from '@webbridge/contract';
// A sensitive action's guard is the identity of the state it was made from: one rule, contract/'s.
export { CONNECTION_STRINGS, identityOf as sessionGuardOf, parseJsonSafely } from '@webbridge/contract';
export type {
  BridgeClient,
  BridgeClientOptions,
  RequestOptions,
  SensitiveActionName,
  SensitiveArgs,
  SensitiveOptions,
  SensitiveOutcome,
} from './BridgeClient';
export type { ClientErrorCode } from './BridgeClientError';
export { BridgeClientError } from './BridgeClientError';
export { createBridgeClient } from './client';
export { createActionId } from './createActionId';
export type { Destination } from './destinationOf';
export { destinationOf } from './destinationOf';
export type { DeviceClient, DeviceClientOptions } from './devices';
export { createDeviceClient } from './devices';
export type { BackoffOptions } from './events/backoffDelay';
export { backoffDelay } from './events/backoffDelay';
export type { ConnectEventsOptions, EventConnection } from './events/ConnectEventsOptions';
export { connectEvents } from './events/connectEvents';
export type { EventStreamErrorKind } from './events/EventStreamError';
export { EventStreamError } from './events/EventStreamError';
export { staleAfterMs } from './events/liveness';
export type { ReadEventStreamOptions, StreamItem } from './events/readEventStream';
export { readEventStream } from './events/readEventStream';
export type { WakeSources } from './events/watchWake';
export { parseRetryAfter } from './parseRetryAfter';
export type { ApplyResult, ResyncReason, SyncState } from './reducer';
export { applyEvent } from './reducer';
export type {
  ConnectionStatus,
  PendingAction,
  Store,
  StoreListener,
  StoreState,
  WritableStore,
} from './store';
export { createStore } from './store';
export type { UploadOptions, UploadTransport } from './uploadFile';
