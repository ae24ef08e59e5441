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

/**
 * What a notification (a push, a page's background notice) says about an approval: a verb and
 * a target, the tool's file or program for the host's own tools, and the tool's name alone for
 * any other tool. A notification shows on a locked screen, and a push passes through the browser
 * vendor's push service: an MCP tool's arguments (a shell line with a password in it, a body of
 * text) never reach either, only the app's approval card shows them.
 *
 * @example approvalAsk({ tool: 'write_file', args: '{"path":"notes.md","content":"…"}' })
 * // { verb: 'write', target: 'notes.md' }
 */
export function approvalAsk(approval: { readonly tool: string; readonly args: string }): ApprovalAsk {
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
