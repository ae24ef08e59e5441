import type { HostAttachment, HostMessage, Projection } from '@webbridge/contract';

/** A model as listed in the projection. */
export type ModelInfo = Projection['models']['list'][number];

/** What a provider streams: text to append to the reply, or a call of a tool. */
export type ModelEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_call'; readonly name: string; readonly args: string };

/** A tool as offered to a model. */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's arguments (an object schema). */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/**
 * An attachment of a message a model answers: what the projection shows and, when its file
 * exists, the file's path, so a provider can read it (when it sends, outside the executor).
 */
export type ModelAttachment = HostAttachment & { readonly path?: string };

/**
 * One message of the history a model answers. `tool` is set on an assistant message that
 * called a tool and on the `tool` message that carries the call's result (whose parent is
 * the call).
 */
export type ModelMessage = Pick<HostMessage, 'id' | 'parentId' | 'role' | 'text' | 'tool'> & {
  readonly attachments: readonly ModelAttachment[];
};

/** One request for a reply. */
export interface ModelRequest {
  /** The id of the model to answer with (one of the provider's `models`). */
  readonly model: string;
  readonly systemPrompt: string;
  /** The conversation up to the message being answered, root first. */
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ModelTool[];
  /**
   * The reply written so far when continuing a stopped reply ('' for a new one). The
   * provider streams only what comes after it.
   */
  readonly partial: string;
}

/**
 * A source of model replies. The echo model is one; an OpenAI-compatible endpoint is another.
 * `stream` must stop promptly, without yielding more, once `signal` is aborted. A failure the
 * user should read about is thrown as a {@link ModelError}.
 */
export interface ModelProvider {
  /** The provider's id, shown as the models' `provider`. */
  readonly id: string;
  readonly models: readonly ModelInfo[];
  /**
   * Whether the model reads tool results: when true, the controller asks it again once a
   * tool call has a result (the usual agent loop); the echo model has nothing to say then.
   */
  readonly followsToolResults: boolean;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
}
