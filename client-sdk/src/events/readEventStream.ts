import { type DecodedFrame, decodeFrame } from '@webbridge/contract';
import { createParser } from 'eventsource-parser';
import { EventStreamError } from './EventStreamError';

/** One item read from the event stream: a decoded frame (contract's `decodeFrame`), or a retry hint. */
export type StreamItem =
  | DecodedFrame
  /** The server's `retry:` field: the reconnection delay it asks for, in milliseconds. */
  | { readonly type: 'retry'; readonly ms: number };

/** Options of {@link readEventStream}. */
export interface ReadEventStreamOptions {
  /**
   * Largest frame the parser buffers, in UTF-16 code units; a larger one is an error.
   * @default 67108864 (64 Mi code units)
   */
  readonly maxBufferSize?: number;
}

/**
 * Reads a `text/event-stream` response body and yields its state events (appends named or
 * compact alike), heartbeats and retry hints, each validated against the contract. Frames with other event names are skipped (a
 * newer server may add some). A frame that is not valid JSON or does not match its schema ends
 * the stream with an {@link EventStreamError}; so does a snapshot of another protocol version.
 * Leaving the loop early cancels the body.
 *
 * @example
 * ```ts
 * for await (const item of readEventStream(response)) {
 *   if (item.type === 'state') state = applyEvent(state, item.event);
 * }
 * ```
 */
export async function* readEventStream(
  response: Response,
  options: ReadEventStreamOptions = {},
): AsyncGenerator<StreamItem, void, undefined> {
  const body = response.body;
  if (body === null) return;
  const queue: (StreamItem | EventStreamError)[] = [];
  const parser = createParser({
    maxBufferSize: options.maxBufferSize ?? 64 * 1024 * 1024,
    onEvent: (message) => {
      // Decoding is the contract's; a frame that cannot be trusted ends the stream.
      const item = decodeFrame(message);
      if (item?.type === 'failure') {
        queue.push(new EventStreamError(item.kind, item.message, { cause: item.cause }));
      } else if (item !== undefined) queue.push(item);
    },
    onRetry: (ms) => queue.push({ type: 'retry', ms }),
    onError: (error) => {
      // Unknown fields are allowed by the SSE format; only a broken limit stops the stream.
      if (error.type === 'max-buffer-size-exceeded') {
        queue.push(new EventStreamError('parse_error', error.message, { cause: error }));
      }
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      while (queue.length > 0) {
        const item = queue.shift()!;
        if (item instanceof EventStreamError) throw item;
        yield item;
      }
    }
  } finally {
    // Cancelling also covers the consumer leaving early; a body that already failed rejects.
    await reader.cancel().catch(() => undefined);
  }
}
