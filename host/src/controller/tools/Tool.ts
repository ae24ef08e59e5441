import type { FileDiff, Settings } from '@webbridge/contract';
import { ToolError } from './ToolError';

/** Arguments of a tool call, parsed from the model's JSON. */
export type ToolArgs = Readonly<Record<string, unknown>>;

/** A file a tool produced (an image, a resource), attached to its result message. */
export interface ToolFile {
  readonly name: string;
  /** MIME type. */
  readonly type: string;
  readonly data: Uint8Array;
}

/** What a tool answers: its text, or its text and the files that go with it. */
export type ToolResult = string | { readonly text: string; readonly files: readonly ToolFile[] };

/** What a tool call runs with. */
export interface ToolContext {
  /** The real path of the project's workspace folder; every path argument stays inside it. */
  readonly workspace: string;
  /** The settings at the time the call runs. */
  readonly settings: Settings;
  /** Aborted when the user stops the call (or the host shuts down). */
  readonly signal: AbortSignal;
}

/**
 * A tool the model may call. It acts inside one project's workspace folder and returns the
 * text the model (and the user) sees as the result. `R` narrows what `run` answers, for a
 * tool known to answer text only.
 */
export interface Tool<R extends ToolResult = ToolResult> {
  readonly name: string;
  readonly description: string;
  /** Whether a call waits for the user's approval (unless auto-approved in settings). */
  readonly needsApproval: boolean;
  /** The MCP server the tool comes from; absent for the host's own tools. */
  readonly server?: string;
  /** JSON Schema of the arguments, offered to models that call tools by schema. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /**
   * Whether the settings allow calls at all. A disabled tool is listed (with `enabled: false`)
   * but not offered to models, and a call of it fails without asking. Absent: always enabled.
   */
  enabled?(settings: Settings): boolean;
  /** One line a person can judge the call by. Never throws. */
  /**
   * What a call would change, file by file, for its approval to show (undefined or empty when
   * it is not known). Reads only; never throws.
   */
  diffs?(args: ToolArgs, workspace: string): FileDiff[];
  summarize(args: ToolArgs): string;
  /**
   * Carries out the call and returns the result text (and files, if any): at once for quick
   * work on the main executor, or as a promise for long work (a command, an MCP call), which
   * then shows as the conversation's running step until it settles and is abandoned when
   * `context.signal` aborts. Throws (or rejects with) a {@link ToolError} when it cannot.
   */
  run(args: ToolArgs, context: ToolContext): R | Promise<R>;
}

/** Whether a tool may be called under these settings. */
export function isToolEnabled(tool: Tool, settings: Settings): boolean {
  return tool.enabled === undefined || tool.enabled(settings);
}

/** Reads a string argument, or throws a {@link ToolError} naming it. */
export function stringArg(args: ToolArgs, name: string): string {
  const value = args[name];
  if (typeof value !== 'string') throw new ToolError(`The argument "${name}" must be a string.`);
  return value;
}

/** Reads an optional string argument. */
export function optionalStringArg(args: ToolArgs, name: string): string | undefined {
  return args[name] === undefined ? undefined : stringArg(args, name);
}

/** Reads an optional integer argument within `[min, max]`, or throws a {@link ToolError} naming it. */
export function optionalIntArg(args: ToolArgs, name: string, min: number, max: number): number | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ToolError(`The argument "${name}" must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

/** Reads an optional boolean argument. */
export function optionalBooleanArg(args: ToolArgs, name: string): boolean | undefined {
  const value = args[name];
  if (value === undefined || typeof value === 'boolean') return value;
  throw new ToolError(`The argument "${name}" must be true or false.`);
}

/** A short, single-line rendering of a value for summaries. */
export function preview(value: unknown, max = 60): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
