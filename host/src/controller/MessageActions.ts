import { type ActionResultOf, isContinuable } from '@webbridge/contract';
import type { AttachmentTable } from '../db/AttachmentTable';
import type { ConversationTable } from '../db/ConversationTable';
import type { HostStore } from '../db/HostStore';
import type { NewMessage } from '../db/StoredMessage';
import { newId } from '../ids';
import type { AgentSessions } from './AgentSessions';
import type { Attachments } from './Attachments';
import type { ControllerSteps } from './ControllerSteps';
import { toHostAttachment } from './ConversationTree';
import { notApplicable, notFound } from './errors';
import type { MessageRepository } from './MessageRepository';
import type { ReplyRunner } from './ReplyRunner';
import type { Selection } from './Selection';
import type { ToolCalls } from './ToolCalls';
import { titleFrom } from './titleFrom';

/** What {@link MessageActions} works with. */
export interface MessageActionsDeps {
  /** The transaction a send spans, and the attachments and the title it writes. */
  readonly store: Pick<HostStore, 'transaction'> & {
    readonly attachments: Pick<AttachmentTable, 'attachToMessage' | 'insert'>;
    readonly conversations: Pick<ConversationTable, 'setTitle'>;
  };
  readonly messages: MessageRepository;
  readonly selection: Pick<
    Selection,
    'conversationId' | 'leafId' | 'modelId' | 'currentConversation' | 'path' | 'setLeaf'
  >;
  readonly attachments: Pick<Attachments, 'pick' | 'ofMessage'>;
  readonly runner: Pick<ReplyRunner, 'streamingMessage' | 'stop'>;
  readonly toolCalls: Pick<ToolCalls, 'cancel'>;
  readonly steps: Pick<
    ControllerSteps,
    | 'assertIdle'
    | 'assertForkable'
    | 'assertAgentTakes'
    | 'startReply'
    | 'refresh'
    | 'refreshSoon'
    | 'bumpSessionRevision'
  >;
  /** Stops an agent conversation's turn (`session/cancel`). */
  readonly agentSessions: Pick<AgentSessions, 'stop'>;
}

/**
 * The actions on the current conversation's message tree: send, stop, continue, and the ones
 * that fork it (branch, edit, regenerate). Each throws `ProtocolError` (`not_found`,
 * `not_applicable`) when it does not apply, and publishes the new projection when it does.
 */
export class MessageActions {
  private readonly store: MessageActionsDeps['store'];
  private readonly messages: MessageRepository;
  private readonly selection: MessageActionsDeps['selection'];
  private readonly attachments: MessageActionsDeps['attachments'];
  private readonly runner: MessageActionsDeps['runner'];
  private readonly toolCalls: MessageActionsDeps['toolCalls'];
  private readonly steps: MessageActionsDeps['steps'];
  private readonly agentSessions: MessageActionsDeps['agentSessions'];

  constructor(deps: MessageActionsDeps) {
    this.agentSessions = deps.agentSessions;
    this.store = deps.store;
    this.messages = deps.messages;
    this.selection = deps.selection;
    this.attachments = deps.attachments;
    this.runner = deps.runner;
    this.toolCalls = deps.toolCalls;
    this.steps = deps.steps;
  }

  /** Sends a user message (with pending attachments) and starts the reply. */
  send(text: string, attachmentIds?: readonly string[]): ActionResultOf<'send'> {
    const { steps } = this;
    steps.assertIdle();
    const { selection, store, messages } = this;
    const chosen = this.attachments.pick(selection.conversationId, attachmentIds);
    if (text.trim() === '' && chosen.length === 0) throw notApplicable('There is nothing to send.');
    steps.assertAgentTakes(chosen);
    const conversation = selection.currentConversation();
    // An agent's reply is written by the agent (its own model), not by the host's current model.
    const model = conversation.agentId == null ? selection.modelId : undefined;
    const { user, reply } = store.transaction(() => {
      const user = messages.add(userMessage(conversation.id, selection.leafId, text));
      for (const attachment of chosen) store.attachments.attachToMessage(attachment.id, user.id);
      const reply = messages.add(replyTo(conversation.id, user.id, model));
      selection.setLeaf(conversation.id, reply.id);
      if (conversation.title === '') store.conversations.setTitle(conversation.id, titleFrom(text, chosen));
      return { user, reply };
    });
    messages.attach(conversation.id, user.id, chosen.map(toHostAttachment));
    steps.startReply(reply);
    // An agent's prompt leaves first; the projection follows before its answer is read.
    if (conversation.agentId == null) steps.refresh();
    else steps.refreshSoon();
    return { conversationId: conversation.id, messageId: user.id, replyId: reply.id };
  }

  /** Stops the current conversation's reply, or cancels the approval it waits for. */
  stop(): ActionResultOf<'stop'> {
    const { steps } = this;
    const conversationId = this.selection.conversationId;
    const streaming = this.runner.streamingMessage(conversationId);
    if (this.agentSessions.stop(conversationId)) {
      // The agent's turn: its message is stopped and its questions cancelled there.
    } else if (streaming !== undefined && this.runner.stop(conversationId)) {
      this.messages.change(conversationId, streaming, { status: 'stopped' });
    } else if (!this.toolCalls.cancel(conversationId)) {
      // Not an error: a stop that races the reply's own end is normal and should not alarm anyone.
      return { stopped: false };
    }
    steps.refresh();
    return { stopped: true };
  }

