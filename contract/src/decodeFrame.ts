import {
  appendFrameSchema,
  HEARTBEAT_EVENT,
  type HeartbeatEvent,
  heartbeatEventSchema,
  STATE_EVENT,
  type StreamEvent,
  stateEventSchema,
} from './events';
import { fastParser } from './fastAccept';
import { PROTOCOL_VERSION } from './limits';
import { parseJsonSafely } from './safeJson';

/**
 * The state and append checks, with the schema-derived fast test first (fastAccept.ts): a long
 * conversation's snapshot is accepted without zod's walk, anything it does not take gets zod's
 * parse and issues as before.
 */
const parseStateEvent = fastParser(stateEventSchema);
const parseAppendFrame = fastParser(appendFrameSchema);

/** One server-sent event as an SSE parser hands it over (eventsource-parser's message). */
export interface SseMessage {
  /** The `event:` field; undefined for the default type (a compact append). */
  readonly event?: string | undefined;
  /** The `id:` field: the seq of a state frame. */
  readonly id?: string | undefined;
  readonly data: string;
}

/** A frame of GET /api/events, decoded and checked against the contract. */
export type DecodedFrame =
  | { readonly type: 'state'; readonly event: StreamEvent }
  | { readonly type: 'heartbeat'; readonly event: HeartbeatEvent };

/** Why a frame cannot be trusted: the stream must be dropped and its state resynchronised. */
export interface FrameFailure {
  readonly type: 'failure';
  /** `protocol_mismatch`: a snapshot of another protocol version (the page must reload). */
  readonly kind: 'invalid_frame' | 'protocol_mismatch';
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * Decodes one SSE message of GET /api/events, the inverse of `streamEventFrame` and
 * `heartbeatFrame` (sseFrame.ts): snapshots and deltas, appends named or compact alike (`id:`
 * is the seq, data `[base, text]`), and heartbeats, each validated against its schema, JSON
 * parsed without prototype keys. Undefined for an event name this protocol does not know (a
 * newer server may add some); a {@link FrameFailure} for a frame that is not JSON, does not
 * match its schema, or is a snapshot of another protocol version.
 *
 * @example
 * ```ts
 * const frame = decodeFrame({ event: 'state', id: '8', data: '[7,"word "]' });
 * // → { type: 'state', event: { kind: 'append', seq: 8, base: 7, text: 'word ' } }
 * ```
 */
export function decodeFrame(message: SseMessage): DecodedFrame | FrameFailure | undefined {
  if (message.event !== undefined && message.event !== STATE_EVENT && message.event !== HEARTBEAT_EVENT) {
    return undefined;
  }
  let data: unknown;
  try {
    data = parseJsonSafely(message.data);
  } catch (cause) {
    return failure('invalid_frame', `${message.event ?? 'append'} frame is not JSON`, cause);
  }
  // An append is `[base, text]` whether it came named (`event: state`) or compact (no name).
  if (message.event === undefined || (message.event === STATE_EVENT && Array.isArray(data))) {
    return decodeAppend(message.id, data);
  }
  if (message.event === HEARTBEAT_EVENT) {
    const heartbeat = heartbeatEventSchema.safeParse(data);
    if (heartbeat.success) return { type: 'heartbeat', event: heartbeat.data };
    return failure('invalid_frame', 'invalid heartbeat frame', heartbeat.error);
  }
  if (isOtherProtocol(data)) {
    return failure('protocol_mismatch', `the server speaks another protocol than ${PROTOCOL_VERSION}`);
  }
  const state = parseStateEvent(data);
  if (state.success) return { type: 'state', event: state.data };
  return failure('invalid_frame', 'invalid state frame', state.error);
}

function failure(kind: FrameFailure['kind'], message: string, cause?: unknown): FrameFailure {
  return cause === undefined ? { type: 'failure', kind, message } : { type: 'failure', kind, message, cause };
}

/** An append: `id:` is the seq, data `[base, text]`. */
function decodeAppend(id: string | undefined, data: unknown): DecodedFrame | FrameFailure {
  // Number('') is 0: an append without an id must not pass as seq 0.
  const seq = id === undefined || id === '' ? Number.NaN : Number(id);
  const frame = parseAppendFrame(data);
  if (!frame.success || !Number.isSafeInteger(seq) || seq < 0) {
    return failure('invalid_frame', 'invalid append frame', frame.success ? undefined : frame.error);
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
