import {
  type AppendEvent,
  type DeltaEvent,
  loneAppend,
  type Projection,
  type ProjectionDelta,
} from '@webbridge/contract';
import type { WireMapper } from '../media/WireMapper';

/**
 * Chooses the wire form of a delta by the contract's append rule ({@link loneAppend}): one text
 * append to the message the run is producing goes out as an append (`[base, text]`), anything
 * else as a full delta. A streamed word then costs about 30 bytes of framing, plus the event
 * line unless the client opted in to compact frames.
 */
export function encodeDelta(
  delta: ProjectionDelta,
  next: Projection,
  base: number,
  seq: number,
  wire: WireMapper,
): DeltaEvent | AppendEvent {
  const text = loneAppend(delta, next.conversations.run.messageId);
  if (text !== undefined) return { kind: 'append', seq, base, text };
  return { kind: 'delta', seq, base, ...wire.delta(delta) };
}
