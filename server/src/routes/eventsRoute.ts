import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import {
  contract,
  type EventFrames,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  ProtocolError,
  parseLastEventId,
} from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeEnv } from '../env';
import type { EventHub } from '../events/EventHub';
import { nodeResponseSink, type StreamSink, webStreamSink } from '../events/StreamSink';
import { Subscriber } from '../events/Subscriber';
import { headerCheck, requestHeader } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import { clientAddress } from '../guards/rawHeaders';
import { holderOf } from '../media/MediaRegistry';
import type { WireMapper } from '../media/WireMapper';
import { contractQuery } from './contractQuery';

/**
 * Headers of the event stream. `no-transform` keeps a proxy from recompressing or rewriting
 * the stream (Cloudflare buffers a body it compresses); `X-Accel-Buffering: no` turns off
 * nginx's response buffering for this response alone.
 */
const EVENT_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
} as const;

/** Dependencies of GET /api/events. */
export interface EventsDeps {
  readonly hub: EventHub;
  readonly wire: WireMapper;
  readonly heartbeatMs: number;
}

/**
 * GET /api/events[?frames=compact]: a snapshot, then deltas and heartbeats, over one
 * server-sent-event stream per subscriber; every update is an `event: state` unless the query
 * opts in to compact appends. Not served through ts-rest, which buffers bodies.
 */
export function eventsRoute({ hub, wire, heartbeatMs }: EventsDeps): (c: Context<BridgeEnv>) => Response {
  const checkHeaders = headerCheck(contract.events);
  return (c: Context<BridgeEnv>) => {
    const head = headOf(c);
    checkHeaders(head);
    const frames = framesOf(c);
    // A HEAD learns the headers; opening a subscription for it would only leak one.
    if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers: EVENT_HEADERS });
    const accessCode = c.get('accessCode');
    const resumeFrom = resumePoint(requestHeader(head, 'last-event-id'), hub.latest().state.instanceId);
    const info = {
      openedAt: Date.now(),
      remoteAddress: clientAddress(head),
      userAgent: (c.req.header('user-agent') ?? 'unknown').slice(0, 200),
      // Forgetting a device closes the streams it opened (createBridge).
      ...(c.get('device') === undefined ? {} : { deviceId: c.get('device').id }),
    };
    // Under Node the stream writes straight to the response; elsewhere through a web stream.
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    let sink: StreamSink;
    let response: Response;
    if (outgoing) {
      sink = nodeResponseSink(outgoing, { ...EVENT_HEADERS, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) });
      response = RESPONSE_ALREADY_SENT;
    } else {
      const web = webStreamSink();
      sink = web.sink;
      response = new Response(web.stream, { status: 200, headers: EVENT_HEADERS });
    }
    const holder = holderOf(c.get('device'));
    const subscriber = new Subscriber({
      hub,
      wire,
      sink,
      heartbeatMs,
      frames,
      accessCode,
      holder,
      resumeFrom,
      info,
    });
    hub.add(subscriber);
    subscriber.start();
    return response;
  };
}

/**
 * The frame form the query asks for, checked against the contract. A repeated `frames` is
 * refused rather than read as its first value: two readers of one URL could disagree.
 */
function framesOf(c: Context<BridgeEnv>): EventFrames {
  const parsed = contractQuery(c, contract.events.query);
  if (!parsed.success) {
    throw new ProtocolError('invalid_request', 'frames is named (the default) or compact, given once.', {
      issues: [{ path: ['frames'], message: 'named or compact, at most once' }],
    });
  }
  return parsed.data.frames ?? 'named';
}

/**
 * The seq a reconnecting client holds, from its `Last-Event-ID` (the contract's format): a seq
 * of another run of the host, or a bare seq, which cannot be checked, starts over.
 */
function resumePoint(header: string | undefined, instanceId: string): number | undefined {
  const point = parseLastEventId(header);
  return point?.instanceId === instanceId ? point.seq : undefined;
}
