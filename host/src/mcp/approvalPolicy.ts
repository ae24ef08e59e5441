import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpApproval } from './mcpConfig';

/**
 * Whether a server marks a tool destructive: `annotations.destructiveHint: true` on a tool not
 * marked read-only. A tool without annotations is not counted as destructive, although the MCP
 * specification's default for the hint is true; the server's policy (`ask` by default) covers
 * it, and a person who set `allow` trusts that server.
 */
export function isDestructive(tool: McpTool): boolean {
  const hints = tool.annotations;
  return hints?.destructiveHint === true && hints.readOnlyHint !== true;
}

/**
 * Whether calls of a server's tool wait for the user's approval: under `ask` always, under
 * `allow` only for a destructive tool. The session's auto-approve list in the settings still
 * applies on top, as for the host's own tools: it is the person's own choice, tool by tool.
 */
export function needsApproval(policy: McpApproval, tool: McpTool): boolean {
  return policy === 'ask' || isDestructive(tool);
}
