import { ACCESS_HEADER, type AccessLevel, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@webbridge/contract';
import { bodyStillArriving } from '../guards/closeWhenUnread';
import type { RequestHead } from '../guards/RequestHead';

const PROTOCOL = String(PROTOCOL_VERSION);

/**
 * Headers every API answer carries: its type, the protocol version and no caching (snapshots
 * carry media ids, which are credentials), plus what the presented code allows. A plain
 * object, so Node writes it straight to the socket without building a `Headers` (the
 * difference is a large part of a small request's cost).
 */
export function apiHeaders(type: string, access: AccessLevel | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    [PROTOCOL_HEADER]: PROTOCOL,
  };
  if (access !== undefined) headers[ACCESS_HEADER] = access;
  return headers;
}

/**
 * The headers of a refusal besides the problem's own: the protocol header, the access level
 * when a code was accepted, and `Connection: close` when the request body is still arriving:
 * the connection cannot carry a next request (see guards/closeWhenUnread.ts).
 */
export function refusalHeaders(head: RequestHead, access: AccessLevel | undefined): Record<string, string> {
  const headers: Record<string, string> = { [PROTOCOL_HEADER]: PROTOCOL };
  if (access !== undefined) headers[ACCESS_HEADER] = access;
  if (bodyStillArriving(head)) headers.Connection = 'close';
  return headers;
}
