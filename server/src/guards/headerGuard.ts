import { ProtocolError } from '@webbridge/contract';
import type { RequestHead } from './RequestHead';
import { rawHeaderCounts, rawHeaderLines } from './rawHeaders';

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

/**
 * Refuses, before any body is read: as many header lines as Node keeps (431
 * `header_too_large`), a duplicated single-value header (400 `duplicate_header`) and any
 * `Transfer-Encoding` (411 `chunked_not_allowed`), so every body has a declared length the
 * limits can check up front. Run in place by the front door: throws the refusal.
 */
export function checkHeaders(head: RequestHead): void {
  if (rawHeaderLines(head) >= MAX_HEADER_LINES) {
    throw new ProtocolError(
      'header_too_large',
      `Send fewer than ${MAX_HEADER_LINES} header lines; this server cannot check more.`,
    );
  }
  const counts = rawHeaderCounts(head);
  for (const name of SINGLE_VALUE_HEADERS) {
    if ((counts.get(name) ?? 0) > 1) {
      throw new ProtocolError('duplicate_header', `The ${name} header appears more than once.`);
    }
  }
  if (counts.has('transfer-encoding')) {
    throw new ProtocolError(
      'chunked_not_allowed',
      'Send a Content-Length; Transfer-Encoding is not accepted.',
    );
  }
}
