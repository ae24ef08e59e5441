import { z } from 'zod';
import {
  approvalSchema,
  messageSchema,
  runStatusSchema,
  snapshotSchema,
  wireAttachmentSchema,
} from './snapshot';

/** The SSE event name of state events (snapshot or delta). */
export const STATE_EVENT = 'state';
/** The SSE event name of heartbeats, sent when the stream has been idle. */
export const HEARTBEAT_EVENT = 'heartbeat';

/**
 * A full snapshot: sent first on every stream, and whenever the configuration signature
 * changes. The client replaces its state with it.
 */
export const snapshotEventSchema = z.object({
  kind: z.literal('snapshot'),
  seq: z.number().int().nonnegative(),
  /** Hash of everything but the current messages and the run state. */
  signature: z.string(),
  snapshot: snapshotSchema,
});

/** One text append to a streaming message: `[messageId, offset, text]`. */
export const appendSchema = z.tuple([z.string(), z.number().int().nonnegative(), z.string()]);

/**
 * Changed fields of one message: `[messageId, fields]`. The fields replace the message's own
 * (never `id`); a reply that ends costs `{"status":"complete"}`, not the whole message again.
 */
export const messagePatchSchema = z.tuple([z.string(), messageSchema.omit({ id: true }).partial()]);

/**
 * What changed since the state at `base`. Applied in this order: `cut` (keep the first n
 * messages), `put` (replace messages by id), `set` (replace some fields of messages by id),
 * `ap` (append text at an offset), `add` (append messages), then `approvals`, `run`, `pending`
 * replace those fields when present. A client whose state is not at `base` resynchronises
 * instead of guessing.
 */
export const deltaEventSchema = z.object({
  kind: z.literal('delta'),
  seq: z.number().int().nonnegative(),
  base: z.number().int().nonnegative(),
  cut: z.number().int().nonnegative().optional(),
  put: z.array(messageSchema).optional(),
  set: z.array(messagePatchSchema).optional(),
  ap: z.array(appendSchema).optional(),
  add: z.array(messageSchema).optional(),
  approvals: z.array(approvalSchema).optional(),
  run: runStatusSchema.optional(),
  pending: z.array(wireAttachmentSchema).optional(),
});

/** The data of an `event: state` frame. */
export const stateEventSchema = z.discriminatedUnion('kind', [snapshotEventSchema, deltaEventSchema]);

/**
 * The SSE event type of a compact append: the frame has no `event:` line at all (the SSE
 * default type), because a streamed word should cost little more than its own bytes.
 */
export const APPEND_EVENT = 'message';

/**
 * The data of a compact append frame: `[base, text]`, its `id:` line being the seq. It is the
 * delta `{ ap: [[run.messageId, <current length>, text]] }` and nothing else: append `text` to
 * the message the run is producing. The offset is implied: a client at `base` holds exactly the
 * server's text at `base`.
 */
export const appendFrameSchema = z.tuple([z.number().int().nonnegative(), z.string()]);

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

/** The data of an `event: heartbeat` frame: the server's clock, in epoch milliseconds. */
export const heartbeatEventSchema = z.object({ t: z.number().int() });
/** A heartbeat. */
export type HeartbeatEvent = z.infer<typeof heartbeatEventSchema>;
