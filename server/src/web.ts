// The bridge's web-standard part, for a bridge with no Node around it: the web client's
// offline mocks run it in the page (web/src/mocks; `vite --mode mock` resolves
// `@webbridge/server` here). Every name is also exported by index.ts, so code typed against the
// package's declarations runs on this entry unchanged.
export { createBridgeCore } from './createBridgeCore';
export { chatOnlyActions } from './embedding/chatOnlyActions';
export { createProjectionStore } from './embedding/createProjectionStore';
export { createSerialQueue } from './embedding/createSerialQueue';
export { EchoReplies } from './embedding/EchoReplies';
export { emptyProjection } from './embedding/emptyProjection';
export { MemoryConversations } from './embedding/MemoryConversations';
export { MemoryFiles } from './embedding/MemoryFiles';
