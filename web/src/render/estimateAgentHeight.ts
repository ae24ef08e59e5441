import type { Message } from '../state/types';

/** A diff row or a terminal line, in CSS px (0.8125rem at a line height of 1.45). */
const MONO_LINE = 19;
/** The card's head (icon, title, status) and its padding. */
const CARD = 56;
/** A row of file links, a collapsed section's summary, a diff's header. */
const ROW = 36;
/** The terminal block's most height (16rem). */
const TERMINAL_MAX = 256;
/** The diff rows a collapsed diff draws at most (DiffView's limit). */
const DIFF_ROWS = 120;

/**
 * A guess at the height of an ACP agent's message drawn otherwise than as text: its thinking,
 * collapsed to one line whatever its length, and a tool call card (its diff open when it is the
 * only one, its terminal block at most 16rem), and the result of a host's file tool with its
 * diffs. Undefined for any other message.
 */
export function estimateAgentHeight(message: Message, frame: number): number | undefined {
  if (message.thought) return frame + ROW;
  const call = message.agentTool;
  // A host's file tool's result: its output folded, then what it changed.
  if (!call) return message.diffs ? frame + ROW + diffsHeight(message.diffs) : undefined;
  let height = frame + CARD + (call.locations.length > 0 ? ROW : 0);
  height += diffsHeight(call.content.filter((item) => item.type === 'diff'));
  if (call.content.some((item) => item.type === 'terminal')) {
    height += Math.min(TERMINAL_MAX, lineCount(message.text) * MONO_LINE + 16);
  } else if (message.text !== '') height += ROW;
  return height;
}

function diffsHeight(
  diffs: readonly { readonly oldText: string | null; readonly newText: string }[],
): number {
  let height = 0;
  for (const diff of diffs) {
    height += ROW;
    // Only a single diff is open at first; a guess at its changed lines, within the limit.
    if (diffs.length === 1) {
      const lines = Math.abs(lineCount(diff.newText) - lineCount(diff.oldText ?? '')) + 7;
      height += ROW + Math.min(DIFF_ROWS, lines) * MONO_LINE;
    }
  }
  return height;
}

function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
