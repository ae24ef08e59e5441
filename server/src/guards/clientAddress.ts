import { isIP } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { RequestHead } from './RequestHead';

/** What a request says of its client once trusted proxies are accounted for. */
export interface ResolvedClient {
  /** The real client's address: the first hop, from the socket inwards, that is not a trusted proxy. */
  readonly address: string;
  /** Whether the request came through a trusted proxy (its forwarded headers were read). */
  readonly proxied: boolean;
  /** The scheme the client used, from a trusted proxy; undefined: the socket's own. */
  readonly scheme?: 'http' | 'https' | undefined;
  /** The Host the client sent, from a trusted proxy's `X-Forwarded-Host` or `Forwarded: host=`. */
  readonly host?: string | undefined;
}

/** Each request's resolution, made once by the front door and read by everything after it. */
const resolved = new WeakMap<object, ResolvedClient>();
/**
 * Whether any request was resolved in this process: until then (no `--trust-proxy`, the usual
 * case) the readers below skip the map, and every answer's hardening costs nothing more.
 */
let anyResolved = false;

/**
 * The proxies whose forwarded headers (`Forwarded`, `X-Forwarded-For`, `-Proto`, `-Host`) are
 * believed: an address, a CIDR range or `loopback` / `linklocal` / `uniquelocal` each
 * (@fastify/proxy-addr's matching, which is Express's). From any other connection those headers
 * are ignored, so a client cannot choose the address its failed guesses count against, the
 * name the Host check reads, or the scheme HSTS follows.
 *
 * @example
 * ```ts
 * const proxies = new TrustedProxies(['loopback', '10.0.0.0/8']);
 * proxies.resolve(req).address; // the client nginx saw, when nginx on 127.0.0.1 forwarded it
 * ```
 */
export class TrustedProxies {
  private readonly trusted: ((address: string, hop: number) => boolean) | undefined;

  /** Throws a TypeError naming an entry that is neither an address, a range nor a known name. */
  constructor(entries: readonly string[] = []) {
    this.trusted = entries.length === 0 ? undefined : proxyAddr.compile([...entries]);
  }

  /**
   * Resolves `head`'s client once and remembers it for {@link clientAddressOf} and
   * {@link forwardedOf}. Without trusted proxies nothing is read or remembered.
   */
  resolve(head: RequestHead): ResolvedClient | undefined {
    const trusted = this.trusted;
    if (trusted === undefined) return undefined;
    const known = resolved.get(head);
    if (known !== undefined) return known;
    const socket = head.socket?.remoteAddress ?? 'local';
    let client: ResolvedClient = { address: socket, proxied: false };
    if (isIP(socket) !== 0 && trusted(socket, 0)) {
      // X-Forwarded-For first: nginx, Caddy, Tailscale Serve and cloudflared write it and pass a
      // client's own `Forwarded` on untouched, so that one is read only when there is no other.
      const forwarded = single(head.headers.forwarded);
      client =
        forwarded === undefined || head.headers['x-forwarded-for'] !== undefined
          ? fromXForwarded(head, socket, trusted)
          : fromForwarded(forwarded, socket, trusted);
    }
    resolved.set(head, client);
    anyResolved = true;
    return client;
  }
}

/** The real client address of a request the front door admitted; the socket's otherwise. */
export function clientAddressOf(head: RequestHead): string {
  return (anyResolved ? resolved.get(head)?.address : undefined) ?? head.socket?.remoteAddress ?? 'local';
}

/** What a trusted proxy forwarded about `head` (scheme, host), or undefined when none did. */
export function forwardedOf(head: object | undefined): ResolvedClient | undefined {
  if (head === undefined || !anyResolved) return undefined;
  const client = resolved.get(head);
  return client?.proxied === true ? client : undefined;
}

/** The client of the `X-Forwarded-*` headers: Express's reading (first Proto and Host value). */
function fromXForwarded(
  head: RequestHead,
  socket: string,
  trusted: (address: string, hop: number) => boolean,
): ResolvedClient {
  const chain = listOf(head.headers['x-forwarded-for']);
  const proto = firstOf(head.headers['x-forwarded-proto'])?.toLowerCase();
  return {
    address: walk(socket, chain, trusted),
    proxied: true,
    scheme: proto === 'https' || proto === 'http' ? proto : undefined,
    host: firstOf(head.headers['x-forwarded-host']),
  };
}

/**
 * The client of an RFC 7239 `Forwarded` header, read when no `X-Forwarded-For` came: its `for=`
 * hops as a chain; `proto=` and `host=` of its first element.
 */
function fromForwarded(
  value: string,
  socket: string,
  trusted: (address: string, hop: number) => boolean,
): ResolvedClient {
  const elements = value.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map(pairsOf);
  const chain = elements.map((pairs) => nodeAddress(pairs.get('for') ?? ''));
  const proto = elements[0]?.get('proto')?.toLowerCase();
  return {
    address: walk(socket, chain, trusted),
    proxied: true,
    scheme: proto === 'https' || proto === 'http' ? proto : undefined,
    host: elements[0]?.get('host'),
  };
}

/**
 * The first hop, from the socket towards the client, that is not a trusted proxy. A hop that is
 * no address (`unknown`, an obfuscated name, garbage) ends the walk at the last hop known.
 */
function walk(socket: string, chain: readonly string[], trusted: (address: string, hop: number) => boolean) {
  let address = socket;
  for (let i = chain.length - 1, hop = 1; i >= 0; i--, hop++) {
    const next = chain[i] ?? '';
    if (isIP(next) === 0) return address;
    address = next;
    if (!trusted(next, hop)) return address;
  }
  return address;
}

/** The `name=value` pairs of one `Forwarded` element, names lower-cased, quotes removed. */
function pairsOf(element: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const pair of element.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim().toLowerCase();
    const raw = pair.slice(equals + 1).trim();
    pairs.set(name, raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw);
  }
  return pairs;
}

/** The address of a `for=` node: `[2001:db8::1]:4711` → `2001:db8::1`, `192.0.2.4:80` → `192.0.2.4`. */
function nodeAddress(node: string): string {
  if (node.startsWith('[')) return node.slice(1, node.indexOf(']'));
  return isIP(node) !== 0 ? node : node.replace(/:\d+$/, '');
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function listOf(value: string | string[] | undefined): string[] {
  const joined = single(value);
  return joined === undefined
    ? []
    : joined
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return listOf(value)[0];
}
