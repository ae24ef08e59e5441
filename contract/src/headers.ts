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
export const jsonContentTypeSchema = z
  .string()
  .regex(/^[ \t]*application\/json[ \t]*(;.*)?$/i, 'application/json')
  .describe('`application/json` (parameters such as `charset=utf-8` allowed).');

/** An upload's `Content-Length`: the file's size in bytes, required (no chunked bodies). */
export const contentLengthSchema = z
  .string()
  .regex(/^\d{1,16}$/, 'a size in bytes')
  .describe("The file's size in bytes; required (chunked bodies are refused with 411).");

/**
 * `Last-Event-ID`: `<instanceId>.<seq>` of the last frame a client applied (lastEventId.ts
 * builds and parses it). Optional; any value that is not of this form, or names another run
 * or a frame too old, starts the stream over with a snapshot, as an SSE client expects.
 */
export const lastEventIdHeaderSchema = z
  .string()
  .optional()
  .describe('Resume after this frame: `<instanceId>.<seq>`, the `id:` of the last frame applied.');

/** The headers each route reads. A route that declares `authorization` is a protected route. */
export const stateHeadersSchema = z.object({ authorization: bearerHeaderSchema });
export const actionHeadersSchema = z.object({
  authorization: bearerHeaderSchema,
  'content-type': jsonContentTypeSchema,
});
export const eventsHeadersSchema = z.object({
  authorization: bearerHeaderSchema,
  'last-event-id': lastEventIdHeaderSchema,
});
export const uploadHeadersSchema = z.object({
  authorization: bearerHeaderSchema,
  'content-length': contentLengthSchema,
  'content-type': z.string().optional().describe("The file's media type (kept as the attachment's)."),
});

/** The refusal for a declared header that is missing or malformed. */
export const HEADER_REFUSALS: { readonly [name: string]: ErrorCode } = {
  authorization: 'unauthorized',
  'content-type': 'unsupported_media_type',
  'content-length': 'length_required',
};
