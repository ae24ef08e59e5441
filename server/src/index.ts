export type { ProblemExtras, ProjectionDelta } from '@webbridge/contract';
export { ProtocolError, problemBody } from '@webbridge/contract';
export { TlsSetupError } from './adapters/tls/loadUserCertificate';
export { writeSecretFile } from './adapters/tls/writeSecretFile';
export { BridgeMemory } from './BridgeMemory';
export type {
  AuthorityInfo,
  BridgeOptions,
  ListeningAddress,
  ListenOptions,
  TransportOptions,
} from './BridgeOptions';
export type { Bridge } from './createBridge';
export { createBridge } from './createBridge';
export type { BridgeCore, BridgeCoreOptions, BridgeDevices, BridgeTuning } from './createBridgeCore';
export { createBridgeCore } from './createBridgeCore';
export type { DeviceStore, StoredDevice } from './devices/DeviceStore';
export type { ForgetListener, ListedDevice } from './devices/Devices';
export type { PairingRateOptions } from './devices/PairingRate';
export type { ChatOnlyActionName } from './embedding/chatOnlyActions';
export { chatOnlyActions } from './embedding/chatOnlyActions';
export type { ProjectionStore } from './embedding/createProjectionStore';
export { createProjectionStore } from './embedding/createProjectionStore';
export { createSerialQueue } from './embedding/createSerialQueue';
export { EchoReplies } from './embedding/EchoReplies';
export type { EmptyProjectionOptions } from './embedding/emptyProjection';
export { emptyProjection } from './embedding/emptyProjection';
export type { ConversationActionName } from './embedding/MemoryConversations';
export { MemoryConversations } from './embedding/MemoryConversations';
export { MemoryDeviceStore } from './embedding/MemoryDeviceStore';
export { MemoryFiles } from './embedding/MemoryFiles';
export { createSignatureCache } from './events/configSignature';
export type { Latest, NextSend, SentState } from './events/nextSend';
export { deltaEventOf, nextSend, snapshotEventOf } from './events/nextSend';
export type { ConnectionInfo } from './events/Subscription';
export type { BridgeFiles, OpenedFile, ReceivedFile } from './files/BridgeFiles';
export type { AuthThrottleOptions } from './guards/AuthThrottle';
export { TrustedProxies } from './guards/clientAddress';
export type {
  ActionOrigin,
  CompletedUpload,
  DeferredActionName,
  HostActionHandlers,
  HostActionName,
  HostAdapter,
  MediaFile,
} from './HostAdapter';
export { MediaRegistry } from './media/MediaRegistry';
export { WireMapper } from './media/WireMapper';
