import type { McpServer } from '@agentclientprotocol/sdk';
import type { McpEntry } from '../mcp/mcpConfig';
import { agentLaunch } from './agentLaunch';

/**
 * The host's MCP servers as ACP's `session/new` passes them, so an agent can use the same
 * tools: a stdio server as its command, arguments and configured variables (the agent starts
 * it); an HTTP one as its URL and headers (only for agents whose `mcpCapabilities.http` says
 * so: the caller checks). Invalid entries are left out. The values of `env` and `headers` are
 * the user's own configuration for that server; they reach the agent because it runs the
 * server, never the host's other secrets.
 *
 * @example
 * ```ts
 * acpMcpServers(loadMcpConfig([{ file: 'mcp.json', optional: true }]));
 * // [{ name: 'files', command: '/usr/bin/npx', args: ['-y', 'server-files'], env: [] }]
 * ```
 */
export function acpMcpServers(entries: readonly McpEntry[]): McpServer[] {
  const servers: McpServer[] = [];
  for (const entry of entries) {
    if ('invalid' in entry) continue;
    if (entry.transport === 'http') {
      servers.push({
        type: 'http',
        name: entry.name,
        url: entry.url.href,
        headers: Object.entries(entry.headers).map(([name, value]) => ({ name, value })),
      });
      continue;
    }
    servers.push({
      name: entry.name,
      // Absolute when found on the host's PATH: the agent's PATH may be shorter.
      command: agentLaunch(entry.command, {}).command,
      args: [...entry.args],
      env: Object.entries(entry.env).map(([name, value]) => ({ name, value })),
    });
  }
  return servers;
}
