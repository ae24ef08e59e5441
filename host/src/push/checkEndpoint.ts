import { isIP } from 'node:net';
import { ProtocolError } from '@webbridge/contract';
import { isPublicAddress } from './isPublicAddress';

/**
 * Where push endpoints may be, beyond public `https:` on port 443. Set only by code that builds
 * the host (`startHost`'s `push` options); no flag, setting or request of a browser reaches it.
 */
export interface EndpointPolicy {
  /**
   * Test-only: lets push endpoints be plain `http:` on a loopback address, on any port, so the
   * test suite can point the host at a local push service (web-push-testing).
   * @default false
   */
  readonly unsafeAllowLoopbackForTests?: boolean;
  /**
   * The ports a public endpoint may use: a self-hosted push service on another port is added
   * here. Every public push service listens on 443; any other port could reach a service that
   * is public but is not a push service (a database, a mail relay) with the host's requests.
   * @default [443]
   */
  readonly ports?: readonly number[];
}

/** The port of a push endpoint when its policy names none. */
const DEFAULT_PORTS: readonly number[] = [443];

/** Host names that never name a public push service. */
const LOCAL_SUFFIXES = [
  '.localhost',
  '.local',
  '.internal',
  '.lan',
  '.home',
  '.home.arpa',
  '.corp',
  '.intranet',
];

/** 400 naming what is wrong with a subscription's endpoint. */
export function badEndpoint(detail: string): ProtocolError {
  return new ProtocolError('invalid_request', `The push subscription's endpoint ${detail}`, {
    issues: [{ path: ['subscription', 'endpoint'], message: detail }],
  });
}

/** Whether an address is one the test-only policy lets through: loopback only. */
export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address === '::ffff:127.0.0.1';
}

/**
 * The checks that need no I/O: an absolute `https:` URL with no user name or password, on
 * port 443 (or a port the policy adds), on a name that can be public (not `localhost`, no single label, no local suffix) or on a public IP
 * literal. Returns the parsed URL; throws a 400 {@link ProtocolError} naming what is wrong.
 * DNS is checked later (resolvePublic.ts), on every connection.
 */
export function checkEndpoint(endpoint: string, policy: EndpointPolicy = {}): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw badEndpoint('is not a URL.');
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const testLoopback =
    policy.unsafeAllowLoopbackForTests === true && isIP(hostname) !== 0 && isLoopback(hostname);
  if (testLoopback && (url.protocol === 'http:' || url.protocol === 'https:')) return url;
  if (url.protocol !== 'https:') throw badEndpoint(`must use https:, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw badEndpoint('must not carry a user name or password.');
  if (isIP(hostname) !== 0) {
    if (!isPublicAddress(hostname)) throw badEndpoint(`is on ${hostname}, which is not a public address.`);
    return checkPort(url, policy);
  }
  if (hostname === 'localhost' || LOCAL_SUFFIXES.some((suffix) => hostname.endsWith(suffix))) {
    throw badEndpoint(`is on ${hostname}, a local name.`);
  }
  // A single label resolves through the local search domains: a LAN machine, never a push service.
  if (!hostname.includes('.')) throw badEndpoint(`is on ${hostname}, which is not a public name.`);
  return checkPort(url, policy);
}

/** Refuses a port the policy does not list (443 by default); returns the URL. */
function checkPort(url: URL, policy: EndpointPolicy): URL {
  const ports = policy.ports ?? DEFAULT_PORTS;
  // URL leaves `port` empty for https:'s own port.
  const port = url.port === '' ? 443 : Number(url.port);
  if (ports.includes(port)) return url;
  const allowed = ports.length === 1 ? `${ports[0]} is` : `${ports.join(' or ')} are`;
  throw badEndpoint(`uses port ${port}; only ${allowed} allowed.`);
}
