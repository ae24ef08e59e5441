import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * Every header name of the request as sent, lower-cased, with how often it appeared.
 * Node keeps only the first of two Authorization or Host headers in `req.headers` and Hono
 * joins others, so duplicates are only visible in the raw header list.
 */
export function rawHeaderCounts(c: Context): Map<string, number> {
  const counts = new Map<string, number>();
  const incoming = incomingOf(c);
  if (incoming?.rawHeaders) {
    const raw = incoming.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    return counts;
  }
  // Not behind Node (app.request in unit tests): the Fetch Headers object already merged
  // duplicates, so one is all we can see.
  for (const name of c.req.raw.headers.keys()) counts.set(name, 1);
  return counts;
}

/**
 * How many header lines of the request Node kept. Node stops collecting at
 * `server.maxHeadersCount` and drops the rest silently, so a count at that bound means the
 * guards may not have seen every line.
 */
export function rawHeaderLines(c: Context): number {
  const raw = incomingOf(c)?.rawHeaders;
  return raw ? raw.length / 2 : [...c.req.raw.headers.keys()].length;
}

/** The Node request behind a context; undefined outside Node (`app.request` in unit tests). */
export function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/** The remote address of the client. */
export function clientAddress(c: Context): string {
  const incoming = incomingOf(c);
  return incoming?.socket?.remoteAddress ?? 'local';
}

/**
 * Who a failed guess is counted against: one IPv4 address, one IPv6 /64 (a device can choose
 * any address inside its prefix), and all of loopback together (a local user can pick any of
 * 127.0.0.0/8).
 */
export function throttleKey(address: string): string {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (v4 === '::1' || /^127\./.test(v4)) return 'loopback';
  if (!v4.includes(':')) return v4;
  const [head = ''] = v4.split('%');
  const groups = head.split('::')[0]?.split(':') ?? [];
  return `${groups.slice(0, 4).join(':')}::/64`;
}
