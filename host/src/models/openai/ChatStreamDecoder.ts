import { createParser, type EventSourceParser } from 'eventsource-parser';
import { echoTokens } from '../EchoModel';
import { ModelError } from '../ModelError';
import type { ModelEvent } from '../ModelProvider';

/** A tool call being assembled from its streamed pieces. */
interface PartialToolCall {
  name: string;
  args: string;
}

/**
 * Decodes the body of a streaming chat completion (`stream: true`): server-sent events whose
 * data is a `chat.completion.chunk` JSON object, ending with `data: [DONE]`. Text deltas come
 * out as they arrive, split into words; tool call pieces (`delta.tool_calls[i]`, the arguments
 * arriving a few characters at a time) are assembled by `index` and come out whole when the
 * stream ends. Only the first tool call is used: the host runs one call per reply and asks
 * for `parallel_tool_calls: false`.
 *
 * Throws {@link ModelError} on a chunk that is not JSON, an `error` object inside the stream
 * (vLLM and Ollama report failures that way after a 200), or a stream that ends without
 * `[DONE]` or a `finish_reason`.
 */
export class ChatStreamDecoder {
  private readonly parser: EventSourceParser;
  private readonly pending: ModelEvent[] = [];
  private readonly toolCalls = new Map<number, PartialToolCall>();
  private failure: ModelError | undefined;
  private finished = false;
  private done = false;

  constructor() {
    this.parser = createParser({ onEvent: (event) => this.onData(event.data) });
  }

  /** Feeds decoded text; returns the events it completed. */
  feed(text: string): ModelEvent[] {
    this.parser.feed(text);
    if (this.failure) throw this.failure;
    return this.pending.splice(0);
  }

  /** Whether `data: [DONE]` has arrived (nothing after it matters). */
  get isDone(): boolean {
    return this.done;
  }

  /** Ends the stream; returns the assembled tool call, if any. */
  end(): ModelEvent[] {
    if (!this.done && !this.finished) throw new ModelError('The model endpoint ended the stream early.');
    const first = [...this.toolCalls.entries()].sort(([a], [b]) => a - b)[0]?.[1];
    if (!first) return [];
    if (first.name === '') throw new ModelError('The model called a tool without naming it.');
    return [{ type: 'tool_call', name: first.name, args: first.args.trim() === '' ? '{}' : first.args }];
  }

  private onData(data: string): void {
    if (this.failure || this.done) return;
    if (data.trim() === '[DONE]') {
      this.done = true;
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      this.failure = new ModelError('The model endpoint sent a malformed stream (a chunk is not JSON).');
      return;
    }
    if (!isRecord(chunk)) {
      this.failure = new ModelError('The model endpoint sent a malformed stream (a chunk is not an object).');
      return;
    }
    if (isRecord(chunk.error)) {
      const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'unknown error';
      this.failure = new ModelError(`The model failed while answering: ${message}`);
      return;
    }
    // A usage-only chunk has no choices; the first choice is the only one requested (n = 1).
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) return;
    if (typeof choice.finish_reason === 'string') this.finished = true;
    const delta = choice.delta;
    if (!isRecord(delta)) return;
    if (typeof delta.content === 'string' && delta.content !== '') {
      for (const word of echoTokens(delta.content)) this.pending.push({ type: 'text', text: word });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const piece of delta.tool_calls) this.addToolPiece(piece);
    }
  }

  private addToolPiece(piece: unknown): void {
    if (!isRecord(piece)) return;
    const index = typeof piece.index === 'number' ? piece.index : 0;
    const call = this.toolCalls.get(index) ?? { name: '', args: '' };
    this.toolCalls.set(index, call);
    const fn = piece.function;
    if (!isRecord(fn)) return;
    // The name comes whole in the first piece; some servers repeat it in later ones.
    if (typeof fn.name === 'string' && call.name === '') call.name = fn.name;
    if (typeof fn.arguments === 'string') call.args += fn.arguments;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
