import type { AppRoute } from '@ts-rest/core';
import { z } from 'zod';
import type { ErrorCode } from './problem';

/**
 * The request headers the routes read, as the contract declares them (`headers` of each route
 * in router.ts). Names are lower case, as HTTP/1.1 parsers hand them over. The server checks
 * each route's headers with these schemas (server/src/guards/contractHeaders.ts); a header
 * that is missing or does not match is refused with the code {@link HEADER_REFUSALS} names.
 */

/** `Authorization: Bearer <code>`: the access code, or the view code for reading. */
export const bearerHeaderSchema = z
  .string()
  .regex(/^Bearer[ \t]+[^\s,]+[ \t]*$/i, 'Bearer <access code>')
  .describe('`Bearer <access code>` (or the view code, for reading).');

/** A JSON body's `Content-Type`: `application/json`, parameters such as `charset=utf-8` allowed. */
const jsonContentTypeSchema = z
  .string()
  .regex(/^[ \t]*application\/json[ \t]*(;.*)?$/i, 'application/json')
  .describe('`application/json` (parameters such as `charset=utf-8` allowed).');

/**
 * An upload's `Content-Length`: the file's size in bytes, required (no chunked bodies). Any run
 * of digits, as RFC 9110 allows (leading zeros included); a size past the limit is 413.
 */
const contentLengthSchema = z
  .string()
  .regex(/^\d+$/, 'a size in bytes')
  .describe("The file's size in bytes; required (chunked bodies are refused with 411).");

/**
 * `Last-Event-ID`: `<instanceId>.<seq>` of the last frame a client applied (lastEventId.ts
 * builds and parses it). Optional; any value that is not of this form, or names another run
 * or a frame too old, starts the stream over with a snapshot, as an SSE client expects.
 */
const lastEventIdHeaderSchema = z
  .string()
  .optional()
  .describe(
    'Resume after this frame: `<instanceId>.<seq>`, the `id:` of the last frame applied. ' +
      'A frame of another run, or one too old, starts over with a snapshot.',
  );

/** The headers each route reads. Every route that is not public declares `authorization`. */
export const stateHeadersSchema = z.object({ authorization: bearerHeaderSchema });
export const actionHeadersSchema = z.object({
  authorization: bearerHeaderSchema,
  'content-type': jsonContentTypeSchema,
});
/** POST /api/push/decide: JSON, and no Bearer (the approval token in the body is the credential). */
export const pushDecideHeadersSchema = z.object({ 'content-type': jsonContentTypeSchema });
export const eventsHeadersSchema = z.object({
  authorization: bearerHeaderSchema,
  'last-event-id': lastEventIdHeaderSchema,
});
/** POST /api/pair is public: its JSON body carries the token or the code. */
export const pairHeadersSchema = z.object({ 'content-type': jsonContentTypeSchema });
export const uploadHeadersSchema = z.object({
  authorization: bearerHeaderSchema,
  'content-length': contentLengthSchema,
  'content-type': z.string().optional().describe("The file's media type (kept as the attachment's)."),
});

/** Names of the request headers the routes declare. */
export type DeclaredHeader = 'authorization' | 'content-type' | 'content-length' | 'last-event-id';

/** The refusal for each declared header when it is missing or malformed. */
export const HEADER_REFUSALS = {
  authorization: 'unauthorized',
  'content-type': 'unsupported_media_type',
  'content-length': 'length_required',
  'last-event-id': 'invalid_request',
} as const satisfies Record<DeclaredHeader, ErrorCode>;

/**
 * The header schemas a route declares, by lower-case name (none when it declares none). Throws
 * for a declaration this protocol does not use (not a zod object, or a name with capitals),
 * so a route cannot lose its checks by being declared some other way.
 */
export function headersOf(route: AppRoute): Readonly<Record<string, z.ZodTypeAny>> {
  const { headers } = route;
  // ts-rest gives a route that declares none an empty plain object.
  if (headers === undefined || headers === null) return {};
  if (!(headers instanceof z.ZodObject) && Object.keys(headers).length === 0) return {};
  if (!(headers instanceof z.ZodObject)) {
    throw new Error(`${route.path}: declare its headers as one z.object of lower-case names.`);
  }
  const shape = headers.shape as Record<string, z.ZodTypeAny>;
  for (const name of Object.keys(shape)) {
    if (name !== name.toLowerCase() || !(name in HEADER_REFUSALS)) {
      throw new Error(`${route.path}: header "${name}" is not a lower-case name of DeclaredHeader.`);
    }
  }
  return shape;
}

/**
 * Whether a route needs a code. Closed by default: every route is protected unless the
 * contract marks it public (`metadata: { public: true }`: the connection page's locale, and
 * media, whose id is its own credential).
 */
export function isPublicRoute(route: AppRoute): boolean {
  return (route.metadata as { public?: unknown } | undefined)?.public === true;
}

/**
 * Whether a route that changes something is still open to a view code or view device
 * (`metadata: { viewAllowed: true }`): forgetting one's own device, which the route itself
 * limits to the device that asks.
 */
export function isViewAllowed(route: AppRoute): boolean {
  return (route.metadata as { viewAllowed?: unknown } | undefined)?.viewAllowed === true;
}
