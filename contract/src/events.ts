import { z } from 'zod';
import {
  approvalSchema,
  attachmentSchema,
  hostMessageSchema,
  messageSchema,
  runStatusSchema,
  snapshotSchema,
  wireAttachmentSchema,
} from './snapshot';

/** The SSE event name of state events: every state update, unless the client asked for compact frames. */
export const STATE_EVENT = 'state';
/** The SSE event name of heartbeats, sent when the stream has been idle. */
export const HEARTBEAT_EVENT = 'heartbeat';

/**
 * How GET /api/events frames a compact append. `named` (the default): as an `event: state`,
 * so a standard EventSource listening for `state` sees every update. `compact`: without the
 * event line (the SSE default type, `message`), 12 bytes less per streamed word; an opt-in of
 * clients that read every event type, such as the SDK.
 */
export const eventFramesSchema = z.enum(['named', 'compact']);
/** A frame form of GET /api/events. */
export type EventFrames = z.infer<typeof eventFramesSchema>;

/** The query of GET /api/events: `?frames=compact` opts in to compact appends. */
export const eventsQuerySchema = z.object({ frames: eventFramesSchema.optional() });

/**
 * A full snapshot: sent first on every stream, and whenever the configuration signature
 * changes. The client replaces its state with it.
 */
export const snapshotEventSchema = z.object({
  kind: z.literal('snapshot'),
  seq: z.number().int().nonnegative(),
  /** Hash of everything but the current messages and the run state. */
  signature: z.string(),
  /**
   * The stream's heartbeat interval in milliseconds: the idle time after which it sends a
   * heartbeat, so a client may call it dead after about two intervals of silence. Every
   * snapshot a stream sends carries it; it is optional only because a snapshot event can be
   * built without a stream (tests, simulations).
   */
  heartbeatMs: z.number().int().positive().optional(),
  snapshot: snapshotSchema,
});

/** One text append to a streaming message: `[messageId, offset, text]`. */
export const appendSchema = z.tuple([z.string(), z.number().int().nonnegative(), z.string()]);

/**
 * Changed fields of one message: `[messageId, fields]`. The fields replace the message's own
 * (never `id`); a reply that ends costs `{"status":"complete"}`, not the whole message again.
 */
export const messagePatchSchema = z.tuple([z.string(), messageSchema.omit({ id: true }).partial()]);

/** The change fields of a delta, over host or wire messages (wire ones carry media ids). */
function deltaFields<M extends z.ZodTypeAny, P extends z.ZodTypeAny, A extends z.ZodTypeAny>(
  message: M,
  patch: P,
  attachment: A,
) {
  return {
    cut: z.number().int().nonnegative().optional(),
    put: z.array(message).optional(),
    set: z.array(z.tuple([z.string(), patch])).optional(),
    ap: z.array(appendSchema).optional(),
    add: z.array(message).optional(),
    approvals: z.array(approvalSchema).optional(),
    run: runStatusSchema.optional(),
    pending: z.array(attachment).optional(),
  };
}

/**
 * What the server's diff of two projections produces: the changes of a delta over host
 * messages, before media ids are added for the wire (see {@link deltaEventSchema}). Empty when
 * nothing a client sees has changed.
 */
export const projectionDeltaSchema = z.object(
  deltaFields(hostMessageSchema, hostMessageSchema.omit({ id: true }).partial(), attachmentSchema),
);
/** The changes between two projections, as the server's diff computes them. */
export type ProjectionDelta = z.infer<typeof projectionDeltaSchema>;

/**
 * What changed since the state at `base`. Applied in this order: `cut` (keep the first n
 * messages), `put` (replace messages by id), `set` (replace some fields of messages by id),
 * `ap` (append text at an offset), `add` (append messages), then `approvals`, `run`, `pending`
 * replace those fields when present. A client whose state is not at `base` resynchronises
 * instead of guessing. The same fields as {@link projectionDeltaSchema}, over wire messages.
 */
export const deltaEventSchema = z.object({
  kind: z.literal('delta'),
  seq: z.number().int().nonnegative(),
  base: z.number().int().nonnegative(),
  ...deltaFields(messageSchema, messageSchema.omit({ id: true }).partial(), wireAttachmentSchema),
});

/** A snapshot or a delta: the object forms of an `event: state` frame's data. */
export const stateEventSchema = z.discriminatedUnion('kind', [snapshotEventSchema, deltaEventSchema]);

/**
 * The SSE event type of a compact append on a stream opened with `?frames=compact`: the frame
 * has no `event:` line at all (the SSE default type), because a streamed word should cost
 * little more than its own bytes. Without the opt-in an append is an `event: state`.
 */
export const APPEND_EVENT = 'message';

/**
 * The data of an append frame: `[base, text]`, its `id:` line being the seq. It is the delta
 * `{ ap: [[run.messageId, <current length>, text]] }` and nothing else: append `text` to the
 * message the run is producing. The offset is implied: a client at `base` holds exactly the
 * server's text at `base`.
 */
export const appendFrameSchema = z.tuple([z.number().int().nonnegative(), z.string()]);

/**
 * The data of an `event: state` frame: a snapshot, a delta, or an append `[base, text]` whose
 * seq is the frame's `id:` (the same data a compact stream sends as an unnamed frame).
 */
export const stateDataSchema = z.union([stateEventSchema, appendFrameSchema]);

/** A compact append as a client handles it, once decoded from its frame. */
export const appendEventSchema = z.object({
  kind: z.literal('append'),
  seq: z.number().int().nonnegative(),
  base: z.number().int().nonnegative(),
  text: z.string(),
});

/** Everything that changes a client's state: snapshot, delta or compact append. */
export const streamEventSchema = z.discriminatedUnion('kind', [
  snapshotEventSchema,
  deltaEventSchema,
  appendEventSchema,
]);

/** A snapshot event. */
export type SnapshotEvent = z.infer<typeof snapshotEventSchema>;
/** A delta event. */
export type DeltaEvent = z.infer<typeof deltaEventSchema>;
/** Any `event: state` event. */
export type StateEvent = z.infer<typeof stateEventSchema>;
/** A compact append. */
export type AppendEvent = z.infer<typeof appendEventSchema>;
/** Any event that changes a client's state. */
export type StreamEvent = z.infer<typeof streamEventSchema>;

/**
 * The data of an `event: heartbeat` frame: the server's clock `t` (epoch milliseconds) and the
 * stream's heartbeat interval. A stream that does not open with a snapshot (a resumed one)
 * opens with a heartbeat, so every stream names its interval in its first event.
 */
export const heartbeatEventSchema = z.object({
  t: z.number().int(),
  /** The idle time after which this stream sends a heartbeat, in milliseconds. */
  heartbeatMs: z.number().int().positive(),
});
/** A heartbeat. */
export type HeartbeatEvent = z.infer<typeof heartbeatEventSchema>;
