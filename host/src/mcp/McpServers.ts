import type { Tool } from '../controller/tools/Tool';
import type { ToolServerView, ToolSource } from '../controller/tools/ToolSource';
import { McpConnection } from './McpConnection';
import { DEFAULT_MCP_TUNING, type McpLog, type McpTuning } from './McpTuning';
import type { McpEntry } from './mcpConfig';
import { mcpTool, NAME_SEPARATOR } from './mcpTool';

/** Options of {@link McpServers}. */
export interface McpServersOptions {
  /** The entries of the MCP config (see `loadMcpConfig`). */
  readonly entries: readonly McpEntry[];
  /** Where lifecycle lines go. @default nowhere */
  readonly log?: McpLog;
  readonly tuning?: McpTuning;
}

/** A server entry the host cannot use: listed as failed, never started. */
interface InvalidServer {
  readonly name: string;
  readonly view: ToolServerView;
}

/**
 * The host's MCP servers as a {@link ToolSource}: the tools of every ready server, named
 * `<server>__<tool>`, and every server's status. Listeners are told after any change (a
 * server started, failed, restarted, or changed its tools), from the connections' callbacks.
 *
 * @example
 * ```ts
 * const mcp = new McpServers({ entries: loadMcpConfig([{ file, optional: true }]) });
 * mcp.start();
 * const controller = openChatController({ dataDir, toolSource: mcp });
 * // ... later
 * await mcp.close();
 * ```
 */
export class McpServers implements ToolSource {
  private readonly connections = new Map<string, McpConnection>();
  private readonly invalid: readonly InvalidServer[];
  private readonly listeners = new Set<() => void>();
  private readonly log: McpLog;
  private cache: { readonly tools: readonly Tool[]; readonly byName: ReadonlyMap<string, Tool> } | undefined;

  constructor(options: McpServersOptions) {
    this.log = options.log ?? (() => {});
    const tuning = { ...DEFAULT_MCP_TUNING, ...options.tuning };
    const invalid: InvalidServer[] = [];
    for (const entry of options.entries) {
      if ('invalid' in entry) {
        invalid.push({ name: entry.name, view: invalidView(entry.name, entry.transport, entry.invalid) });
        continue;
      }
      this.connections.set(entry.name, new McpConnection(entry, tuning, this.log, () => this.changed()));
    }
    this.invalid = invalid;
  }

  /** Whether any server is configured (valid or not). */
  get configured(): boolean {
    return this.connections.size + this.invalid.length > 0;
  }

  /** Starts every valid server in the background; logs the invalid ones. */
  start(): void {
    for (const server of this.invalid)
      this.log('error', `MCP server "${server.name}": ${server.view.lastError}`);
    for (const connection of this.connections.values()) connection.start();
  }

  list(): readonly Tool[] {
    return this.tools().tools;
  }

  find(name: string): Tool | undefined {
    const tool = this.tools().byName.get(name);
    if (tool) return tool;
    // A tool of a server that is away: known by its prefix, it fails with the server's state.
    const server = [...this.connections.values()].find((c) => name.startsWith(`${c.name}${NAME_SEPARATOR}`));
    // A ready server without that tool: the model made the name up ("there is no tool").
    if (!server || server.state === 'ready') return undefined;
    return {
      name,
      description: '',
      needsApproval: false,
      server: server.name,
      parameters: { type: 'object' },
      summarize: () => `${server.name}: ${name}`,
      run: () => {
        throw server.unavailable();
      },
    };
  }

  servers(): readonly ToolServerView[] {
    const views = [...this.connections.values()].map(
      (c): ToolServerView => ({
        name: c.name,
        transport: c.config.transport,
        state: c.state,
        toolCount: c.state === 'ready' ? this.list().filter((tool) => tool.server === c.name).length : 0,
        approval: c.config.approval,
        ...(c.lastError === undefined ? {} : { lastError: c.lastError }),
      }),
    );
    return [...views, ...this.invalid.map((server) => server.view)];
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Restarts a server now. Returns false when there is no (startable) server of that name. */
  restart(name: string): boolean {
    const connection = this.connections.get(name);
    if (!connection) return false;
    this.log('info', `MCP server "${name}" is being restarted.`);
    connection.restart();
    return true;
  }

  /** Stops every server (ending their child processes). */
  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  private tools(): NonNullable<McpServers['cache']> {
    if (this.cache) return this.cache;
    const tools: Tool[] = [];
    const byName = new Map<string, Tool>();
    for (const connection of this.connections.values()) {
      if (connection.state !== 'ready') continue;
      for (const raw of connection.tools) {
        const tool = mcpTool(connection, raw);
        // Two names that clean up alike, or a schema the host will not offer: the first wins.
        if (!tool || byName.has(tool.name)) continue;
        tools.push(tool);
        byName.set(tool.name, tool);
      }
    }
    this.cache = { tools, byName };
    return this.cache;
  }

  private changed(): void {
    this.cache = undefined;
    for (const listener of this.listeners) listener();
  }
}

function invalidView(name: string, transport: 'stdio' | 'http', reason: string): ToolServerView {
  return { name, transport, state: 'failed', toolCount: 0, approval: 'ask', lastError: reason };
}
