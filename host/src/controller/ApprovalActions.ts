import type { ActionResultOf, ApprovalDecision } from '@webbridge/contract';
import type { ApprovalDecider } from '../db/HostStore';
import { decisionOf, HOST_DECIDER } from './approvalDecision';
import type { ControllerCore } from './ControllerCore';
import { notApplicable } from './errors';

/**
 * The user's answer to a tool call that waits for approval. Throws `ProtocolError`
 * (`not_found`, `not_applicable`) when the approval is unknown or already decided, and
 * publishes the new projection when it applies.
 */
export class ApprovalActions {
  private readonly core: ControllerCore;

  constructor(core: ControllerCore) {
    this.core = core;
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
    const { core } = this;
    // An ACP agent's question: answered with one of its options, the agent goes on by itself.
    const answered = core.agentSessions.turns.questions.decide(approvalId, decision, optionId, by);
    if (answered !== undefined) return { approvalId, decision, optionId: answered.optionId };
    if (optionId !== undefined) throw notApplicable("Only an agent's approval has options.");
    const { conversationId, result } = core.toolCalls.decide(approvalId, decision, core.settings, by);
    core.followToolResult(conversationId, result);
    core.refresh();
    return { approvalId, decision };
  }

  /**
   * What became of an approval: its decision once answered; `cancelled` when its reply was
   * stopped (or its conversation deleted); `pending` while it waits.
   */
  outcomeOf(approvalId: string): ApprovalDecision | 'pending' | 'cancelled' {
    const row = this.core.store.approval(approvalId);
    if (row === undefined || row.status === 'cancelled') return 'cancelled';
    if (row.status === 'pending') return 'pending';
    return decisionOf(row) ?? 'cancelled';
  }
}
