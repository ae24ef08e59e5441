import { Agent, fetch as undiciFetch } from 'undici';

/**
 * A `fetch` that trusts exactly one certificate authority (no system roots), as a device that
 * installed the host's authority does, and nothing else: a certificate not issued by it fails.
 */
export function trustingFetch(caPem: string): typeof fetch {
  const dispatcher = new Agent({ connect: { ca: caPem } });
  return ((input: string | URL, init: RequestInit = {}) =>
    undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}
