import { isIP } from 'node:net';
import { ProtocolError } from '@webbridge/contract';
import { isPublicAddress } from './isPublicAddress';

/**
 * Test-only: lets push endpoints be plain `http:` on a loopback address, so the test suite can
 * point the host at a local push service. Off by default; no flag, setting or request of a
 * browser can turn it on — only code that builds the host (tests, benchmarks).
 */
export interface EndpointPolicy {
  readonly unsafeAllowLoopbackForTests?: boolean;
}

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
 * The checks that need no I/O: an absolute `https:` URL with no user name or password, on a
 * name that can be public (not `localhost`, no single label, no local suffix) or on a public IP
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
    return url;
  }
  if (hostname === 'localhost' || LOCAL_SUFFIXES.some((suffix) => hostname.endsWith(suffix))) {
    throw badEndpoint(`is on ${hostname}, a local name.`);
  }
  // A single label resolves through the local search domains: a LAN machine, never a push service.
  if (!hostname.includes('.')) throw badEndpoint(`is on ${hostname}, which is not a public name.`);
  return url;
}
