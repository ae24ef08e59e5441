import type { MiddlewareHandler } from 'hono';
import { BridgeError } from '../errors/BridgeError';

/**
 * Refuses requests whose Host header is not one of the server's own names or addresses
 * (403 `forbidden_host`): a page on another origin that re-binds its DNS name to this
 * address cannot reach the API. `allowed()` is read per request, so the set can grow when
 * the listener learns its addresses.
 */
export function hostGuard(allowed: () => ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host');
    if (!host || !allowed().has(hostnameOf(host))) {
      throw new BridgeError('forbidden_host', 'This server does not answer to that host name.');
    }
    await next();
  };
}

/** The host name of a Host header, lower-cased, without the port (IPv6 keeps its brackets). */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}
