import { clientAddressOf } from './clientAddress';
import type { RequestHead } from './RequestHead';

/**
 * Every header name of the request as sent, lower-cased, with how often it appeared.
 * Node keeps only the first of two Authorization or Host headers in `req.headers` and Hono
 * joins others, so duplicates are only visible in the raw header list.
 */
export function rawHeaderCounts(head: RequestHead): Map<string, number> {
  const counts = new Map<string, number>();
  const raw = head.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

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
