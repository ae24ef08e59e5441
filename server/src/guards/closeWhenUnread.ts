import type { Context } from 'hono';
import { incomingOf } from './rawHeaders';

/**
 * Whether a response now would be sent while the request's body is still arriving (a 413 for
 * a declared length, a 401 on a POST, any refusal before the body is read). The connection
 * cannot carry a next request until those bytes are gone, and this server does not wait for
 * them: a client told `keep-alive` would send its next request into a socket about to close.
 * So the front door and the error renderer then mark `Connection: close`, and Node ends the
 * socket gracefully (see `lingeringClose`).
 */
export function bodyStillArriving(c: Context): boolean {
  const incoming = incomingOf(c);
  if (!incoming || incoming.complete) return false;
  const length = incoming.headers['content-length'];
  return (length !== undefined && length !== '0') || incoming.headers['transfer-encoding'] !== undefined;
}
