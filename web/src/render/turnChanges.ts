import type { FileDiff } from '../state/agentMessageTypes';
import type { Message } from '../state/types';

/**
 * The files an agent's turn changed, one entry each (its first old text to its last new text),
 * from the diffs of the turn's tool calls that completed, from the person's message to the turn's last.
 */
export function turnChanges(messages: readonly Message[], lastId: string): FileDiff[] {
  const end = messages.findIndex((message) => message.id === lastId);
  let start = end;
  while (start > 0 && messages[start - 1]?.role !== 'user') start--;
  // In the order the files were first touched; a later edit of a file moves its new text on.
  const byPath = new Map<string, FileDiff>();
  for (const message of messages.slice(start, end + 1)) {
    const call = message.agentTool;
    if (call?.status !== 'completed') continue;
    for (const item of call.content) {
      if (item.type !== 'diff') continue;
      const earlier = byPath.get(item.path);
      byPath.set(item.path, {
        path: item.path,
        oldText: earlier ? earlier.oldText : item.oldText,
        newText: item.newText,
      });
    }
  }
  return [...byPath.values()];
}
