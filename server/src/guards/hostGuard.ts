import { ProtocolError } from '@webbridge/contract';
import type { RequestHead } from './RequestHead';

/**
 * Refuses, in place for the front door, a request without Host (400 `invalid_request`) or
 * whose Host is not one of the server's own names or addresses (403 `forbidden_host`): a page
 * on another origin that re-binds its DNS name to this address cannot reach the API. The set
 * is read per request, so it can change when the listener learns its addresses.
 */
export function checkHost(head: RequestHead, allowed: ReadonlySet<string>): void {
  const host = head.headers.host;
  // An absolute-form target (`GET http://evil.example/api/state`) names its own host, which
  // RFC 9112 says wins over the Host header; this server is no proxy, so it takes paths only.
  const target = head.url;
  if (target !== undefined && !target.startsWith('/')) {
    throw new ProtocolError('invalid_request', 'The request target must be a path.');
  }
  if (typeof host !== 'string') {
    // RFC 9112 §3.2: 400 for HTTP/1.1; an HTTP/1.0 request without Host gets the same answer,
    // since this server cannot tell which of its names the client meant.
    throw new ProtocolError('invalid_request', 'Send a Host header naming this server.');
  }
  if (!allowed.has(hostnameOf(host))) {
    throw new ProtocolError('forbidden_host', 'This server does not answer to that host name.');
  }
}

/**
 * Refuses a request whose trusted proxy says the client asked for a name that is not the
 * server's (403 `forbidden_host`): through a proxy the Host the phone sent is what counts, and
 * a proxy that passes on any name must not turn the Host check off.
 */
export function checkForwardedHost(host: string, allowed: ReadonlySet<string>): void {
  if (!allowed.has(hostnameOf(host))) {
    throw new ProtocolError('forbidden_host', 'This server does not answer to that host name.');
  }
}

/** The host name of a Host header, lower-cased, without the port (IPv6 keeps its brackets). */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    // `]` must end the value or start the port: `[::1]evil.example` matches no name of ours.
    if (end === -1 || (end + 1 < value.length && value[end + 1] !== ':')) return value;
    return value.slice(0, end + 1);
  }
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}
