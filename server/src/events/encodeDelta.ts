import type { AppendEvent, DeltaEvent, Projection, ProjectionDelta } from '@webbridge/contract';
import type { WireMapper } from '../media/toWire';

/**
 * Chooses the wire form of a delta. A delta that is exactly one text append to the message
 * the run is producing goes out as an append (`[base, text]`); anything else as a full delta.
 * A streamed word then costs about 30 bytes of framing, plus the event line unless the client
 * opted in to compact frames.
 */
export function encodeDelta(
  delta: ProjectionDelta,
  next: Projection,
  base: number,
  seq: number,
  wire: WireMapper,
): DeltaEvent | AppendEvent {
  const only = delta.ap?.length === 1 && Object.keys(delta).length === 1 ? delta.ap[0] : undefined;
  if (only && only[0] === next.conversations.run.messageId) {
    return { kind: 'append', seq, base, text: only[2] };
  }
  return { kind: 'delta', seq, base, ...wire.delta(delta) };
}
