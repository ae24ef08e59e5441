import type { MessageRow } from '../db/HostStore';
import type { ControllerCore } from './ControllerCore';

/**
 * Most tool rounds a model may chain after one user message before the controller stops asking
 * it again, so a model that keeps calling tools cannot loop forever.
 */
const MAX_TOOL_ROUNDS = 8;

/**
 * The agent loop: once a tool call of the current conversation has a result, a model that
 * reads tool results is asked again under it, unless the user has let it chain
 * {@link MAX_TOOL_ROUNDS} calls already. Replies of other conversations are not resumed in
 * the background; `continue` there picks them up.
 *
 * Does not publish: the caller refreshes once after its own changes.
 */
export function followToolResult(
  core: ControllerCore,
  conversationId: string,
  result: MessageRow | undefined,
): void {
  const { selection } = core;
  if (!result || conversationId !== selection.conversationId || selection.leafId !== result.id) return;
  const call = result.parent_id === null ? undefined : selection.tree.get(result.parent_id);
  if (!call) return;
  const model = core.modelOf(call);
  if (core.registry.providerOf(model)?.followsToolResults !== true) return;
  const path = selection.path();
  const sinceUser = path.slice(path.findLastIndex((row) => row.role === 'user') + 1);
  if (sinceUser.filter((row) => row.role === 'tool').length >= MAX_TOOL_ROUNDS) return;
  const reply = selection.newMessage(result.id, 'assistant', '', 'streaming', { model });
  core.store.transaction(() => {
    selection.insertMessage(reply);
    selection.setLeaf(conversationId, reply.id);
  });
  core.startReply(reply);
}
