import { ModelError } from './ModelError';
import type { ModelEvent, ModelInfo, ModelProvider, ModelRequest } from './ModelProvider';
import { ChatStreamDecoder } from './openai/ChatStreamDecoder';
import { clean, httpFailure, networkFailure } from './openai/describeFailure';
import { IdleTimer } from './openai/IdleTimer';
import { loadAttachments } from './openai/loadAttachments';
import { type LoadedAttachments, toChatMessages } from './openai/toChatMessages';

/** Options of {@link OpenAiCompatibleModel}. */
export interface OpenAiCompatibleOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. Never logged nor shown. */
  readonly apiKey?: string | undefined;
  /** The model ids to offer (see {@link listOpenAiModels} for discovery). */
  readonly models: readonly string[];
  /** Longest silence (no header, no byte) before a request is given up. @default 120000 */
  readonly timeoutMs?: number;
  /** Shown as the models' provider. @default 'openai' */
  readonly id?: string;
}

/**
 * Any endpoint that speaks OpenAI's chat completions API with streaming: OpenAI, Ollama
 * (`/v1`), llama.cpp's server, vLLM, LM Studio. Replies stream over server-sent events; tool
 * calls use the `tools` / `tool_calls` format. Aborting the signal aborts the HTTP request.
 * Every failure (HTTP error, unreachable endpoint, silence past the timeout, a malformed
 * stream) is thrown as a {@link ModelError} with a readable reason.
 *
 * @example
 * ```ts
 * const ollama = new OpenAiCompatibleModel({ baseUrl: 'http://127.0.0.1:11434/v1', models: ['llama3.2'] });
 * openChatController({ dataDir, providers: [ollama] });
 * ```
 */
export class OpenAiCompatibleModel implements ModelProvider {
  readonly id: string;
  readonly models: readonly ModelInfo[];
  readonly followsToolResults = true;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: OpenAiCompatibleOptions) {
    this.id = options.id ?? 'openai';
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey === '' ? undefined : options.apiKey;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.models = options.models.map((id) => ({ id, name: id, provider: this.id }));
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelEvent> {
    const timer = new IdleTimer(this.timeoutMs);
    const origin = new URL(this.baseUrl).origin;
    const fail = (error: unknown) =>
      signal.aborted ? error : networkFailure(error, origin, timer.expired ? this.timeoutMs : undefined);
    try {
      const attachments = await loadAttachments(request.messages, signal);
      let response: Response;
      try {
        response = await fetch(`${this.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: this.headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
          body: JSON.stringify(this.body(request, attachments)),
          signal: AbortSignal.any([signal, timer.signal]),
        });
      } catch (error) {
        throw fail(error);
      }
      if (!response.ok) throw await httpFailure(response, this.apiKey);
      if (!response.body) throw new ModelError('The model endpoint answered without a body.');
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('text/event-stream')) {
        await response.body.cancel().catch(() => undefined);
        throw new ModelError(
          `The model endpoint did not stream (Content-Type ${clean(type, this.apiKey) || 'none'}).`,
        );
      }
      const decoder = new ChatStreamDecoder();
      const text = new TextDecoder();
      const reader = response.body.getReader();
      try {
        for (;;) {
          let read: Awaited<ReturnType<typeof reader.read>>;
          try {
            read = await reader.read();
          } catch (error) {
            throw fail(error);
          }
          if (read.done) break;
          timer.reset();
          for (const event of decoder.feed(text.decode(read.value, { stream: true }))) {
            if (signal.aborted) return;
            yield event;
          }
          if (decoder.isDone) break;
        }
      } finally {
        // Leaving early (stop, [DONE], an error) must release the connection, not leave it open.
        reader.cancel().catch(() => undefined);
      }
      if (signal.aborted) return;
      yield* decoder.end();
    } finally {
      timer.clear();
    }
  }

  private body(request: ModelRequest, attachments: LoadedAttachments): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: request.model,
      stream: true,
      messages: toChatMessages(request, attachments),
    };
    if (request.tools.length > 0) {
      body.tools = request.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }));
      body.tool_choice = 'auto';
      body.parallel_tool_calls = false;
    }
    return body;
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    return this.apiKey === undefined ? extra : { ...extra, Authorization: `Bearer ${this.apiKey}` };
  }
}
