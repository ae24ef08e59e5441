import type { Tool, ToolArgs } from './Tool';
import { ToolError } from './ToolError';

/** How a tool call ended, ready to be recorded as a `tool` message. */
export interface ToolOutcome {
  readonly text: string;
  readonly status: 'complete' | 'error';
  readonly error: string | null;
}

/**
 * Runs a tool and turns any failure into a recorded outcome. Unexpected errors are reduced to
 * a generic message, because their text (from fs, say) can name paths outside the workspace.
 */
export function executeTool(tool: Tool, args: ToolArgs, workspace: string): ToolOutcome {
  try {
    return { text: tool.run(args, workspace), status: 'complete', error: null };
  } catch (error) {
    const reason = error instanceof ToolError ? error.message : `The tool ${tool.name} failed.`;
    return { text: `Error: ${reason}`, status: 'error', error: reason };
  }
}

/** Parses a tool call's JSON arguments; undefined unless they are a JSON object. */
export function parseToolArgs(text: string): ToolArgs | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return value as ToolArgs;
  } catch {
    return undefined;
  }
}
