import type { HostStore, MessageRow } from '../db/HostStore';
import { newId } from '../ids';
import { notApplicable, notFound } from './errors';
import type { Selection } from './Selection';
import { executeTool, parseToolArgs, type ToolOutcome } from './tools/executeTool';
import type { Tool } from './tools/Tool';

/**
 * What happens after a model calls a tool: run it at once, or park the call behind an
 * approval and finish it when the user decides. The result becomes a `tool` message under
 * the call, and the call's reply completes.
 */
export class ToolCalls {
  private readonly store: HostStore;
  private readonly selection: Selection;
  private readonly tools: ReadonlyMap<string, Tool>;

  constructor(store: HostStore, selection: Selection, tools: readonly Tool[]) {
    this.store = store;
    this.selection = selection;
    this.tools = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /**
   * Handles a call a reply made. Runs inside an executor task. Returns the result message
   * when the tool ran at once; undefined when the call waits for approval or was refused.
   */
  handle(
    conversationId: string,
    messageId: string,
    name: string,
    argsText: string,
    autoApprove: readonly string[],
  ): MessageRow | undefined {
    const tool = this.tools.get(name);
    const args = parseToolArgs(argsText);
    const call = this.selection.patchMessage(conversationId, messageId, {
      tool_name: name,
      tool_args: argsText,
    });
    if (!tool || !args) {
      const reason = tool ? 'The tool arguments are not a JSON object.' : `There is no tool "${name}".`;
      this.selection.patchMessage(conversationId, messageId, { status: 'error', error: reason });
      return undefined;
    }
    if (!tool.needsApproval || autoApprove.includes(name)) {
      const outcome = executeTool(tool, args, this.selection.workspaceOf(conversationId));
      return this.store.transaction(() => this.record(conversationId, call, null, outcome));
    }
    const approvalId = newId();
    this.store.transaction(() => {
      this.store.insertApproval({
        id: approvalId,
        conversation_id: conversationId,
        message_id: messageId,
        tool: name,
        args: argsText,
        summary: tool.summarize(args),
        status: 'pending',
        created_at: Date.now(),
      });
      this.selection.patchMessage(conversationId, messageId, { status: 'waiting', approval_id: approvalId });
    });
    return undefined;
  }

  /** Allows (runs the tool) or denies a pending call, and records the result under the call. */
  decide(
    approvalId: string,
    decision: 'allow' | 'deny',
  ): { readonly conversationId: string; readonly result: MessageRow } {
    const approval = this.store.approval(approvalId);
    if (!approval) throw notFound('approval');
    if (approval.status !== 'pending') throw notApplicable('That approval has already been decided.');
    const call = this.store.message(approval.message_id);
    if (!call) throw notFound('message');
    const tool = this.tools.get(approval.tool);
    const args = parseToolArgs(approval.args);
    let outcome: ToolOutcome;
    if (decision === 'deny') {
      outcome = { text: `Denied: the user did not allow ${approval.tool}.`, status: 'complete', error: null };
    } else if (!tool || !args) {
      outcome = { text: 'Error: the call cannot be run.', status: 'error', error: 'The call cannot be run.' };
    } else {
      outcome = executeTool(tool, args, this.selection.workspaceOf(approval.conversation_id));
    }
    const result = this.store.transaction(() => {
      this.store.setApprovalStatus(approvalId, decision === 'allow' ? 'allowed' : 'denied');
      return this.record(approval.conversation_id, call, approvalId, outcome);
    });
    return { conversationId: approval.conversation_id, result };
  }

  /** Cancels a conversation's pending approval (a stop). Returns whether there was one. */
  cancel(conversationId: string): boolean {
    const waiting = this.pendingOf(conversationId);
    if (!waiting) return false;
    this.store.transaction(() => {
      this.store.setApprovalStatus(waiting.id, 'cancelled');
      this.selection.patchMessage(conversationId, waiting.message_id, { status: 'stopped' });
    });
    return true;
  }

  /** The pending approval of a conversation, if any. */
  pendingOf(conversationId: string) {
    return this.store.pendingApprovals().find((row) => row.conversation_id === conversationId);
  }

  private record(
    conversationId: string,
    call: MessageRow,
    approvalId: string | null,
    outcome: ToolOutcome,
  ): MessageRow {
    const result: MessageRow = {
      ...this.selection.newMessage(call.id, 'tool', outcome.text, outcome.status, { conversationId }),
      error: outcome.error,
      tool_name: call.tool_name,
      tool_args: call.tool_args,
      approval_id: approvalId,
    };
    this.selection.insertMessage(result);
    this.selection.patchMessage(conversationId, call.id, { status: 'complete' });
    const conversation = this.store.conversation(conversationId);
    if (conversation?.current_leaf_id === call.id) this.selection.setLeaf(conversationId, result.id);
    return result;
  }
}
