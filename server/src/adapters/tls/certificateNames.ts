import os from 'node:os';

/** What the serving certificate must name for a listener bound to `hostname`. */
export interface NameSources {
  /** The interface addresses, when bound to every interface. */
  readonly addresses: readonly string[];
  /** The machine's host name (os.hostname()). */
  readonly machineName: string;
}

/**
 * Every address and name a browser may use to reach a listener on `hostname`: loopback names
 * always; with a wildcard bind each interface address (link-local IPv6 left out: it needs a
 * zone a URL cannot carry) and `<name>.local` (mDNS); else the bound address.
 */
export function certificateNames(
  hostname: string,
  wildcard: boolean,
  sources: NameSources = { addresses: [], machineName: os.hostname() },
): string[] {
  const names = new Set(['localhost', '127.0.0.1', '::1']);
  const machine = sources.machineName.toLowerCase().replace(/\.local$/, '');
  // Only `<name>.local`: the bare name is outside what the local authority may sign for (a
  // machine called `dev` would otherwise let it sign for a public top-level domain).
  if (/^[a-z0-9-]{1,63}$/.test(machine)) names.add(`${machine}.local`);
  if (wildcard) {
    for (const address of sources.addresses) if (!address.startsWith('fe80:')) names.add(address);
  } else {
    names.add(hostname.replace(/^\[|\]$/g, '').toLowerCase());
  }
  return [...names].sort();
}
