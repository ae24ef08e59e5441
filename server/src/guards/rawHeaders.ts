import { clientAddressOf } from './clientAddress';
import type { RequestHead } from './RequestHead';

/**
 * How many header lines of the request Node kept. Node stops collecting at
 * `server.maxHeadersCount` and drops the rest silently, so a count at that bound means the
 * guards may not have seen every line.
 */
export function rawHeaderLines(head: RequestHead): number {
  return head.rawHeaders.length / 2;
}

/** The address of the client: the real one behind a trusted proxy (clientAddress.ts). */
export function clientAddress(head: RequestHead): string {
  return clientAddressOf(head);
}
