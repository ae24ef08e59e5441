import type { AppRoute, ServerInferResponses } from '@ts-rest/core';
import { ACCESS_HEADER, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeEnv } from '../env';

const PROTOCOL = String(PROTOCOL_VERSION);

/**
 * Headers every API response carries: its type, the protocol version and no caching
 * (snapshots carry media ids, which are credentials), plus what the presented code allows.
 * A plain object, so @hono/node-server writes it straight to the socket without building a
 * `Headers` (the difference is a large part of a small request's cost).
 */
function apiHeaders(c: Context<BridgeEnv>, type: string): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    [PROTOCOL_HEADER]: PROTOCOL,
  };
  const access = c.get('access');
  if (access !== undefined) headers[ACCESS_HEADER] = access;
  return headers;
}

/**
 * The response a contract route declares, as JSON: `reply` is typed by the route's
 * `responses`, so a handler cannot answer what the contract does not say. HEAD gets the
 * headers without the body.
 */
export function respond<R extends AppRoute>(
  c: Context<BridgeEnv>,
  route: R,
  reply: ServerInferResponses<R, 200>,
): Response {
  return respondSerialised(c, route, reply, () => JSON.stringify(reply.body));
}

/**
 * {@link respond} with the body's JSON made (or reused) by the caller: `json` must be
 * `JSON.stringify(reply.body)`. HEAD does not even ask for it.
 */
export function respondSerialised<R extends AppRoute>(
  c: Context<BridgeEnv>,
  _route: R,
  reply: ServerInferResponses<R, 200>,
  json: () => string,
): Response {
  c.set('apiHeaders', true);
  const body = c.req.method === 'HEAD' ? null : json();
  return new Response(body, { status: reply.status, headers: apiHeaders(c, 'application/json') });
}
