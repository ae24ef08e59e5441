import {
  type EventFrames,
  HEARTBEAT_EVENT,
  type HeartbeatEvent,
  STATE_EVENT,
  type StreamEvent,
} from './events';

/**
 * One server-sent event, compact: no optional spaces after the colons, since a streamed word
 * should cost its own bytes plus a few dozen bytes of framing. `data` must be one line (JSON).
 * An undefined `event` writes no event line (the SSE default type).
 */
export function sseFrame(event: string | undefined, data: string, id?: number): string {
  const eventLine = event === undefined ? '' : `event:${event}\n`;
  const idLine = id === undefined ? '' : `id:${id}\n`;
  return `${eventLine}${idLine}data:${data}\n\n`;
}

/**
 * The frame of a state change as GET /api/events sends it: snapshots and deltas as
 * `event: state`; an append as `[base, text]`, an `event: state` too unless the stream opted in
 * to compact frames (then no event line). The `id:` is the seq.
 */
export function streamEventFrame(event: StreamEvent, frames: EventFrames): string {
  switch (event.kind) {
    case 'snapshot':
    case 'delta':
      return sseFrame(STATE_EVENT, JSON.stringify(event), event.seq);
    case 'append':
      // The same data either way; the event line is what a standard EventSource listens for.
      return sseFrame(
        frames === 'compact' ? undefined : STATE_EVENT,
        JSON.stringify([event.base, event.text]),
        event.seq,
      );
    default: {
      const unknown: never = event;
      throw new Error(`unknown stream event ${JSON.stringify(unknown)}`);
    }
  }
}

/** The frame of a heartbeat (no `id:`, so it does not move a client's resume point). */
export function heartbeatFrame(heartbeat: HeartbeatEvent): string {
  return sseFrame(HEARTBEAT_EVENT, JSON.stringify(heartbeat));
}
