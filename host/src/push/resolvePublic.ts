import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { badEndpoint, type EndpointPolicy, isLoopback } from './checkEndpoint';
import { isPublicAddress } from './isPublicAddress';

/** Resolves a name to all its addresses (A and AAAA), as the system resolver does. */
export type ResolveAll = (hostname: string) => Promise<readonly LookupAddress[]>;

/** The system resolver (getaddrinfo), every address. */
export const systemResolveAll: ResolveAll = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses);
    });
  });

/**
 * Resolves `hostname` and refuses (400) unless every address it has is public: one private
 * answer among public ones is enough for a connection to land in the LAN. Returns the addresses.
 */
export async function resolvePublic(
  hostname: string,
  resolveAll: ResolveAll = systemResolveAll,
  policy: EndpointPolicy = {},
): Promise<readonly LookupAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  let addresses: readonly LookupAddress[];
  if (literal !== 0) addresses = [{ address: bare, family: literal }];
  else {
    try {
      addresses = await resolveAll(bare);
    } catch {
      throw badEndpoint(`is on ${bare}, a name that does not resolve.`);
    }
  }
  if (addresses.length === 0) throw badEndpoint(`is on ${bare}, a name that does not resolve.`);
  for (const { address } of addresses) {
    if (policy.unsafeAllowLoopbackForTests === true && isLoopback(address)) continue;
    if (!isPublicAddress(address)) {
      throw badEndpoint(`is on ${bare}, which resolves to ${address}, not a public address.`);
    }
  }
  return addresses;
}

/**
 * A `lookup` for the push request's socket that connects only to a checked address: the name is
 * resolved again for the connection itself and refused unless every answer is public, so a
 * name that changes its answer after the subscription was checked (DNS rebinding) still cannot
 * reach the LAN.
 */
export function publicLookup(
  resolveAll: ResolveAll = systemResolveAll,
  policy: EndpointPolicy = {},
): LookupFunction {
  return (hostname, options, callback) => {
    resolvePublic(hostname, resolveAll, policy).then(
      (addresses) => {
        const wanted = typeof options === 'object' && options !== null ? options.family : undefined;
        const chosen =
          addresses.find((a) => wanted === undefined || wanted === 0 || a.family === wanted) ?? addresses[0]!;
        if (typeof options === 'object' && options !== null && options.all === true) {
          (callback as unknown as (error: null, addresses: readonly LookupAddress[]) => void)(
            null,
            addresses,
          );
        } else callback(null, chosen.address, chosen.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
