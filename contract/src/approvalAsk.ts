import { z } from 'zod';

/** Longest target an ask names (a path or a program, cut with "…"). */
const MAX_TARGET = 100;

/**
 * What a notification asks about a waiting approval, in words a page or a service worker puts
 * in its own language: "Write notes.md?" (`write`), "Edit notes.md?" (`edit`), "Run `npm`?"
 * (`run`), "Use github__create_issue?" (`use`). `target` is a path, a program, or a tool's name.
 */
export const approvalAskSchema = z
  .object({
    verb: z.enum(['write', 'edit', 'run', 'use']),
    /** One line, at most 100 characters. */
    target: z.string().max(MAX_TARGET),
  })
  .strict();
/** What a notification asks about a waiting approval. */
export type ApprovalAsk = z.infer<typeof approvalAskSchema>;

/**
 * The reference host's own tools that may ask, and the argument a notification may show: a path
 * or a program, never the rest (file text, a patch's find and replace, a command's arguments).
 * MCP tools are named `<server>__<tool>`, so none of them can take one of these names.
 */
const HOST_TOOLS: Readonly<Record<string, { verb: ApprovalAsk['verb']; arg: 'path' | 'command' }>> = {
  write_file: { verb: 'write', arg: 'path' },
  patch_file: { verb: 'edit', arg: 'path' },
  run_command: { verb: 'run', arg: 'command' },
};

/** What {@link approvalAsk} reads of an approval (the contract's `Approval` has all of it). */
export interface AskedApproval {
  readonly tool: string;
  readonly args: string;
  /** Present on an ACP agent's question only: its `tool` and `args` are then the agent's own. */
  readonly options?: readonly unknown[] | undefined;
  /** What the call would change, file by file. */
  readonly diffs?: readonly { readonly path: string; readonly oldText: string | null }[] | undefined;
}

/**
 * What a notification (a push, a page's background notice) says about an approval: a verb and
 * a target, the tool's file or program for the host's own tools, and the tool's name alone for
 * any other tool. A notification shows on a locked screen, and a push passes through the browser
 * vendor's push service: an MCP tool's arguments (a shell line with a password in it, a body of
 * text) never reach either, only the app's approval card shows them.
 *
 * An ACP agent's question (one with `options`) has no tool name to say: its `tool` is the
 * agent's free-text title for the call (a shell call's command line, credentials and all) and
 * its `args` the call's raw input. It names the file its diff changes, by its name ("Edit
 * parser.ts?"), else the agent (`agent`: its name as the page shows it).
 *
 * @example approvalAsk({ tool: 'write_file', args: '{"path":"notes.md","content":"…"}' })
 * // { verb: 'write', target: 'notes.md' }
 */
export function approvalAsk(approval: AskedApproval, agent = 'agent'): ApprovalAsk {
  if (approval.options !== undefined) {
    const diff = approval.diffs?.[0];
    const file = diff === undefined ? '' : oneLine(diff.path.split(/[\\/]/).at(-1) ?? '');
    if (diff === undefined || file === '') return { verb: 'use', target: oneLine(agent) };
    return { verb: diff.oldText === null ? 'write' : 'edit', target: file };
  }
  const use: ApprovalAsk = { verb: 'use', target: oneLine(approval.tool) };
  const own = Object.hasOwn(HOST_TOOLS, approval.tool) ? HOST_TOOLS[approval.tool] : undefined;
  if (own === undefined) return use;
  const value = argsOf(approval.args)[own.arg];
  if (typeof value !== 'string') return use;
  // A program, not a command line: the first word, without its folder (`/usr/bin/curl` → curl).
  const target = own.arg === 'command' ? (value.trim().split(/\s+/)[0] ?? '').split(/[\\/]/).at(-1) : value;
  const line = oneLine(target ?? '');
  return line === '' ? use : { verb: own.verb, target: line };
}

/**
 * The tool a notification may name for an approval: the tool's own name, or for an ACP agent's
 * question (whose `tool` is the agent's free text, see {@link approvalAsk}) the agent's name.
 */
export function notifiedTool(approval: AskedApproval, agent = 'agent'): string {
  return approval.options === undefined ? approval.tool : oneLine(agent);
}

/**
 * The name a page shows for the agent behind conversation `conversationId` (its `initialize`
 * title, else its id), from a snapshot or projection; undefined for the built-in loop or an
 * unknown conversation.
 */
export function agentNameOf(
  state: {
    readonly conversations: {
      readonly list: readonly { readonly id: string; readonly agentId?: string | undefined }[];
    };
    readonly agents?:
      | { readonly list: readonly { readonly name: string; readonly title?: string | undefined }[] }
      | undefined;
  },
  conversationId: string,
): string | undefined {
  const agentId = state.conversations.list.find((c) => c.id === conversationId)?.agentId;
  if (agentId === undefined) return undefined;
  return state.agents?.list.find((a) => a.name === agentId)?.title ?? agentId;
}

function argsOf(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One line (control characters and line breaks become spaces), at most {@link MAX_TARGET} characters. */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const line = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= MAX_TARGET ? line : `${chars.slice(0, MAX_TARGET - 1).join('')}…`;
}
