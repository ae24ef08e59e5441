import type { Context } from 'hono';
import { createEventStream } from '../events/createEventStream';
import type { EventHub } from '../events/EventHub';
import type { WireMapper } from '../media/toWire';

/** Dependencies of GET /api/events. */
export interface EventsDeps {
  readonly hub: EventHub;
  readonly wire: WireMapper;
  readonly heartbeatMs: number;
}

/**
 * GET /api/events: a snapshot, then deltas and heartbeats, over one server-sent-event
 * stream per subscriber. Not served through ts-rest, which buffers bodies.
 */
export function eventsRoute({ hub, wire, heartbeatMs }: EventsDeps) {
  return (c: Context) => {
    const accessCode = c.get('accessCode' as never) as string;
    const body = createEventStream({ hub, wire, heartbeatMs, accessCode });
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
      },
    });
  };
}
