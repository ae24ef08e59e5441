import { ProtocolError } from '@webbridge/contract';
import type { RequestHead } from './RequestHead';
import { rawHeaderLines } from './rawHeaders';

/**
 * Header lines a request may carry, fewer than this; the Node listener keeps no more than this
 * many (`server.maxHeadersCount`), so a request that reaches it is refused: a duplicate or a
 * `Transfer-Encoding` past the bound would otherwise pass unseen. Browsers send about 20.
 */
export const MAX_HEADER_LINES = 100;

/** Headers whose second copy would make the request ambiguous. */
const SINGLE_VALUE_HEADERS = [
  'authorization',
  'content-length',
  'content-type',
  'content-encoding',
  'host',
  'transfer-encoding',
  'last-event-id',
  'origin',
] as const;

/** Each single-value header's bit, by its lower-case name. */
const SINGLE_VALUE_BITS: ReadonlyMap<string, number> = new Map(
  SINGLE_VALUE_HEADERS.map((name, index) => [name, 1 << index]),
);
/** The lengths of those names: a header name of another length is none of them. */
const SINGLE_VALUE_LENGTHS: ReadonlySet<number> = new Set(SINGLE_VALUE_HEADERS.map((name) => name.length));
const TRANSFER_ENCODING_BIT = SINGLE_VALUE_BITS.get('transfer-encoding') ?? 0;

/**
 * Refuses, before any body is read: as many header lines as Node keeps (431
 * `header_too_large`), a duplicated single-value header (400 `duplicate_header`) and any
 * `Transfer-Encoding` (411 `chunked_not_allowed`), so every body has a declared length the
 * limits can check up front. Run in place by the front door: throws the refusal.
 *
 * Node keeps only the first of two Authorization or Host headers in `req.headers` and Hono
 * joins others, so duplicates are only visible in the raw header list: one pass over it, with
 * a bit per single-value header (no map of counts per request; this runs on every request).
 */
export function checkHeaders(head: RequestHead): void {
  if (rawHeaderLines(head) >= MAX_HEADER_LINES) {
    throw new ProtocolError(
      'header_too_large',
      `Send fewer than ${MAX_HEADER_LINES} header lines; this server cannot check more.`,
    );
  }
  const raw = head.rawHeaders;
  let seen = 0;
  let repeated = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (!SINGLE_VALUE_LENGTHS.has(name.length)) continue;
    const bit = SINGLE_VALUE_BITS.get(name.toLowerCase());
    if (bit === undefined) continue;
    repeated |= seen & bit;
    seen |= bit;
  }
  if (repeated !== 0) {
    // Named in the list's order, whatever order the request had them in.
    const name = SINGLE_VALUE_HEADERS.find((_, index) => (repeated & (1 << index)) !== 0);
    throw new ProtocolError('duplicate_header', `The ${name} header appears more than once.`);
  }
  if ((seen & TRANSFER_ENCODING_BIT) !== 0) {
    throw new ProtocolError(
      'chunked_not_allowed',
      'Send a Content-Length; Transfer-Encoding is not accepted.',
    );
  }
}
