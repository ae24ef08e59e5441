import type { Approval, FileDiff, Settings } from '@webbridge/contract';
import type { ApprovalDecider, StoredApproval } from '../db/ApprovalTable';
import type { HostStore } from '../db/HostStore';
import type { StoredMessage } from '../db/StoredMessage';
import { newId } from '../ids';
import type { Attachments } from './Attachments';
import { alreadyDecided } from './approvalDecision';
import { notFound } from './errors';
import { shownResult } from './largeToolResult';
import type { MessageRepository } from './MessageRepository';
import type { ReplyRunner } from './ReplyRunner';
import type { Selection } from './Selection';
import { executeTool, parseToolArgs, refusal, type ToolOutcome } from './tools/executeTool';
import { isToolEnabled, type Tool, type ToolArgs } from './tools/Tool';

/** What {@link ToolCalls} works with. */
export interface ToolCallsOptions {
  /** The transactions a call spans, its approvals, and the conversation's leaf. */
  readonly store: Pick<HostStore, 'transaction' | 'approvals' | 'conversations'>;
  readonly selection: Selection;
  /** Where the call, its result and their changes are written. */
  readonly messages: MessageRepository;
  readonly tools: readonly Tool[];
  /**
   * Looks up a tool that is not one of `tools`: those that come and go while the host runs
   * (an MCP server's). It may return a tool whose server is away; its call then fails.
   */
  readonly findTool?: (name: string) => Tool | undefined;
  /** Where large results (and files tools return) are stored. */
  readonly attachments: Attachments;
  /** Tracks tools that run in the background, so they show as running and `stop` aborts them. */
  readonly runner: ReplyRunner;
  /** Told (inside an executor task) when a background tool's result has been recorded. */
  readonly onBackgroundResult: (conversationId: string, result: StoredMessage) => void;
}

/**
 * What happens after a model calls a tool: run it at once, or park the call behind an
 * approval and finish it when the user decides. The result becomes a `tool` message under
 * the call (a large one attached as a file, with a preview as its text), and the call's reply
 * completes. A tool that works in the background (a command) keeps the call `streaming` until
 * it ends; `stop` aborts it.
 */
export class ToolCalls {
  private readonly store: ToolCallsOptions['store'];
  private readonly selection: Selection;
  private readonly messages: MessageRepository;
  private readonly tools: ReadonlyMap<string, Tool>;
  private readonly options: ToolCallsOptions;

  constructor(options: ToolCallsOptions) {
    this.options = options;
    this.store = options.store;
    this.selection = options.selection;
    this.messages = options.messages;
    this.tools = new Map(options.tools.map((tool) => [tool.name, tool]));
  }

  /**
   * Handles a call a reply made. Runs inside an executor task. Returns the result message
   * when the tool ran at once; undefined when the call waits for approval, runs in the
   * background, or was refused.
   */
  handle(
    conversationId: string,
    messageId: string,
    name: string,
    argsText: string,
    settings: Settings,
  ): StoredMessage | undefined {
    const tool = this.find(name);
    const args = parseToolArgs(argsText);
    const call = this.messages.change(conversationId, messageId, { tool: { name, args: argsText } });
    if (!tool || !args) {
      const reason = tool ? 'The tool arguments are not a JSON object.' : `There is no tool "${name}".`;
      this.messages.change(conversationId, messageId, { status: 'error', error: reason });
      return undefined;
    }
    if (!isToolEnabled(tool, settings)) {
      // Answered as a result, not an approval: there is nothing to ask the user.
      return this.store.transaction(() => this.record(conversationId, call, null, disabled(name)));
    }
    // autoApprove is respected for every tool, run_command included: the user chose it for this
    // session, and it is not remembered across restarts.
    if (!tool.needsApproval || settings.autoApprove.includes(name)) {
      return this.execute(conversationId, call, null, tool, args, settings);
    }
    const approvalId = newId();
    // What the call would change, so every approval can show it (read before it is allowed).
    const diffs = tool.diffs?.(args, this.selection.workspaceOf(conversationId)) ?? [];
    this.store.transaction(() => {
      this.store.approvals.insertPending({
        id: approvalId,
        tool: name,
        summary: tool.summarize(args),
        args: argsText,
        conversationId,
        messageId,
        createdAt: Date.now(),
        ...(diffs.length === 0 ? {} : { diffs }),
      });
      this.messages.change(conversationId, messageId, {
        status: 'waiting',
        tool: { name, args: argsText, approvalId },
      });
    });
    return undefined;
  }

