import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, fetch as undiciFetch } from 'undici';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `fetch` as a phone outside the house has: it trusts one certificate authority (no system
 * roots) and finds `name` at 127.0.0.1, where a test proxy listens, as public DNS or MagicDNS
 * would send it to the proxy. Other names resolve as usual.
 */
export function proxiedFetch(caPem: string, name: string): typeof fetch {
  const lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    if (hostname !== name) {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) =>
        options.all || error
          ? callback(error, addresses)
          : callback(null, addresses[0]?.address ?? '', addresses[0]?.family),
      );
      return;
    }
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  };
  const dispatcher = new Agent({ connect: { ca: caPem, lookup } });
  return ((input: string | URL, init: RequestInit = {}) =>
    undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}
