import type { RequestHead } from './RequestHead';

/**
 * Whether a response now would be sent while the request's body is still arriving (a 413 for
 * a declared length, a 401 on a POST, any refusal before the body is read). The connection
 * cannot carry a next request until those bytes are gone, and this server does not wait for
 * them: a client told `keep-alive` would send its next request into a socket about to close.
 * So the front door and the error renderer then mark `Connection: close`, and Node ends the
 * socket gracefully (see `lingeringClose`).
 */
export function bodyStillArriving(head: RequestHead): boolean {
  if (head.complete || (head as Partial<ReadWhole>)[READ_WHOLE] === true) return false;
  const length = head.headers['content-length'];
  return (length !== undefined && length !== '0') || head.headers['transfer-encoding'] !== undefined;
}

/**
 * Set on a request whose declared body was read whole before Node marked it complete. A symbol
 * property on the request rather than a WeakSet: adding to a WeakSet cost ~0.1 µs per request
 * (its ephemeron table), the property nothing measurable (docs/PERFORMANCE.md).
 */
const READ_WHOLE = Symbol('webbridge.bodyReadWhole');

interface ReadWhole {
  [READ_WHOLE]: true;
}

/**
 * Records that every byte `head` declared was read (routes/readJsonBody.ts takes a body that
 * came with its headers from the buffer, before Node's parser has set `complete`): nothing of
 * it is still arriving, so a refusal now keeps the connection.
 */
export function markBodyReadWhole(head: RequestHead): void {
  (head as RequestHead & Partial<ReadWhole>)[READ_WHOLE] = true;
}
