import type { McpServers } from './McpServers';

/** The console's help lines for {@link mcpCommand}. */
export const MCP_CONSOLE_HELP = `  mcp                  the MCP servers: state, tools, approval policy, last error
  mcp restart <name>   restart an MCP server now`;

/**
 * The console's `mcp` command: without an argument it lists the servers (one line each, with
 * the reason of a failure under it); `restart <name>` restarts one at once.
 *
 * @example
 * ```text
 * webbridge> mcp
 *   everything   ready       13 tools  stdio  asks first
 *   github       failed       0 tools  stdio  asks first
 *                It could not start: spawn github-mcp ENOENT Retrying in 4 s.
 * ```
 */
export function mcpCommand(mcp: McpServers | undefined, arg: string, print: (text: string) => void): void {
  if (!mcp) {
    print('No MCP servers are configured (see <data dir>/mcp.json or --mcp-config).');
    return;
  }
  const [verb = '', name = ''] = arg.split(/\s+/);
  if (verb === 'restart') {
    if (name === '') throw new Error('Name a server: mcp restart <name>');
    print(mcp.restart(name) ? `Restarting ${name}.` : `No startable MCP server "${name}"; see \`mcp\`.`);
    return;
  }
  if (verb !== '') throw new Error('Usage: mcp, or mcp restart <name>');
  const servers = mcp.servers();
  const width = Math.max(...servers.map((server) => server.name.length));
  for (const server of servers) {
    const tools = `${String(server.toolCount).padStart(3)} tools`;
    const policy = server.approval === 'allow' ? 'runs without asking' : 'asks first';
    print(
      `  ${server.name.padEnd(width)}  ${server.state.padEnd(10)}  ${tools}  ${server.transport.padEnd(5)}  ${policy}`,
    );
    if (server.lastError !== undefined) print(`  ${' '.repeat(width)}  ${server.lastError}`);
  }
}
