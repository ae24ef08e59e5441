import type { ContentBlock, ToolCall, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { AgentToolCall, AgentToolContent, FileDiff } from '@webbridge/contract';

/** An agent's tool call as the host shows it: the contract's call and its text output. */
export interface ShownToolCall {
  readonly call: AgentToolCall;
  /** The call's text content, joined: the `tool` message's text (so it grows by appends). */
  readonly text: string | undefined;
}

/**
 * Applies an ACP `tool_call` or `tool_call_update` (or the tool call of a permission request) to
 * what was known of the call: every field the agent sent replaces the one before, the rest stays
 * (ACP's rule for updates). `text` is undefined when the update carried no content.
 */
export function mergeToolCall(
  before: AgentToolCall | undefined,
  update: ToolCall | ToolCallUpdate,
): ShownToolCall {
  const base: AgentToolCall = before ?? {
    id: update.toolCallId,
    title: 'Tool call',
    kind: 'other',
    status: 'pending',
    locations: [],
    content: [],
  };
  const call: AgentToolCall = {
    id: base.id,
    title: update.title ?? base.title,
    kind: update.kind ?? base.kind,
    status: update.status ?? base.status,
    locations:
      update.locations == null
        ? base.locations
        : update.locations.map((l) => (l.line == null ? { path: l.path } : { path: l.path, line: l.line })),
    content:
      update.content == null ? base.content : keepDiffs(base.content, update.content.flatMap(structured)),
  };
  return {
    call,
    text: update.content == null ? outputOf(call, update.rawOutput) : update.content.map(textOf).join(''),
  };
}

/**
 * A terminal call's final output, when the update carries it only as `rawOutput.output` (its
 * terminal may be released before the host reads it).
 */
function outputOf(call: AgentToolCall, rawOutput: unknown): string | undefined {
  if (!call.content.some((c) => c.type === 'terminal')) return undefined;
  if (typeof rawOutput !== 'object' || rawOutput === null) return undefined;
  const output = (rawOutput as { output?: unknown }).output;
  return typeof output === 'string' ? output : undefined;
}

/**
 * New content replaces the old (ACP's rule), except that a change shown before stays when the
 * new content shows none: opencode puts the diff only in its permission request, and reports
 * "Wrote file successfully." when done, and the diff is what a person looks back for.
 */
function keepDiffs(before: readonly AgentToolContent[], next: AgentToolContent[]): AgentToolContent[] {
  if (next.some((c) => c.type === 'diff')) return next;
  const diffs = before.filter((c) => c.type === 'diff');
  return diffs.length === 0 ? next : [...diffs, ...next];
}

/** The file changes a tool call carries (its `diff` content). */
export function diffsOf(call: AgentToolCall): FileDiff[] {
  return call.content.flatMap((c) =>
    c.type === 'diff' ? [{ path: c.path, oldText: c.oldText, newText: c.newText }] : [],
  );
}

/** Text for a content block the host shows as text (a chunk, a tool's output). */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.title ?? block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    default: {
      const never: never = block;
      return never;
    }
  }
}

function structured(content: ToolCallContent): AgentToolContent[] {
  switch (content.type) {
    case 'content':
      return [];
    case 'diff':
      return [
        { type: 'diff', path: content.path, oldText: content.oldText ?? null, newText: content.newText },
      ];
    case 'terminal':
      return [{ type: 'terminal', terminalId: content.terminalId }];
    default: {
      const never: never = content;
      return never;
    }
  }
}

function textOf(content: ToolCallContent): string {
  return content.type === 'content' ? blockText(content.content) : '';
}
