import type { MiddlewareHandler } from 'hono';
import { BridgeError } from '../errors/BridgeError';
import { rawHeaderCounts } from './rawHeaders';

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
 * Refuses, before any body is read: a duplicated single-value header (400
 * `duplicate_header`) and any `Transfer-Encoding` (411 `chunked_not_allowed`), so every body
 * has a declared length the limits can check up front.
 */
export function headerGuard(): MiddlewareHandler {
  return async (c, next) => {
    const counts = rawHeaderCounts(c);
    for (const name of SINGLE_VALUE_HEADERS) {
      if ((counts.get(name) ?? 0) > 1) {
        throw new BridgeError('duplicate_header', `The ${name} header appears more than once.`);
      }
    }
    if (counts.has('transfer-encoding')) {
      throw new BridgeError(
        'chunked_not_allowed',
        'Send a Content-Length; Transfer-Encoding is not accepted.',
      );
    }
    await next();
  };
}
