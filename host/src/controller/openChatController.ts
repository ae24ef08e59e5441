import fs from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import { HostStore } from '../db/HostStore';
import { openDatabase } from '../db/openDatabase';
import { MainExecutor } from '../executor/MainExecutor';
import type { ModelProvider } from '../models/ModelProvider';
import { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import type { AgentDirectory } from './AgentDirectory';
import { ChatController } from './ChatController';
import type { Tool } from './tools/Tool';
import type { ToolSource } from './tools/ToolSource';

/** Options of {@link openChatController}. */
export interface OpenChatControllerOptions {
  /** Holds `webbridge.db` and the default workspace folder `workspace/`. Created if missing. */
  readonly dataDir: string;
  /** Folders (absolute paths, must exist) the browser may point a project at, besides `<dataDir>/workspace`. */
  readonly workspaceRoots?: readonly string[];
  /** Pause between echoed words. @default 30 */
  readonly echoDelayMs?: number;
  /** The executor to run on. @default a new MainExecutor */
  readonly executor?: MainExecutor;
  /** More model providers beside the echo model. */
  readonly providers?: readonly ModelProvider[];
  /** The tools models may call. @default BUILTIN_TOOLS */
  readonly tools?: readonly Tool[];
  /** Tools that come and go beside them (MCP servers'). */
  readonly toolSource?: ToolSource;
  /** The ACP agents a conversation may be backed by, beside the built-in loop. */
  readonly agents?: AgentDirectory;
  /** The host's MCP servers as ACP passes them to `session/new`. @default [] */
  readonly agentMcpServers?: readonly McpServer[];
}

/**
 * Opens the controller of a data directory: the SQLite file, the default workspace folder and
 * the authorised roots. Close it with `controller.close()`.
 *
 * @example
 * ```ts
 * const controller = openChatController({ dataDir: '/tmp/wb', echoDelayMs: 1 });
 * await controller.executor.run(() => controller.messages.send('hello'));
 * ```
 */
export function openChatController(options: OpenChatControllerOptions): ChatController {
  const dataDir = path.resolve(options.dataDir);
  const workspace = path.join(dataDir, 'workspace');
  // The data dir first, private (0700) when made here; see openDatabase.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(workspace, { recursive: true });
  const authoriser = new WorkspaceAuthoriser([workspace, ...(options.workspaceRoots ?? [])]);
  const store = new HostStore(openDatabase(dataDir));
  try {
    return new ChatController({
      store,
      authoriser,
      executor: options.executor ?? new MainExecutor(),
      // The bridge's upload folder (see startHost): the host's own files live beside uploads.
      uploadDir: path.join(dataDir, 'uploads'),
      ...(options.echoDelayMs === undefined ? {} : { echoDelayMs: options.echoDelayMs }),
      ...(options.providers === undefined ? {} : { providers: options.providers }),
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      ...(options.toolSource === undefined ? {} : { toolSource: options.toolSource }),
      ...(options.agents === undefined ? {} : { agents: options.agents }),
      ...(options.agentMcpServers === undefined ? {} : { agentMcpServers: options.agentMcpServers }),
    });
  } catch (error) {
    store.close();
    throw error;
  }
}
