import type { AppRoute } from '@ts-rest/core';
import { contract, HEADER_REFUSALS } from '@webbridge/contract';
import type { Context } from 'hono';
import type { z } from 'zod';
import { BridgeError } from '../errors/BridgeError';
import { incomingOf } from './rawHeaders';

/** The contract's route for each API path (each path has one route). */
export const ROUTE_BY_PATH: ReadonlyMap<string, AppRoute> = new Map(
  Object.values(contract).map((route: AppRoute) => [route.path, route]),
);

/** The header schemas a route declares (lower-case names), none when it declares none. */
function declaredHeaders(route: AppRoute): Readonly<Record<string, z.ZodTypeAny>> {
  return (route.headers as z.AnyZodObject | undefined)?.shape ?? {};
}

/** A route that declares `authorization` takes a code: it is a protected route. */
export function isProtected(route: AppRoute): boolean {
  return 'authorization' in declaredHeaders(route);
}

/** What a refused header's problem says, in words a developer can act on. */
const REFUSAL_DETAIL: Readonly<Record<string, string>> = {
  'content-type': 'Actions are JSON: send Content-Type: application/json.',
  'content-length': 'Send the file size as Content-Length.',
};

/** A request header as the client sent it (one value: duplicates were refused before). */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = incomingOf(c);
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks the headers `route` declares, other than `authorization` (the front door's own
 * check, with its throttle), against the contract's schemas: a missing or malformed one is
 * refused with the code the contract names for it (415 for Content-Type, 411 for
 * Content-Length, else 400). Only for the route's own method: any other gets its 405.
 */
export function checkDeclaredHeaders(c: Context, route: AppRoute): void {
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  if (method !== route.method) return;
  for (const [name, schema] of Object.entries(declaredHeaders(route))) {
    if (name === 'authorization') continue;
    const checked = schema.safeParse(requestHeader(c, name));
    if (checked.success) continue;
    throw new BridgeError(
      HEADER_REFUSALS[name] ?? 'invalid_request',
      REFUSAL_DETAIL[name] ?? `The ${name} header does not match the protocol.`,
      { issues: checked.error.issues.map((issue) => ({ path: [name], message: issue.message })) },
    );
  }
}
