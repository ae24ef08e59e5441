import type { McpServer } from '@agentclientprotocol/sdk';
import type { HostStore } from '../db/HostStore';
import type { MainExecutor } from '../executor/MainExecutor';
import type { ModelProvider } from '../models/ModelProvider';
import type { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import type { AgentDirectory } from './AgentDirectory';
import type { Tool } from './tools/Tool';
import type { ToolSource } from './tools/ToolSource';

/** Options of the chat controller (`ChatController`). */
export interface ChatControllerOptions {
  /** The opened store (see `openDatabase`). The controller closes it on `close()`. */
  readonly store: HostStore;
  /** The main executor replies report back through. */
  readonly executor: MainExecutor;
  /** Decides which workspace folders are allowed; its first root is the default project's. */
  readonly authoriser: WorkspaceAuthoriser;
  /** Pause between echoed words. @default 30 */
  readonly echoDelayMs?: number;
  /** More model providers beside the echo model. */
  readonly providers?: readonly ModelProvider[];
  /** The bridge's upload folder, where the host also stores large tool results. */
  readonly uploadDir: string;
  /** The tools the models may call. @default BUILTIN_TOOLS */
  readonly tools?: readonly Tool[];
  /** Tools that come and go beside them (MCP servers'). */
  readonly toolSource?: ToolSource;
  /** The ACP agents a conversation may be backed by, beside the built-in loop (`Agents`). */
  readonly agents?: AgentDirectory;
  /** The host's MCP servers as ACP passes them to `session/new`, for agents that take them. @default [] */
  readonly agentMcpServers?: readonly McpServer[];
}
