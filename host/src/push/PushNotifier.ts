import { createHash } from 'node:crypto';
import {
  type Approval,
  agentNameOf,
  approvalAsk,
  notifiedTool,
  type Projection,
  type PushPayload,
} from '@webbridge/contract';
import type { ChatController } from '../controller/ChatController';
import type { StoredPushSubscription } from '../db/PushSubscriptionTable';
import type { ApprovalTokens } from './ApprovalTokens';
import { lockScreenSummary } from './lockScreenSummary';
import type { Presence } from './Presence';
import type { PushJob, PushQueue } from './PushQueue';
import { shortText } from './shortText';

/** How long a push service keeps an approval for a phone that is off: an hour. */
const APPROVAL_TTL_S = 3600;
/** A reply's news is stale sooner. */
const REPLY_TTL_S = 600;

/**
 * The notification tag of an approval: one notification per approval. The same tag as the
 * page's own background notification (web/src/pwa/useBackgroundNotices.ts), so a page that
 * notified before it froze and the push show one notification, not two.
 */
function approvalTag(approvalId: string): string {
  return `approval-${approvalId}`;
}

/** The RFC 8030 topic of a tag: at most 32 base64url characters, the same for the same tag. */
function topicOf(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

/** Options of {@link PushNotifier}. */
export interface PushNotifierOptions {
  /** Whether an endpoint still passes the endpoint checks (a row kept under older, looser ones may not). @default every endpoint */
  readonly endpointAllowed?: (endpoint: string) => boolean;
  /** Whether a reply's push carries the conversation's title. @default false */
  readonly replyTitles?: boolean;
}

/**
 * Watches the controller's projection and turns what changed into pushes: an approval that
 * starts waiting (to each subscribed device whose page is not on screen, each with its own
 * approval token), an approval answered or withdrawn (the devices that were told get the
 * replacement), a reply of the current conversation that finished or failed. Runs inside the
 * controller's publish (on the executor): it only compares and enqueues.
 */
export class PushNotifier {
  /** Pending approvals seen so far, and the devices each was pushed to. */
  private readonly waiting = new Map<string, { approval: Approval; tool: string; told: Set<string> }>();
  private lastRun: { conversationId: string; messageId: string | null; state: string } | undefined;
  /** The approvals of the projection last looked at (projections are immutable: same array, same approvals). */
  private lastApprovals: Projection['approvals'] | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly controller: ChatController,
    private readonly queue: PushQueue,
    private readonly tokens: ApprovalTokens,
    private readonly presence: Presence,
    private readonly options: PushNotifierOptions = {},
  ) {
    // Approvals that waited before this run are not pushed again (their tokens died with the
    // last run); they are still replaced when answered, for any device told from now on.
    const state = controller.readState();
    for (const approval of state.approvals)
      this.waiting.set(approval.id, { approval, tool: toolOf(approval, state), told: new Set() });
    this.remember(state);
    this.unsubscribe = controller.subscribe(() => this.onChange(controller.readState()));
  }

  /** Stops watching. */
  close(): void {
    this.unsubscribe();
  }

  private remember(state: Projection): void {
    const run = state.conversations.run;
    this.lastApprovals = state.approvals;
    this.lastRun = { conversationId: state.conversationId, messageId: run.messageId, state: run.state };
  }

  private onChange(state: Projection): void {
    // Most changes (a model switch, a streamed word) touch neither the approvals nor the run:
    // nothing to compare then, and nothing made per change (this runs in every action's task).
    if (state.approvals === this.lastApprovals && this.sameRun(state)) return;
    const pending = new Set<string>();
    for (const approval of state.approvals) {
      pending.add(approval.id);
      if (!this.waiting.has(approval.id)) this.approvalWaits(approval, state);
    }
    for (const [id, entry] of this.waiting) {
      if (pending.has(id)) continue;
      this.waiting.delete(id);
      this.approvalEnded(entry.approval, entry.tool, entry.told);
    }
    this.replyEnded(state);
    this.remember(state);
  }

  /** Whether the run (its conversation, message and state) is the one last seen. */
  private sameRun(state: Projection): boolean {
    const last = this.lastRun;
    const run = state.conversations.run;
    return (
      last !== undefined &&
      last.conversationId === state.conversationId &&
      last.messageId === run.messageId &&
      last.state === run.state
    );
  }

  private endpointAllowed(endpoint: string): boolean {
    return this.options.endpointAllowed?.(endpoint) ?? true;
  }

  private subscribers(choice: 'approvals' | 'replies'): StoredPushSubscription[] {
    return this.controller.pushSubscriptions
      .all()
      .filter(
        (row) => row[choice] && !this.presence.isPresent(row.deviceId) && this.endpointAllowed(row.endpoint),
      );
  }

  private approvalWaits(approval: Approval, state: Projection): void {
    const told = new Set<string>();
    // An agent's question is said by its diff's file or the agent's name, never its title.
    const agent = agentNameOf(state, approval.conversationId);
    const tool = notifiedTool(approval, agent);
    this.waiting.set(approval.id, { approval, tool, told });
    for (const subscription of this.subscribers('approvals')) {
      const token = this.tokens.issue({
        approvalId: approval.id,
        deviceId: subscription.deviceId,
        deviceName: subscription.deviceName,
      });
      const payload: PushPayload = {
        kind: 'approval',
        tag: approvalTag(approval.id),
        approvalId: approval.id,
        conversationId: approval.conversationId,
        tool,
        ask: approvalAsk(approval, agent),
        summary: lockScreenSummary(approval, agent),
        token,
      };
      told.add(subscription.deviceId);
      this.push(subscription, payload, APPROVAL_TTL_S, () => this.waiting.has(approval.id));
    }
  }

  private approvalEnded(approval: Approval, tool: string, told: ReadonlySet<string>): void {
    this.tokens.voidApproval(approval.id);
    if (told.size === 0) return;
    const outcome = this.controller.approvals.outcomeOf(approval.id);
    const tag = approvalTag(approval.id);
    const payload: PushPayload =
      typeof outcome === 'object'
        ? { kind: 'answered', tag, approvalId: approval.id, tool, decided: outcome }
        : { kind: 'withdrawn', tag, approvalId: approval.id };
    for (const subscription of this.controller.pushSubscriptions.all()) {
      if (told.has(subscription.deviceId) && this.endpointAllowed(subscription.endpoint))
        this.push(subscription, payload, APPROVAL_TTL_S, () => true);
    }
  }

  private replyEnded(state: Projection): void {
    const before = this.lastRun;
    const run = state.conversations.run;
    if (
      before === undefined ||
      before.state !== 'streaming' ||
      before.messageId === null ||
      before.conversationId !== state.conversationId ||
      run.state === 'streaming'
    )
      return;
    const reply = state.conversations.messages.find((message) => message.id === before.messageId);
    // A reply that called a host tool is not finished: it waits for its approval or its result.
    // An agent's tool call (approved or not) is the agent's: its turn has ended with it.
    if (reply === undefined || (reply.tool !== undefined && reply.agentTool === undefined)) return;
    if (reply.status !== 'complete' && reply.status !== 'error') return;
    // The title is the first line of the conversation's first message: off the lock screen and
    // the push service unless the host's owner asked for it.
    const title = this.options.replyTitles
      ? state.conversations.list.find((c) => c.id === state.conversationId)?.title
      : undefined;
    const payload: PushPayload = {
      kind: 'reply',
      // The page's own tag for a finished reply: the newest replaces the last.
      tag: 'reply',
      outcome: reply.status === 'complete' ? 'finished' : 'failed',
      conversationId: state.conversationId,
      ...(title === undefined || title === '' ? {} : { title: shortText(title) }),
    };
    for (const subscription of this.subscribers('replies'))
      this.push(subscription, payload, REPLY_TTL_S, () => true);
  }

  private push(
    subscription: StoredPushSubscription,
    payload: PushPayload,
    ttl: number,
    stillWanted: () => boolean,
  ): void {
    const subscriptions = this.controller.pushSubscriptions;
    const job: PushJob = {
      subscription,
      payload: JSON.stringify(payload),
      ttl,
      urgency: payload.kind === 'reply' ? 'normal' : 'high',
      topic: topicOf(payload.tag),
      // A device forgotten (or unsubscribed, or subscribed anew elsewhere) while its push waits
      // for a retry gets nothing more.
      stillWanted: () =>
        subscriptions.of(subscription.deviceId)?.endpoint === subscription.endpoint && stillWanted(),
    };
    this.queue.enqueue(job);
  }
}

/** What a push may name as an approval's tool (an agent's question: the agent). */
function toolOf(approval: Approval, state: Projection): string {
  return notifiedTool(approval, agentNameOf(state, approval.conversationId));
}