  /**
   * Allows (runs the tool) or denies a pending call of the host's own tools, and records the
   * result under the call. `result` is undefined while an allowed tool runs in the background.
   * `by` is recorded as who answered; an approval already answered is refused with what
   * happened to it.
   */
  decide(
    approval: StoredApproval,
    decision: 'allow' | 'deny',
    settings: Settings,
    by: ApprovalDecider,
  ): { readonly conversationId: string; readonly result: StoredMessage | undefined } {
    if (approval.status !== 'pending') throw alreadyDecided(approval);
    const approvalId = approval.id;
    const at = Date.now();
    const call = this.messages.get(approval.messageId);
    if (!call) throw notFound('message');
    const conversationId = approval.conversationId;
    const tool = this.find(approval.tool);
    const args = parseToolArgs(approval.args);
    let outcome: ToolOutcome;
    if (decision === 'deny') {
      outcome = { text: `Denied: the user did not allow ${approval.tool}.`, status: 'complete', error: null };
    } else if (!tool || !args) {
      outcome = refusal('The call cannot be run.');
    } else if (!isToolEnabled(tool, settings)) {
      // The settings changed while the call waited.
      outcome = disabled(tool.name);
    } else {
      this.store.approvals.decide(approvalId, 'allowed', by, at);
      return { conversationId, result: this.execute(conversationId, call, approvalId, tool, args, settings) };
    }
    const result = this.store.transaction(() => {
      this.store.approvals.decide(approvalId, decision === 'allow' ? 'allowed' : 'denied', by, at);
      return this.record(conversationId, call, approvalId, outcome);
    });
    return { conversationId, result };
  }

  /** Cancels a conversation's pending approval (a stop). Returns whether there was one. */
  cancel(conversationId: string): boolean {
    const waiting = this.pendingOf(conversationId);
    if (!waiting) return false;
    this.store.transaction(() => {
      this.store.approvals.cancel(waiting.id);
      this.messages.change(conversationId, waiting.messageId, { status: 'stopped' });
    });
    return true;
  }

  /** The pending approval of a conversation, if any. */
  pendingOf(conversationId: string): Approval | undefined {
    return this.store.approvals.pending().find((row) => row.conversationId === conversationId);
  }

  private find(name: string): Tool | undefined {
    return this.tools.get(name) ?? this.options.findTool?.(name);
  }

  /** Runs a tool: records its result at once, or tracks it while it works in the background. */
  private execute(
    conversationId: string,
    call: StoredMessage,
    approvalId: string | null,
    tool: Tool,
    args: ToolArgs,
    settings: Settings,
  ): StoredMessage | undefined {
    const abort = new AbortController();
    const workspace = this.selection.workspaceOf(conversationId);
    // Read just before the tool runs, so the result keeps what it changed, not what the
    // approval foresaw (the file may have moved on while the call waited).
    const diffs = tool.diffs?.(args, workspace) ?? [];
    const outcome = executeTool(tool, args, { workspace, settings, signal: abort.signal });
    if (!(outcome instanceof Promise)) {
      return this.store.transaction(() => this.record(conversationId, call, approvalId, outcome, diffs));
    }
    this.messages.change(conversationId, call.id, { status: 'streaming' });
    this.options.runner.track(conversationId, call.id, abort, outcome, (ended) => {
      const result = this.store.transaction(() =>
        this.record(conversationId, call, approvalId, ended, diffs),
      );
      this.options.onBackgroundResult(conversationId, result);
    });
    return undefined;
  }

  private record(
    conversationId: string,
    call: StoredMessage,
    approvalId: string | null,
    outcome: ToolOutcome,
    diffs: readonly FileDiff[] = [],
  ): StoredMessage {
    const shown = shownResult(outcome.text);
    // Only a call that did its work changed the files (a failed patch writes nothing).
    const changed = outcome.status === 'complete' && outcome.error === null && diffs.length > 0;
    const result = this.messages.add({
      conversationId,
      parentId: call.id,
      role: 'tool',
      text: shown.text,
      status: outcome.status,
      ...(outcome.error === null ? {} : { error: outcome.error }),
      ...(call.tool === undefined ? {} : { tool: withApproval(call.tool, approvalId) }),
      ...(changed ? { diffs: [...diffs] } : {}),
    });
    const { attachments } = this.options;
    const attached = (outcome.files ?? []).map((file) =>
      attachments.addFile(conversationId, result.id, file.name, file.type, file.data),
    );
    if (shown.large) {
      const name = `${call.tool?.name ?? 'tool'}-output.txt`;
      attached.unshift(attachments.addText(conversationId, result.id, name, outcome.text));
    }
    if (attached.length > 0) this.messages.attach(conversationId, result.id, attached);
    this.messages.change(conversationId, call.id, { status: 'complete' });
    const conversation = this.store.conversations.get(conversationId);
    if (conversation?.currentLeafId === call.id) this.selection.setLeaf(conversationId, result.id);
    return result;
  }
}

/** The call as its result records it: with the approval that decided it, or none. */
function withApproval(tool: NonNullable<StoredMessage['tool']>, approvalId: string | null) {
  const { approvalId: _asked, ...call } = tool;
  return approvalId === null ? call : { ...call, approvalId };
}

function disabled(name: string): ToolOutcome {
  return refusal(`${name} is disabled in settings.`);
}