  /** Resumes the stopped reply at the end of the current branch. */
  continue(): ActionResultOf<'continue'> {
    const { steps } = this;
    steps.assertIdle();
    steps.assertForkable();
    const { selection, messages } = this;
    const leaf = selection.leafId === null ? undefined : messages.tree.get(selection.leafId);
    if (leaf?.role !== 'assistant' || leaf.tool !== undefined) {
      throw notApplicable('The conversation does not end with a reply that can be continued.');
    }
    if (!isContinuable(leaf.status)) throw notApplicable('The last reply is not stopped.');
    const row = messages.change(selection.conversationId, leaf.id, {
      status: 'streaming',
      error: null,
    });
    steps.startReply(row);
    steps.refresh();
    return { messageId: leaf.id };
  }

  /** Switches the fork at `messageId` (on the current branch) to its sibling at `index`. */
  branch(messageId: string, index: number): ActionResultOf<'branch'> {
    const { steps } = this;
    steps.assertIdle();
    steps.assertForkable();
    const { selection } = this;
    const { tree } = this.messages;
    if (!tree.get(messageId)) throw notFound('message');
    const siblings = tree.siblingsOf(messageId);
    const onBranch = new Set(selection.path().map((row) => row.id));
    // Any sibling of the one shown will do: they name the same fork, and a client that has
    // just switched may still hold the id it switched away from.
    if (!siblings.some((id) => onBranch.has(id))) {
      throw notApplicable('That message is not at a fork of the current branch.');
    }
    const target = siblings[index];
    if (target === undefined) throw notApplicable('That message has no sibling at this index.');
    const leaf = tree.newestDeepestLeaf(target);
    if (leaf !== selection.leafId) {
      selection.setLeaf(selection.conversationId, leaf);
      steps.bumpSessionRevision();
      steps.refresh();
    }
    return { messageId: target };
  }

  /** Adds an edited version of a user message as its new sibling, and answers it. */
  editMessage(messageId: string, text: string): ActionResultOf<'editMessage'> {
    const { steps } = this;
    steps.assertIdle();
    steps.assertForkable();
    const { selection, store, messages } = this;
    const original = messages.tree.get(messageId);
    if (!original) throw notFound('message');
    if (original.role !== 'user') throw notApplicable('Only user messages can be edited.');
    const attachments = this.attachments.ofMessage(selection.conversationId, messageId);
    if (text.trim() === '' && attachments.length === 0) throw notApplicable('An edit cannot be empty.');
    const { conversationId } = selection;
    const { user, reply, copies } = store.transaction(() => {
      const user = messages.add(userMessage(conversationId, original.parentId, text));
      // The edit keeps the original's attachments: copies of their rows share the file, which is
      // deleted with the conversation, never before.
      const copies = attachments.map((row) => ({ ...row, id: newId(), messageId: user.id }));
      for (const copy of copies) store.attachments.insert(copy);
      const reply = messages.add(replyTo(conversationId, user.id, selection.modelId));
      selection.setLeaf(conversationId, reply.id);
      return { user, reply, copies };
    });
    messages.attach(conversationId, user.id, copies.map(toHostAttachment));
    steps.bumpSessionRevision();
    steps.startReply(reply);
    steps.refresh();
    return { messageId: user.id, replyId: reply.id };
  }

  /** Answers again the message an assistant reply answered (default: the last reply). */
  regenerate(messageId?: string): ActionResultOf<'regenerate'> {
    const { steps } = this;
    steps.assertIdle();
    steps.assertForkable();
    const { selection, messages } = this;
    const target =
      messageId === undefined
        ? selection
            .path()
            .reverse()
            .find((row) => row.role === 'assistant')
        : messages.tree.get(messageId);
    if (!target) {
      if (messageId !== undefined) throw notFound('message');
      throw notApplicable('There is no reply to regenerate.');
    }
    if (target.role !== 'assistant') throw notApplicable('Only assistant replies can be regenerated.');
    const { parentId } = target;
    if (parentId === null) throw notApplicable('That reply answers nothing.');
    const reply = this.store.transaction(() => {
      const added = messages.add(replyTo(selection.conversationId, parentId, selection.modelId));
      selection.setLeaf(selection.conversationId, added.id);
      return added;
    });
    steps.bumpSessionRevision();
    steps.startReply(reply);
    steps.refresh();
    return { replyId: reply.id };
  }
}

/** A user's message, complete as it is sent. */
function userMessage(conversationId: string, parentId: string | null, text: string): NewMessage {
  return { conversationId, parentId, role: 'user', text, status: 'complete' };
}

/** An empty reply that starts streaming under `parentId`. */
function replyTo(conversationId: string, parentId: string, model: string | undefined): NewMessage {
  return {
    conversationId,
    parentId,
    role: 'assistant',
    text: '',
    status: 'streaming',
    ...(model === undefined ? {} : { model }),
  };
}
