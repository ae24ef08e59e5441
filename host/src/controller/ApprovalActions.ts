import type { ActionResultOf, ApprovalDecision } from '@webbridge/contract';
import type { ApprovalDecider, ApprovalTable } from '../db/ApprovalTable';
import { type AgentQuestions, isAgentQuestion } from './AgentQuestions';
import { HOST_DECIDER } from './approvalDecision';
import type { ControllerSteps } from './ControllerSteps';
import { notApplicable, notFound } from './errors';
import type { ToolCalls } from './ToolCalls';

/** What {@link ApprovalActions} works with. */
export interface ApprovalActionsDeps {
  /** Where the approval is read, once, before it goes to the code that answers it. */
  readonly approvals: Pick<ApprovalTable, 'get'>;
  /** Answers an ACP agent's question. */
  readonly questions: Pick<AgentQuestions, 'decide'>;
  /** Answers a call of the host's own tools. */
  readonly toolCalls: Pick<ToolCalls, 'decide'>;
  readonly steps: Pick<ControllerSteps, 'settings' | 'followToolResult' | 'refresh'>;
}

/**
 * The user's answer to a tool call that waits for approval. Throws `ProtocolError`
 * (`not_found`, `not_applicable`) when the approval is unknown or already decided, and
 * publishes the new projection when it applies.
 */
export class ApprovalActions {
  private readonly deps: ApprovalActionsDeps;

  constructor(deps: ApprovalActionsDeps) {
    this.deps = deps;
  }

  /**
   * Allows (runs the tool) or denies a pending tool call, and finishes its reply. `by` is who
   * answered (a paired device, the access code, or the host's own console, the default), shown
   * on every device beside the call.
   */
  approve(
    approvalId: string,
    decision: 'allow' | 'deny',
    by: ApprovalDecider = HOST_DECIDER,
    optionId?: string,
  ): ActionResultOf<'approve'> {
    const { approvals, questions, toolCalls, steps } = this.deps;
    const approval = approvals.get(approvalId);
    if (!approval) throw notFound('approval');
    // An ACP agent's question: answered with one of its options, the agent goes on by itself.
    if (isAgentQuestion(approval)) {
      const answered = questions.decide(approval, decision, optionId, by);
      return { approvalId, decision, optionId: answered.optionId };
    }
    if (optionId !== undefined) throw notApplicable("Only an agent's approval has options.");
    const { conversationId, result } = toolCalls.decide(approval, decision, steps.settings, by);
    steps.followToolResult(conversationId, result);
    steps.refresh();
    return { approvalId, decision };
  }

  /**
   * What became of an approval: its decision once answered; `cancelled` when its reply was
   * stopped (or its conversation deleted); `pending` while it waits.
   */
  outcomeOf(approvalId: string): ApprovalDecision | 'pending' | 'cancelled' {
    const approval = this.deps.approvals.get(approvalId);
    if (approval === undefined || approval.status === 'cancelled') return 'cancelled';
    if (approval.status === 'pending') return 'pending';
    return approval.decided ?? 'cancelled';
  }
}
