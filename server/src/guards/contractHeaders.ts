import type { AppRoute } from '@ts-rest/core';
import {
  contract,
  fastParser,
  HEADER_REFUSALS,
  headersOf,
  isPublicRoute,
  isViewAllowed,
  ProtocolError,
} from '@webbridge/contract';
import type { z } from 'zod';
import type { RequestHead } from './RequestHead';

/**
 * The contract's route for each API path. Built when the server loads, and refused then if
 * two routes share a path or a route is protected without declaring `authorization` (the
 * contract's tests hold the same rules; here they keep a contract change from opening a door).
 */
export const ROUTE_BY_PATH: ReadonlyMap<string, AppRoute> = routesByPath(Object.values(contract));

function routesByPath(routes: readonly AppRoute[]): Map<string, AppRoute> {
  const byPath = new Map<string, AppRoute>();
  for (const route of routes) {
    if (byPath.has(route.path)) throw new Error(`Two routes of the contract share ${route.path}.`);
    if (isProtected(route) && !('authorization' in headersOf(route))) {
      throw new Error(`${route.path} needs a code but its contract declares no authorization header.`);
    }
    byPath.set(route.path, route);
  }
  return byPath;
}

/** Whether a route needs a code: every route the contract does not mark public. */
export function isProtected(route: AppRoute): boolean {
  return !isPublicRoute(route);
}

/**
 * Whether the view code (and a view device) is refused: every route that changes something (not
 * a GET), unless the contract opens it to watchers (forgetting one's own device).
 */
export function isControlOnly(route: AppRoute): boolean {
  return route.method !== 'GET' && !isViewAllowed(route);
}

/** What a refused header's problem says, in words a developer can act on. */
const REFUSAL_DETAIL: Readonly<Record<string, string>> = {
  'content-type': 'This route takes JSON: send Content-Type: application/json.',
  'content-length': 'Send the file size as Content-Length.',
};

/**
 * A request header's value. For the single-value headers the header guard checks a duplicate
 * was refused before; for any other, the first of several.
 */
export function requestHeader(head: RequestHead, name: string): string | undefined {
  const value = head.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A check of the headers `route` declares, other than `authorization` (the front door's own,
 * with its throttle), against the contract's schemas: a missing or malformed one is refused
 * with the code the contract names for it (415 for Content-Type, 411 for Content-Length).
 * Built once per route; each route runs it where it used to read the header, so the order of
 * its refusals stays what docs/PROTOCOL.md §3 lists.
 */
export function headerCheck(route: AppRoute): (head: RequestHead) => void {
  const checks = (
    Object.entries(headersOf(route)).filter(([name]) => name !== 'authorization') as [
      keyof typeof HEADER_REFUSALS,
      z.ZodTypeAny,
    ][]
  ).map(([name, schema]) => [name, fastParser(schema)] as const);
  return (head) => {
    for (const [name, parse] of checks) {
      const checked = parse(requestHeader(head, name));
      if (checked.success) continue;
      throw new ProtocolError(
        HEADER_REFUSALS[name],
        REFUSAL_DETAIL[name] ?? `The ${name} header does not match the protocol.`,
        { issues: checked.error.issues.map((issue) => ({ path: [name], message: issue.message })) },
      );
    }
  };
}
