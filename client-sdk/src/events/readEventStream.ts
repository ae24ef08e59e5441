import type { HeartbeatEvent, StreamEvent } from '@webbridge/contract';
import {
  appendFrameSchema,
  HEARTBEAT_EVENT,
  heartbeatEventSchema,
  PROTOCOL_VERSION,
  STATE_EVENT,
  stateEventSchema,
} from '@webbridge/contract';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { parseJsonSafely } from '../safeJson';
import { EventStreamError } from './EventStreamError';

/** One item read from the event stream. */
export type StreamItem =
  | { readonly type: 'state'; readonly event: StreamEvent }
  | { readonly type: 'heartbeat'; readonly event: HeartbeatEvent }
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
      const item = decodeFrame(message);
      if (item !== undefined) queue.push(item);
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

/** Decodes one SSE message; undefined for event names this client does not know. */
function decodeFrame(message: EventSourceMessage): StreamItem | EventStreamError | undefined {
  if (message.event !== undefined && message.event !== STATE_EVENT && message.event !== HEARTBEAT_EVENT) {
    return undefined;
  }
  let data: unknown;
  try {
    data = parseJsonSafely(message.data);
  } catch (cause) {
    return new EventStreamError('invalid_frame', `${message.event ?? 'append'} frame is not JSON`, { cause });
  }
  // An append is `[base, text]` whether it came named (`event: state`) or compact (no name).
  if (message.event === undefined || (message.event === STATE_EVENT && Array.isArray(data))) {
    return decodeAppend(message.id, data);
  }
  if (message.event === HEARTBEAT_EVENT) {
    const heartbeat = heartbeatEventSchema.safeParse(data);
    if (heartbeat.success) return { type: 'heartbeat', event: heartbeat.data };
    return new EventStreamError('invalid_frame', 'invalid heartbeat frame', { cause: heartbeat.error });
  }
  if (isOtherProtocol(data)) {
    return new EventStreamError(
      'protocol_mismatch',
      `the server speaks another protocol than ${PROTOCOL_VERSION}`,
    );
  }
  const state = stateEventSchema.safeParse(data);
  if (state.success) return { type: 'state', event: state.data };
  return new EventStreamError('invalid_frame', 'invalid state frame', { cause: state.error });
}

/** An append: `id:` is the seq, data `[base, text]`. */
function decodeAppend(id: string | undefined, data: unknown): StreamItem | EventStreamError {
  // Number('') is 0: an append without an id must not pass as seq 0.
  const seq = id === undefined || id === '' ? Number.NaN : Number(id);
  const frame = appendFrameSchema.safeParse(data);
  if (!frame.success || !Number.isSafeInteger(seq) || seq < 0) {
    return new EventStreamError(
      'invalid_frame',
      'invalid append frame',
      frame.success ? {} : { cause: frame.error },
    );
  }
  const [base, text] = frame.data;
  return { type: 'state', event: { kind: 'append', seq, base, text } };
}

function isOtherProtocol(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || !('snapshot' in data)) return false;
  const snapshot = data.snapshot;
  return (
    typeof snapshot === 'object' &&
    snapshot !== null &&
    'protocol' in snapshot &&
    snapshot.protocol !== PROTOCOL_VERSION
  );
}
