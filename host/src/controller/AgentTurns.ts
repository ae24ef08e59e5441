import type { SessionUpdate, StopReason, ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { type AgentToolCall, ProtocolError } from '@webbridge/contract';
import { AgentError } from '../agents/AgentError';
import { blockText, mergeToolCall } from '../agents/acpToolCall';
import { AGENT_FIELDS, type AgentFields, type StoredMessage } from '../db/StoredMessage';
import { AgentQuestions } from './AgentQuestions';
import type { AgentTurn } from './AgentTurn';
import type { AgentTurnsTarget } from './AgentTurnsTarget';
import { notApplicable } from './errors';

/**
 * The turns of conversations backed by ACP agents, as messages: message chunks stream into the
 * reply exactly as a model's text does (the same appends), thought chunks and tool calls become
 * messages of their own after it (a chain under the reply), a permission request is an approval
 * like any other, and `stop` cancels the turn and answers its questions `cancelled`.
 *
 * Every method runs on the main executor; the session layer posts each update there in order.
 */
export class AgentTurns {
  private readonly core: AgentTurnsTarget;
  /**
   * Each conversation's turns, oldest first: a stopped turn stays until its prompt is answered
   * (updates the agent still sends for it are dropped), and a turn sent after it waits behind it.
   */
  private readonly turns = new Map<string, AgentTurn[]>();
  /** The agent's permission questions of each turn, as approvals. */
  readonly questions: AgentQuestions;

  constructor(core: AgentTurnsTarget) {
    this.core = core;
    this.questions = new AgentQuestions(core, {
      get: (conversationId) => this.running(conversationId),
      toolCall: (turn, update) => this.toolCall(turn, update),
    });
  }

  /** Starts a turn whose reply (already stored, streaming) is `replyId`. */
  begin(conversationId: string, replyId: string | undefined, replay = false): AgentTurn {
    if (this.busy(conversationId)) throw notApplicable('A reply is streaming; stop it first.');
    const turn: AgentTurn = {
      conversationId,
      current: replyId === undefined ? undefined : { id: replyId, kind: 'text' },
      replay,
      tools: new Map(),
      questions: new Map(),
      allowedPaths: new Set(),
      stopped: false,
    };
    this.turns.set(conversationId, [...(this.turns.get(conversationId) ?? []), turn]);
    return turn;
  }

  /** The turn the agent's updates belong to now: the oldest one not answered yet. */
  private running(conversationId: string): AgentTurn | undefined {
    return this.turns.get(conversationId)?.[0];
  }

  /** The turn the person acts on: the newest. */
  private newest(conversationId: string): AgentTurn | undefined {
    return this.turns.get(conversationId)?.at(-1);
  }

  private end(turn: AgentTurn): void {
    const rest = (this.turns.get(turn.conversationId) ?? []).filter((t) => t !== turn);
    if (rest.length === 0) this.turns.delete(turn.conversationId);
    else this.turns.set(turn.conversationId, rest);
  }

  /** Whether a turn runs (and was not stopped) in a conversation. */
  busy(conversationId: string): boolean {
    const turn = this.newest(conversationId);
    return turn !== undefined && !turn.stopped;
  }

  /** The message a conversation's turn streams into; undefined while it waits for a person or runs none. */
  streamingMessage(conversationId: string): string | undefined {
    const turn = this.newest(conversationId);
    if (!turn || turn.stopped || turn.replay || turn.questions.size > 0) return undefined;
    return turn.current?.id;
  }

  /** Applies a message or tool update of a session's turn. Updates outside a turn are dropped. */
  apply(conversationId: string, update: SessionUpdate): void {
    const turn = this.running(conversationId);
    if (this.core.closed || !turn || turn.stopped) return;
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        this.chunk(turn, 'text', blockText(update.content));
        return;
      case 'agent_thought_chunk':
        this.chunk(turn, 'thought', blockText(update.content));
        return;
      case 'user_message_chunk':
        // Only a replay has them: the person's own words of a session started elsewhere.
        if (turn.replay) this.userChunk(turn, blockText(update.content));
        return;
      case 'tool_call':
      case 'tool_call_update':
        this.toolCall(turn, update);
        this.core.refresh();
        return;
      default:
        return;
    }
  }

  /**
   * A terminal of the turn's tool calls has new output: the tool message that shows it takes the
   * output as its text (appended while it only grows, as streamed text is).
   */
  terminal(conversationId: string, terminalId: string, output: string): void {
    const turn = this.running(conversationId);
    if (this.core.closed || !turn) return;
    const { messages, publisher } = this.core;
    for (const id of turn.tools.values()) {
      const message = messages.get(id);
      if (!message?.agentTool?.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId))
        continue;
      if (output === message.text) return;
      if (output.startsWith(message.text)) {
        const added = output.slice(message.text.length);
        if (messages.appendText(conversationId, id, added)) publisher.appendText(id, added);
      } else {
        // The output is bounded: once its start is dropped, the text is replaced.
        messages.change(conversationId, id, { text: output });
        this.core.refresh();
      }
      return;
    }
  }

  /**
   * Ends a turn: its last message records the stop reason, a message still streaming completes
   * (or is stopped, when the person stopped the turn).
   */
  finish(turn: AgentTurn, stopReason: StopReason | undefined): void {
    const { conversationId } = turn;
    this.end(turn);
    if (this.core.closed) return;
    this.questions.cancelAll(turn);
    this.settleTools(turn, turn.stopped ? 'stopped' : 'complete');
    const last = turn.current === undefined ? undefined : this.core.messages.get(turn.current.id);
    if (last) {
      const ended = turn.stopped ? 'stopped' : 'complete';
      this.core.messages.change(conversationId, last.id, {
        ...(last.status === 'streaming' ? { status: ended } : {}),
        ...(stopReason === undefined ? {} : { agent: { ...agentFieldsOf(last), stopReason } }),
      });
    }
    this.core.refresh();
  }

  /** Ends a turn that failed (the agent crashed, refused, could not start): its reply shows why. */
  fail(turn: AgentTurn, error: unknown): void {
    const { conversationId } = turn;
    if (turn.stopped) {
      this.finish(turn, 'cancelled');
      return;
    }
    this.end(turn);
    if (this.core.closed) return;
    this.questions.cancelAll(turn);
    this.settleTools(turn, 'stopped');
    const reason =
      error instanceof AgentError || error instanceof ProtocolError
        ? error.message
        : 'The agent failed to answer.';
    if (turn.current !== undefined) {
      this.core.messages.change(conversationId, turn.current.id, { status: 'error', error: reason });
    }
    this.core.refresh();
  }

  /**
   * Stops a conversation's turn at once: nothing more of it is applied, its questions are
   * answered `cancelled` and their approvals cancelled. The caller sends `session/cancel`; the
   * turn ends when the agent answers the prompt. Returns whether a turn was running.
   */
  stop(conversationId: string): boolean {
    const turn = this.newest(conversationId);
    if (!turn || turn.stopped) return false;
    turn.stopped = true;
    this.questions.cancelAll(turn);
    const current = turn.current === undefined ? undefined : this.core.messages.get(turn.current.id);
    if (current && (current.status === 'streaming' || current.status === 'waiting')) {
      this.core.messages.change(conversationId, current.id, { status: 'stopped' });
    }
    this.core.refresh();
    return true;
  }

  /**
   * The turn's tool calls still running when it ends (the agent never said they finished) end
   * with it, except the turn's current message, which the caller ends itself.
   */
  private settleTools(turn: AgentTurn, status: 'complete' | 'stopped'): void {
    const { messages } = this.core;
    for (const id of turn.tools.values()) {
      if (id === turn.current?.id) continue;
      if (messages.get(id)?.status === 'streaming') messages.change(turn.conversationId, id, { status });
    }
  }

  /** Streams a message or thought chunk: into the current message when it is of its kind, else a new one. */
  private chunk(turn: AgentTurn, kind: 'text' | 'thought', text: string): void {
    if (text === '') return;
    const { messages, publisher } = this.core;
    const { current, conversationId } = turn;
    if (current !== undefined && current.kind === kind) {
      if (messages.appendText(conversationId, current.id, text)) publisher.appendText(current.id, text);
      return;
    }
    const before = current === undefined ? undefined : messages.get(current.id);
    if (kind === 'thought' && current?.kind === 'text' && before?.text === '') {
      // The reply has said nothing yet: it becomes the thought, rather than an empty bubble above one.
      messages.change(conversationId, current.id, { agent: { ...agentFieldsOf(before), thought: true } });
      current.kind = 'thought';
      if (messages.appendText(conversationId, current.id, text)) publisher.appendText(current.id, text);
      this.core.refresh();
      return;
    }
    const id = this.next(turn, {
      role: 'assistant',
      text,
      ...(kind === 'thought' ? { thought: true as const } : {}),
    });
    turn.current = { id, kind };
    this.core.refresh();
  }

  private userChunk(turn: AgentTurn, text: string): void {
    const { messages } = this.core;
    const before = turn.current === undefined ? undefined : messages.get(turn.current.id);
    if (before?.role === 'user') {
      messages.appendText(turn.conversationId, before.id, text);
    } else {
      turn.current = { id: this.next(turn, { role: 'user', text }), kind: 'tool' };
    }
    this.core.refresh();
  }

  /** Applies a tool call or its update to its message (made on first sight). Returns the message's id. */
  private toolCall(turn: AgentTurn, update: ToolCall | ToolCallUpdate): string {
    const { messages, publisher } = this.core;
    const { conversationId } = turn;
    const known = turn.tools.get(update.toolCallId);
    const before = known === undefined ? undefined : messages.get(known);
    const shown = mergeToolCall(before?.agentTool, update);
    const reply = turn.current === undefined ? undefined : messages.get(turn.current.id);
    if (!before && turn.current?.kind === 'text' && reply?.role === 'assistant' && reply.text === '') {
      // The turn begins with a tool call: the empty reply the send made becomes it, rather than
      // staying above it as an empty bubble (its id, the send's `replyId`, now names the call).
      messages.change(conversationId, reply.id, {
        role: 'tool',
        text: shown.text ?? '',
        status: turn.replay ? 'complete' : statusOf(shown.call),
        agent: { ...agentFieldsOf(reply), agentTool: shown.call },
      });
      turn.tools.set(update.toolCallId, reply.id);
      turn.current = { id: reply.id, kind: 'tool' };
      return reply.id;
    }
    if (!before) {
      const id = this.next(turn, {
        role: 'tool',
        text: shown.text ?? '',
        status: turn.replay ? 'complete' : statusOf(shown.call),
        agentTool: shown.call,
      });
      turn.tools.set(update.toolCallId, id);
      turn.current = { id, kind: 'tool' };
      return id;
    }
    const text = shown.text;
    if (text !== undefined && text !== before.text) {
      if (text.startsWith(before.text)) {
        // Long output grows: only what is new travels (the same appends as streamed text).
        const added = text.slice(before.text.length);
        if (messages.appendText(conversationId, before.id, added)) publisher.appendText(before.id, added);
      } else {
        messages.change(conversationId, before.id, { text });
      }
    }
    const status = before.status === 'waiting' ? 'waiting' : turn.replay ? 'complete' : statusOf(shown.call);
    messages.change(conversationId, before.id, {
      agent: { ...agentFieldsOf(before), agentTool: shown.call },
      ...(status === before.status ? {} : { status }),
    });
    return before.id;
  }

  /** Adds the turn's next message under its current one, makes it the conversation's leaf, returns its id. */
  private next(
    turn: AgentTurn,
    draft: Pick<StoredMessage, 'role' | 'text'> &
      Partial<Pick<StoredMessage, 'status' | 'thought' | 'agentTool'>>,
  ): string {
    const { store, messages, selection } = this.core;
    const { conversationId } = turn;
    const before = turn.current === undefined ? undefined : messages.get(turn.current.id);
    const parentId = before?.id ?? store.conversations.get(conversationId)?.currentLeafId ?? null;
    return store.transaction(() => {
      if (before && before.role === 'assistant' && before.status === 'streaming') {
        messages.change(conversationId, before.id, { status: 'complete' });
      }
      const added = messages.add({
        conversationId,
        parentId,
        status: turn.replay || draft.role === 'user' ? 'complete' : 'streaming',
        ...draft,
      });
      selection.setLeaf(conversationId, added.id);
      return added.id;
    });
  }
}

/** The message's ACP fields as they are, to change one of them. */
function agentFieldsOf(message: StoredMessage): AgentFields {
  const fields: { -readonly [K in keyof AgentFields]: AgentFields[K] } = {};
  for (const key of AGENT_FIELDS)
    if (message[key] !== undefined) Object.assign(fields, { [key]: message[key] });
  return fields;
}

/** A tool message's status for its call's. */
function statusOf(call: AgentToolCall): StoredMessage['status'] {
  return call.status === 'pending' || call.status === 'in_progress' ? 'streaming' : 'complete';
}
