import os from 'node:os';
import type { TransportOptions } from '../../BridgeOptions';
import type { PlainHttpContext } from '../answerPlainHttp';
import { isLoopback, isWildcard, lanAddresses, type TlsServing } from '../nodeListener';
import { certificateNames } from './certificateNames';
import type { LocalAuthority } from './LocalAuthority';
import { loadUserCertificate, TlsSetupError } from './loadUserCertificate';
import { type KeyAndCertificate, servingCertificate } from './ServingCertificate';

/** How often a running listener checks that its certificate still has a month left. */
const RENEWAL_CHECK_MS = 12 * 60 * 60_000;

/** What a listener serves, decided before it listens. */
export interface SecuredListener {
  /** The certificate and plain-HTTP answers, or undefined for plain HTTP. */
  readonly serving: TlsServing | undefined;
  /** The local authority, when it issued the certificate. */
  readonly authority: LocalAuthority | undefined;
  /**
   * Addresses and names the host has that its authority may not vouch for (a public address):
   * left out of the certificate, so a browser cannot use them over HTTPS.
   */
  readonly leftOut: readonly string[];
  /**
   * A new certificate when the host's addresses changed or the current one nears its end;
   * undefined while the current one is still right.
   */
  refresh(): Promise<KeyAndCertificate | undefined>;
}

/**
 * Decides how a listener on `hostname` is secured: a person's own certificate when given (checked
 * now, so a bad pair is a startup error), plain HTTP on loopback unless `tlsOnLoopback`, plain
 * HTTP off loopback only with `insecureHttp`, else a certificate from the local authority for
 * every name the host answers to.
 */
export async function secureListener(
  hostname: string,
  transport: TransportOptions,
  allowedHosts: () => ReadonlySet<string>,
): Promise<SecuredListener> {
  const { certFile, keyFile, authorityDir } = transport;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new TlsSetupError('A certificate needs its key: give both the certificate and the key file.');
  }
  const plain: SecuredListener = {
    serving: undefined,
    authority: undefined,
    leftOut: [],
    refresh: async () => undefined,
  };
  if (certFile !== undefined && keyFile !== undefined) {
    const own = loadUserCertificate(certFile, keyFile);
    return { ...plain, serving: { ...own, plainHttp: { allowedHosts, authority: () => undefined } } };
  }
  if (isLoopback(hostname) ? transport.tlsOnLoopback !== true : transport.insecureHttp === true) return plain;
  if (authorityDir === undefined) {
    throw new TlsSetupError(
      `Serving ${hostname} needs TLS: give a certificate authority folder or a certificate, or allow plain HTTP explicitly.`,
    );
  }
  // Loaded only here: the X.509 library and its ASN.1 schemas cost every start a plain-HTTP
  // bridge (loopback, the tests, embedding apps with their own certificate) would not need.
  const { LocalAuthority } = await import('./LocalAuthority');
  const allNames = () =>
    certificateNames(hostname, isWildcard(hostname), {
      addresses: lanAddresses(true),
      machineName: os.hostname(),
    });
  const authority = await LocalAuthority.open(authorityDir);
  // A name outside the authority's constraints would make clients refuse the whole certificate.
  const names = () => allNames().filter((name) => authority.permits(name));
  const leftOut = allNames().filter((name) => !authority.permits(name));
  let current = names().join(' ');
  let checkedAt = Date.now();
  const certificate = await servingCertificate(authority, authorityDir, names());
  const context: PlainHttpContext = {
    allowedHosts,
    authority: () => ({ certificatePem: authority.certificatePem, fingerprint: authority.fingerprint }),
  };
  return {
    serving: { ...certificate, plainHttp: context },
    authority,
    leftOut,
    async refresh() {
      const wanted = names();
      const now = Date.now();
      if (wanted.join(' ') === current && now - checkedAt < RENEWAL_CHECK_MS) return undefined;
      const before = current;
      current = wanted.join(' ');
      checkedAt = now;
      const next = await servingCertificate(authority, authorityDir, wanted);
      return before === current && next.certificatePem === certificate.certificatePem ? undefined : next;
    },
  };
}
