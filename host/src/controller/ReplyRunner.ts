import type { MainExecutor } from '../executor/MainExecutor';
import type { ModelProvider, ModelRequest } from '../models/ModelProvider';

/** Where a running reply reports to. Every call happens inside a task on the main executor. */
export interface ReplySink {
  onText(conversationId: string, messageId: string, text: string): void;
  onToolCall(conversationId: string, messageId: string, name: string, args: string): void;
  onFinish(conversationId: string, messageId: string): void;
  onError(conversationId: string, messageId: string, error: unknown): void;
}

interface ActiveReply {
  readonly messageId: string;
  readonly abort: AbortController;
}

/**
 * Runs model replies outside the main executor. Each streamed piece comes back as a task of
 * its own, so actions (a `stop` above all) interleave with a reply instead of waiting for it.
 * At most one reply runs per conversation.
 */
export class ReplyRunner {
  private readonly executor: MainExecutor;
  private readonly sink: ReplySink;
  private readonly active = new Map<string, ActiveReply>();

  constructor(executor: MainExecutor, sink: ReplySink) {
    this.executor = executor;
    this.sink = sink;
  }

  /** The id of the message streaming in a conversation, if any. */
  streamingMessage(conversationId: string): string | undefined {
    return this.active.get(conversationId)?.messageId;
  }

  /** Starts a reply. The caller has checked that none is running in this conversation. */
  start(conversationId: string, messageId: string, provider: ModelProvider, request: ModelRequest): void {
    if (this.active.has(conversationId)) throw new Error('A reply is already running in this conversation.');
    const reply: ActiveReply = { messageId, abort: new AbortController() };
    this.active.set(conversationId, reply);
    this.pump(conversationId, reply, provider, request).catch(() => {
      // Reporting itself failed: the controller is closed (shutdown raced the reply).
      // There is no one left to tell, and an unhandled rejection would crash the process.
    });
  }

  /**
   * Stops a conversation's reply at once: no piece of it is applied after this returns, even
   * one already queued on the executor. Returns whether a reply was running.
   */
  stop(conversationId: string): boolean {
    const reply = this.active.get(conversationId);
    if (!reply) return false;
    this.active.delete(conversationId);
    reply.abort.abort();
    return true;
  }

  /**
   * Tracks background work that continues a conversation's turn (a tool running a command) as
   * if it were a reply: it counts as the conversation's streaming message, `stop` aborts it,
   * and `done` runs as an executor task once `work` settles, unless it was stopped first.
   * `work` must not reject.
   */
  track<T>(
    conversationId: string,
    messageId: string,
    abort: AbortController,
    work: Promise<T>,
    done: (value: T) => void,
  ): void {
    if (this.active.has(conversationId)) throw new Error('A reply is already running in this conversation.');
    const entry: ActiveReply = { messageId, abort };
    this.active.set(conversationId, entry);
    work
      .then((value) =>
        this.report(conversationId, entry, () => {
          this.active.delete(conversationId);
          done(value);
        }),
      )
      .catch(() => {
        // As in `start`: reporting failed because the controller closed meanwhile.
      });
  }

  /** Stops every reply (service shutdown). */
  stopAll(): void {
    for (const conversationId of [...this.active.keys()]) this.stop(conversationId);
  }

  private isCurrent(conversationId: string, reply: ActiveReply): boolean {
    return this.active.get(conversationId) === reply && !reply.abort.signal.aborted;
  }

  /** Runs `apply` as an executor task if the reply is still the running one. */
  private report(conversationId: string, reply: ActiveReply, apply: () => void): Promise<boolean> {
    return this.executor.run(() => {
      if (!this.isCurrent(conversationId, reply)) return false;
      apply();
      return true;
    });
  }

  private async pump(
    conversationId: string,
    reply: ActiveReply,
    provider: ModelProvider,
    request: ModelRequest,
  ): Promise<void> {
    const { messageId } = reply;
    try {
      for await (const event of provider.stream(request, reply.abort.signal)) {
        if (event.type === 'text') {
          if (
            !(await this.report(conversationId, reply, () =>
              this.sink.onText(conversationId, messageId, event.text),
            ))
          ) {
            return;
          }
        } else {
          // A tool call ends this turn of the model: the controller takes over (runs the tool
          // or waits for an approval) and finishes the reply itself.
          await this.report(conversationId, reply, () => {
            this.active.delete(conversationId);
            this.sink.onToolCall(conversationId, messageId, event.name, event.args);
          });
          return;
        }
      }
      await this.report(conversationId, reply, () => {
        this.active.delete(conversationId);
        this.sink.onFinish(conversationId, messageId);
      });
    } catch (error) {
      if (reply.abort.signal.aborted) return;
      await this.report(conversationId, reply, () => {
        this.active.delete(conversationId);
        this.sink.onError(conversationId, messageId, error);
      });
    }
  }
}
