import type { Tool, ToolArgs, ToolContext, ToolFile, ToolResult } from './Tool';
import { ToolError } from './ToolError';

/** How a tool call ended, ready to be recorded as a `tool` message. */
export interface ToolOutcome {
  readonly text: string;
  readonly status: 'complete' | 'error';
  readonly error: string | null;
  /** Files the tool produced, attached to the result message. */
  readonly files?: readonly ToolFile[];
}

/**
 * Runs a tool and turns any failure into a recorded outcome: at once for a tool that answers
 * at once, as a promise (that never rejects) for one that works in the background.
 * Unexpected errors are reduced to a generic message, because their text (from fs, say) can
 * name paths outside the workspace.
 */
export function executeTool(
  tool: Tool,
  args: ToolArgs,
  context: ToolContext,
): ToolOutcome | Promise<ToolOutcome> {
  let value: ToolResult | Promise<ToolResult>;
  try {
    value = tool.run(args, context);
  } catch (error) {
    return failure(tool, error);
  }
  if (!(value instanceof Promise)) return success(value);
  return value.then(success, (error: unknown) => failure(tool, error));
}

/** The outcome of a call that was refused before it ran. */
export function refusal(reason: string): ToolOutcome {
  return { text: `Error: ${reason}`, status: 'error', error: reason };
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

function success(value: ToolResult): ToolOutcome {
  if (typeof value === 'string') return { text: value, status: 'complete', error: null };
  return { text: value.text, status: 'complete', error: null, files: value.files };
}

function failure(tool: Tool, error: unknown): ToolOutcome {
  return refusal(error instanceof ToolError ? error.message : `The tool ${tool.name} failed.`);
}
