import type { AppRoute, ServerInferResponses } from '@ts-rest/core';
import type { Context } from 'hono';
import type { BridgeEnv } from '../env';
import { apiHeaders } from './apiHeaders';

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
  extraHeaders?: Readonly<Record<string, string>>,
): Response {
  c.set('apiHeaders', true);
  const body = c.req.method === 'HEAD' ? null : json();
  // Headers as a plain object given at construction: @hono/node-server then writes them
  // without building a Headers object (setting one afterwards cost GET /api/state ~2.5 µs).
  const headers = apiHeaders('application/json', c.get('access'));
  if (extraHeaders) Object.assign(headers, extraHeaders);
  return new Response(body, { status: reply.status, headers });
}
