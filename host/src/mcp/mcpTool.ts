import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { preview, type Tool, type ToolArgs } from '../controller/tools/Tool';
import { isDestructive, needsApproval } from './approvalPolicy';
import type { McpConnection } from './McpConnection';
import { toToolResult } from './toToolResult';

/** Separates a server's name from its tool's in the names the model sees. */
export const NAME_SEPARATOR = '__';
/** Longest tool name models accept. */
const MAX_NAME = 64;
/** Longest description kept: a server cannot fill every snapshot and every request. */
const MAX_DESCRIPTION = 2_000;
/** Largest input schema kept (JSON); a tool with a larger one is left out. */
export const MAX_SCHEMA_BYTES = 64 * 1024;

/** The name a server's tool has for the model: `<server>__<tool>`, in `[A-Za-z0-9_-]{1,64}`. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}${NAME_SEPARATOR}${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, MAX_NAME);
}

/**
 * A server's tool as one of the host's: named by server, described and typed by its own
 * description and input schema, asking first by the server's policy (and always when it is
 * destructive), and answering through the server's connection, so that a call while the
 * server is away fails with a readable reason. Returns undefined for a tool whose schema is
 * too large or not an object schema.
 */
export function mcpTool(connection: McpConnection, tool: McpTool): Tool | undefined {
  const parameters = parametersOf(tool.inputSchema);
  if (parameters === undefined) return undefined;
  const server = connection.name;
  const destructive = isDestructive(tool);
  const description = (tool.description ?? tool.title ?? '').trim();
  return {
    name: mcpToolName(server, tool.name),
    description:
      description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
    needsApproval: needsApproval(connection.config.approval, tool),
    server,
    parameters,
    summarize: (args: ToolArgs) =>
      `${server}: ${tool.name} ${preview(args, 100)}${destructive ? ' (marked destructive)' : ''}`,
    run: async (args, { signal }) =>
      toToolResult(await connection.call(tool.name, { ...args }, signal), tool.name),
  };
}

/** The input schema as offered to models, without `$schema` (some providers refuse it). */
function parametersOf(schema: McpTool['inputSchema']): Readonly<Record<string, unknown>> | undefined {
  if (schema.type !== 'object') return undefined;
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  if (Buffer.byteLength(JSON.stringify(rest)) > MAX_SCHEMA_BYTES) return undefined;
  return rest;
}
