import type { Projection, SessionIdentity } from '@webbridge/contract';
import { DeviceTable } from '../db/DeviceTable';
import type { PushSubscriptionTable } from '../db/PushSubscriptionTable';
import type { MainExecutor } from '../executor/MainExecutor';
import type { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import { AgentActions } from './AgentActions';
import { ApprovalActions } from './ApprovalActions';
import { AttachmentActions } from './AttachmentActions';
import type { ChatControllerOptions } from './ChatControllerOptions';
import { ControllerCore } from './ControllerCore';
import { ConversationActions } from './ConversationActions';
import { MessageActions } from './MessageActions';
import { ProjectActions } from './ProjectActions';
import { SettingsActions } from './SettingsActions';

export type { ChatControllerOptions } from './ChatControllerOptions';

/**
 * The reference host's chat controller: conversations as trees of messages in SQLite,
 * projects with a workspace each, models, tools with approvals, settings.
 *
 * It keeps an immutable {@link Projection} and replaces it on every change with structural
 * sharing: whatever did not change keeps its object identity (a streamed word makes a new
 * object only for the message that grew and the arrays and groups that contain it), which the
 * bridge relies on to diff by reference. Subscribers are told synchronously after each change.
 *
 * This class only assembles: it builds the shared {@link ControllerCore} and the action groups
 * over it, and hands the groups out as they are (`controller.messages.send(...)`,
 * `controller.conversations.setModel(...)`), so nothing stands between a caller and the code
 * that does the work. Every group method that reads or changes state must run on the main
 * {@link executor}; actions throw `ProtocolError` (`not_found`, `not_applicable`) when they
 * do not apply.
 *
 * @example
 * ```ts
 * const controller = openChatController({ dataDir });
 * await controller.executor.run(() => controller.messages.send('hello'));
 * ```
 */
export class ChatController {
  /** The executor every state change runs on. */
  readonly executor: MainExecutor;
  /** The authorised workspace roots. */
  readonly authoriser: WorkspaceAuthoriser;
  /** Random id of this run of the host process. */
  readonly instanceId: string;
  /** Send, stop, continue, and the forks of the message tree (branch, edit, regenerate). */
  readonly messages: MessageActions;
  /** Create, select, rename and delete conversations; choose the model. */
  readonly conversations: ConversationActions;
  /** Select projects and point them at workspace folders; for the host's own user, create them. */
  readonly projects: ProjectActions;
  /** Allow or deny a tool call that waits for approval. */
  readonly approvals: ApprovalActions;
  /** Update the settings. */
  readonly settings: SettingsActions;
  /** Pending uploads of a conversation and the files behind attachments. */
  readonly attachments: AttachmentActions;
  /** The paired devices' push subscriptions (one per device), kept in the same SQLite file. */
  readonly pushSubscriptions: PushSubscriptionTable;
  /** The sessions agents list, opening one, and the agent session's mode and settings. */
  readonly agents: AgentActions;
  /** The bridge's paired devices, kept in the same SQLite file (hand it to `createBridge`). */
  readonly devices: DeviceTable;

  private readonly core: ControllerCore;

  constructor(options: ChatControllerOptions) {
    const core = new ControllerCore(options);
    this.core = core;
    this.executor = core.executor;
    this.authoriser = core.authoriser;
    this.instanceId = core.instanceId;
    // Each group gets only what it works with (its `…Deps`); `core` does the shared steps.
    const { store, selection, attachments, runner } = core;
    this.messages = new MessageActions({
      store,
      messages: core.messages,
      selection,
      attachments,
      runner,
      toolCalls: core.toolCalls,
      steps: core,
      agentSessions: core.agentSessions,
    });
    this.conversations = new ConversationActions({
      store,
      selection,
      attachments,
      runner,
      registry: core.registry,
      publisher: core.publisher,
      steps: core,
      agentSessions: core.agentSessions,
    });
    this.projects = new ProjectActions({ store, selection, authoriser: core.authoriser, steps: core });
    this.approvals = new ApprovalActions({
      approvals: store.approvals,
      questions: core.agentSessions.turns.questions,
      toolCalls: core.toolCalls,
      steps: core,
    });
    this.settings = new SettingsActions({ store, steps: core });
    this.attachments = new AttachmentActions({ store, selection, attachments, steps: core });
    this.agents = new AgentActions({ desk: core, sessions: core.agentSessions });
    this.pushSubscriptions = store.pushSubscriptions;
    this.devices = new DeviceTable(core.store);
  }

  /** The current projection (immutable; cheap). */
  readState(): Projection {
    this.core.refreshIfDue();
    return this.core.publisher.read();
  }

  /** Where a send would land now. */
  identity(): SessionIdentity {
    return this.core.identity();
  }

  /** Calls `listener` synchronously after every change of the projection. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    return this.core.publisher.subscribe(listener);
  }

  /**
   * Runs `task` on the main {@link executor} and settles once the writes it made are committed
   * (see `HostStore`'s group commit): what is answered with this is on disk. Rejects with the
   * error of a COMMIT that failed, the task's writes then being rolled back.
   *
   * @example
   * ```ts
   * await controller.runCommitted(() => controller.conversations.setModel('echo'));
   * ```
   */
  runCommitted<T>(task: () => T): Promise<T> {
    const { store } = this.core;
    // One promise per answer, settled from the commit's callback, instead of the task's promise
    // chained onto the commit's: about 0.3 µs less per call (tests/bench/groupCommit.ts).
    return new Promise<T>((resolve, reject) =>
      this.executor.post(() => {
        const value = task();
        store.afterCommit((failure) => (failure === undefined ? resolve(value) : reject(failure)));
      }, reject),
    );
  }

  /** Resolves once every write made so far is committed; see {@link runCommitted}. */
  whenCommitted(): Promise<void> {
    return this.core.store.whenCommitted();
  }

  /** Stops every reply (cancelling its timers), commits what is pending and closes the database. Idempotent. */
  close(): void {
    this.core.close();
  }
}
