import { PROTOCOL_HEADER, PROTOCOL_VERSION, ProtocolError } from '@webbridge/contract';

/** A Host @hono/node-server takes as it is: a name or IPv4 address, a port from 1000 up. */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/**
 * Whether a request's Host is one @hono/node-server can build the request's URL from, by its
 * own rule (`buildUrl` in its url.ts, 2.x): the plain spelling above, or one the URL parser
 * reads back as the same host (so `127.0.0.1:80`, `[::1]:8080` and `LOCALHOST` pass, and
 * `127.0.0.1:abc`, `localhost:1@evil.example`, `127.0.0.1/x` or a port past 65535 do not).
 * Requests Hono serves are refused by the adapter when this fails; the Node listener's action
 * lane, which builds no URL, asks this first so it refuses the same ones the same way (the host
 * guard alone would read `127.0.0.1:abc` as `127.0.0.1`). No Host, or an empty one, is left to
 * the host guard, as the adapter leaves it.
 */
export function readableHost(host: string | undefined): boolean {
  if (host === undefined || host === '' || PLAIN_HOST.test(host)) return true;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}/`).hostname;
  } catch {
    return false;
  }
  const bare = host.includes(':') ? host.replace(/:\d+$/, '') : host;
  return hostname.length === host.length || hostname === bare.toLowerCase();
}

/** The refusal of a request whose target or Host cannot be read (see {@link readableHost}). */
export function unreadableRequest(): ProtocolError {
  return new ProtocolError('invalid_request', 'The request target or the Host header could not be read.');
}

/**
 * The headers of that refusal besides the problem's own: it is given before any guard ran, so
 * nothing knows how much of the request's body is unread, and the connection is closed.
 */
export const UNREADABLE_HEADERS: Readonly<Record<string, string>> = {
  [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
  Connection: 'close',
};
