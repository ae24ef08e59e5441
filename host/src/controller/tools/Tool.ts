import { ToolError } from './ToolError';

/** Arguments of a tool call, parsed from the model's JSON. */
export type ToolArgs = Readonly<Record<string, unknown>>;

/**
 * A tool the model may call. It acts inside one project's workspace folder and returns the
 * text the model (and the user) sees as the result.
 */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** Whether a call waits for the user's approval (unless auto-approved in settings). */
  readonly needsApproval: boolean;
  /** JSON Schema of the arguments, offered to models that call tools by schema. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** One line a person can judge the call by. Never throws. */
  summarize(args: ToolArgs): string;
  /** Carries out the call. Throws {@link ToolError} when it cannot. */
  run(args: ToolArgs, workspace: string): string;
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

/** A short, single-line rendering of a value for summaries. */
export function preview(value: unknown, max = 60): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
