import type { Context } from 'hono';
import { createEventStream } from '../events/createEventStream';
import type { EventHub } from '../events/EventHub';
import { clientAddress } from '../guards/rawHeaders';
import type { WireMapper } from '../media/toWire';

const EVENT_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
} as const;

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
    // A HEAD learns the headers; opening a subscription for it would only leak one.
    if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers: EVENT_HEADERS });
    const accessCode = c.get('accessCode' as never) as string;
    const resumeFrom = resumePoint(c.req.header('last-event-id'), hub.latest().state.instanceId);
    const info = {
      openedAt: Date.now(),
      remoteAddress: clientAddress(c),
      userAgent: (c.req.header('user-agent') ?? 'unknown').slice(0, 200),
    };
    const body = createEventStream({ hub, wire, heartbeatMs, accessCode, resumeFrom, info });
    return new Response(body, { status: 200, headers: EVENT_HEADERS });
  };
}

/**
 * The seq a reconnecting client holds, from `Last-Event-ID: <instanceId>.<seq>`. The instance
 * id is part of it because seqs restart with every run of the host: a seq from another run
 * (or a bare seq, which cannot be checked) starts over with a snapshot.
 */
export function resumePoint(header: string | undefined, instanceId: string): number | undefined {
  const match = header === undefined ? null : /^([A-Za-z0-9_-]{1,64})\.(\d{1,15})$/.exec(header.trim());
  if (!match || match[1] !== instanceId) return undefined;
  return Number(match[2]);
}
