import path from 'node:path';
import type {
  PermissionOption as AcpPermissionOption,
  RequestPermissionResponse,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import type { FileDiff, PermissionOption } from '@webbridge/contract';
import type { AgentFileWrite } from '../agents/AgentClientHandlers';
import { diffsOf } from '../agents/acpToolCall';
import type { ApprovalDecider, StoredApproval } from '../db/ApprovalTable';
import { newId } from '../ids';
import type { AgentTurn } from './AgentTurn';
import type { AgentTurnsTarget } from './AgentTurnsTarget';
import { chooseOption, pathsOf } from './agentApprovalRules';
import { alreadyDecided } from './approvalDecision';

/** What the questions need of the turns: the running turn of a conversation, and its tool calls' messages. */
export interface TurnAccess {
  get(conversationId: string): AgentTurn | undefined;
  /** Applies a tool call (or its update) to its message, made on first sight; returns the message's id. */
  toolCall(turn: AgentTurn, update: ToolCallUpdate): string;
}

/** An approval that is an ACP agent's question: it carries the agent's options. */
export type AgentQuestion = StoredApproval & { readonly options: PermissionOption[] };

/** Whether an approval is an ACP agent's question (answered with one of its options) rather than a host tool's call. */
export function isAgentQuestion(approval: StoredApproval): approval is AgentQuestion {
  return approval.options !== undefined;
}

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/** The options a write the agent did not ask about first offers (the host's own question). */
const WRITE_OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

/**
 * An ACP agent's questions as approvals: its `session/request_permission` (and a file write it
 * did not ask about first) becomes an approval row on the tool call's message, with the agent's
 * options and the diffs, answered by `decide` from any device, or `cancelled` when the turn ends,
 * is stopped, or the agent withdraws it. Every method runs on the main executor.
 */
export class AgentQuestions {
  private readonly core: AgentTurnsTarget;
  private readonly turns: TurnAccess;

  constructor(core: AgentTurnsTarget, turns: TurnAccess) {
    this.core = core;
    this.turns = turns;
  }

  /**
   * The agent's `session/request_permission` (or a write it did not ask about): an approval
   * with the agent's options, on the tool call's message. Resolves with the chosen option, or
   * `cancelled` when the turn is stopped or `signal` aborts.
   */
  ask(
    conversationId: string,
    toolCall: ToolCallUpdate,
    options: readonly AcpPermissionOption[] | readonly PermissionOption[],
    signal: AbortSignal,
    extraDiffs: readonly FileDiff[] = [],
  ): Promise<RequestPermissionResponse> {
    const turn = this.turns.get(conversationId);
    if (this.core.closed || !turn || turn.stopped || signal.aborted) return Promise.resolve(CANCELLED);
    const { store, messages } = this.core;
    const messageId = this.turns.toolCall(turn, toolCall);
    const call = messages.get(messageId)?.agentTool;
    const title = call?.title ?? 'Tool call';
    const shownOptions = options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind }));
    const diffs = [...(call === undefined ? [] : diffsOf(call)), ...extraDiffs];
    const args = JSON.stringify(toolCall.rawInput ?? {});
    const approvalId = newId();
    return new Promise<RequestPermissionResponse>((resolve) => {
      store.transaction(() => {
        store.approvals.insertPending({
          id: approvalId,
          tool: title,
          summary: title,
          args,
          conversationId,
          messageId,
          createdAt: Date.now(),
          options: shownOptions,
          ...(diffs.length === 0 ? {} : { diffs }),
        });
        messages.change(conversationId, messageId, {
          status: 'waiting',
          tool: { name: title, args, approvalId },
        });
      });
      turn.questions.set(approvalId, {
        messageId,
        toolCallId: toolCall.toolCallId,
        answer: (optionId) =>
          resolve(optionId === undefined ? CANCELLED : { outcome: { outcome: 'selected', optionId } }),
      });
      signal.addEventListener(
        'abort',
        () => {
          resolve(CANCELLED);
          // The agent withdrew the question (its turn was cancelled, it went away): nobody may
          // answer it any more.
          this.core.executor.run(() => this.withdraw(turn, approvalId)).catch(() => {});
        },
        { once: true },
      );
      this.core.refresh();
    });
  }

  /**
   * Whether an agent's file write may go ahead: at once when the person allowed a tool call on
   * that file in this turn (opencode asks before it writes), else after an approval showing the
   * diff, as the host's own write tools do.
   */
  async approveWrite(conversationId: string, write: AgentFileWrite, signal: AbortSignal): Promise<boolean> {
    const turn = this.turns.get(conversationId);
    if (!turn || turn.stopped) return false;
    if (turn.allowedPaths.has(path.resolve(write.path))) return true;
    const diff: FileDiff = { path: write.path, oldText: write.oldText ?? null, newText: write.newText };
    const response = await this.ask(
      conversationId,
      {
        toolCallId: `write:${newId()}`,
        title: `Write ${write.relativePath}`,
        kind: 'edit',
        status: 'pending',
      },
      WRITE_OPTIONS,
      signal,
      [diff],
    );
    return response.outcome.outcome === 'selected' && response.outcome.optionId === 'allow';
  }

  /**
   * Answers an ACP agent's approval (one with the agent's `options`) with one of them
   * (`optionId`, or allow once / reject once), recording who answered; throws 422 for a stale
   * answer or an option that does not fit.
   */
  decide(
    approval: AgentQuestion,
    decision: 'allow' | 'deny',
    optionId: string | undefined,
    by: ApprovalDecider,
  ): { readonly optionId: string } {
    const { store, messages } = this.core;
    const approvalId = approval.id;
    if (approval.status !== 'pending') throw alreadyDecided(approval);
    const option = chooseOption(approval.options, decision, optionId);
    const turn = this.turns.get(approval.conversationId);
    const question = turn?.questions.get(approvalId);
    if (!turn || !question) {
      // Its agent or its turn is gone (a restart, a crash): nobody is waiting for the answer.
      store.approvals.cancel(approvalId);
      this.core.refresh();
      throw alreadyDecided({ id: approvalId });
    }
    store.transaction(() => {
      store.approvals.decide(approvalId, decision === 'allow' ? 'allowed' : 'denied', by, Date.now());
      messages.change(approval.conversationId, question.messageId, { status: 'streaming' });
    });
    turn.questions.delete(approvalId);
    if (decision === 'allow') {
      for (const file of pathsOf(messages.get(question.messageId)?.agentTool, approval)) {
        turn.allowedPaths.add(file);
      }
    }
    question.answer(option.optionId);
    this.core.refresh();
    return { optionId: option.optionId };
  }

  private withdraw(turn: AgentTurn, approvalId: string): void {
    const question = turn.questions.get(approvalId);
    if (this.core.closed || !question) return;
    turn.questions.delete(approvalId);
    this.core.store.transaction(() => {
      this.core.store.approvals.cancel(approvalId);
      if (this.core.messages.get(question.messageId)?.status === 'waiting') {
        this.core.messages.change(turn.conversationId, question.messageId, { status: 'stopped' });
      }
    });
    this.core.refresh();
  }

  /** Answers every question of a turn `cancelled` and cancels its approvals (the turn ended or was stopped). */
  cancelAll(turn: AgentTurn): void {
    const { store, messages } = this.core;
    for (const [approvalId, question] of turn.questions) {
      store.approvals.cancel(approvalId);
      const message = messages.get(question.messageId);
      if (message?.status === 'waiting') {
        messages.change(turn.conversationId, question.messageId, { status: 'stopped' });
      }
      question.answer(undefined);
    }
    turn.questions.clear();
  }
}
