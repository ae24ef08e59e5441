export { createHostAdapter } from './adapter/createHostAdapter';
export { hostLocale } from './adapter/hostLocale';
export type { AgentClientHandlers, AgentFileWrite } from './agents/AgentClientHandlers';
export type { AgentConnection, AgentInfo, AgentSessionRequest } from './agents/AgentConnection';
export type { AgentAppEntry, AgentCommandEntry, AgentEntry } from './agents/AgentEntry';
export type { AgentErrorKind } from './agents/AgentError';
export { AgentError } from './agents/AgentError';
export type { AgentLog } from './agents/AgentLog';
export type { AgentTuning } from './agents/AgentProcess';
export type { AgentsOptions } from './agents/Agents';
export { Agents } from './agents/Agents';
export { agentEntries } from './agents/agentEntries';
export { generateAccessCode } from './cli/generateAccessCode';
export type { ApprovalActions } from './controller/ApprovalActions';
export type { AttachmentActions } from './controller/AttachmentActions';
export type { AttachmentFile } from './controller/Attachments';
export type { ChatControllerOptions } from './controller/ChatController';
export { ChatController } from './controller/ChatController';
export type { ConversationActions } from './controller/ConversationActions';
export type { MessageActions } from './controller/MessageActions';
export type { OpenChatControllerOptions } from './controller/openChatController';
export { openChatController } from './controller/openChatController';
export type { ProjectActions } from './controller/ProjectActions';
export type { SettingsActions } from './controller/SettingsActions';
export { BUILTIN_TOOLS } from './controller/tools/builtinTools';
export type { RunCommandOptions } from './controller/tools/runCommand';
export { createRunCommand } from './controller/tools/runCommand';
export type { SearchTextOptions } from './controller/tools/searchText';
export { createSearchText } from './controller/tools/searchText';
export type { Tool, ToolArgs, ToolContext, ToolFile, ToolResult } from './controller/tools/Tool';
export { ToolError } from './controller/tools/ToolError';
export type { ToolServerView, ToolSource } from './controller/tools/ToolSource';
export { HostStore } from './db/HostStore';
export { openDatabase } from './db/openDatabase';
export { MainExecutor } from './executor/MainExecutor';
export type { McpServersOptions } from './mcp/McpServers';
export { McpServers } from './mcp/McpServers';
export type { McpLog, McpTuning } from './mcp/McpTuning';
export type { McpApproval, McpEntry, McpHttpConfig, McpServerConfig, McpStdioConfig } from './mcp/mcpConfig';
export { loadMcpConfig, parseMcpConfig } from './mcp/mcpConfig';
export type { ModelConfig, OpenAiConfig } from './models/createModelProviders';
export { createModelProviders } from './models/createModelProviders';
export { EchoModel, echoTokens } from './models/EchoModel';
export { ModelError } from './models/ModelError';
export type {
  ModelAttachment,
  ModelEvent,
  ModelInfo,
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelTool,
} from './models/ModelProvider';
export { ModelRegistry } from './models/ModelRegistry';
export type { OpenAiCompatibleOptions } from './models/OpenAiCompatibleModel';
export { OpenAiCompatibleModel } from './models/OpenAiCompatibleModel';
export { listOpenAiModels } from './models/openai/listOpenAiModels';
export type { RunningHost, StartHostOptions } from './startHost';
export { startHost, webClientDir } from './startHost';
export { WorkspaceAuthoriser } from './workspace/WorkspaceAuthoriser';
