import type { webcrypto } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LocalNameConstraints } from './LocalNameConstraints';
import { writePublicFile, writeSecretFile } from './writeSecretFile';
import {
  EC_SIGNING,
  generateKeyPair,
  importSigningKey,
  privateKeyPem,
  sha256Fingerprint,
  x509,
} from './x509';

/** Files of the authority inside its folder. */
const CA_CERT = 'ca.crt';
const CA_KEY = 'ca.key';
/** A person trusts the authority once; it should outlive any phone they pair. */
const CA_YEARS = 10;

/** Why an authority kept in the data dir was replaced by a new one on open. */
export interface AuthorityReplacement {
  /** The fingerprint devices trusted until now. */
  readonly previousFingerprint: string;
  /**
   * `unconstrained`: it was not limited to local names and private addresses (made before
   * authorities carried name constraints, or while they still permitted the machine's bare name).
   */
  readonly reason: 'unconstrained';
}

/**
 * The bridge's own certificate authority: one ECDSA P-256 key made on first use and kept in
 * the data dir (mode 0600), whose certificate a person trusts once on each device. It signs
 * the serving certificates for whatever private addresses the host has, so a new Wi-Fi
 * address never needs a new trust step; its certificate's name constraints
 * (LocalNameConstraints.ts) keep it from vouching for anything else.
 */
export class LocalAuthority {
  private constructor(
    /** The authority's certificate (PEM): public, served at `/ca.crt`. */
    readonly certificatePem: string,
    private readonly signingKey: webcrypto.CryptoKey,
    private readonly certificate: x509.X509Certificate,
    /** What its certificate permits it to vouch for. */
    readonly constraints: LocalNameConstraints,
    /** Set when an older authority kept in the folder was replaced by this one. */
    readonly replaced: AuthorityReplacement | undefined,
  ) {}

  /** SHA-256 fingerprint of the certificate, as a device shows it before trusting it. */
  get fingerprint(): string {
    return sha256Fingerprint(this.certificatePem);
  }

  /**
   * The authority kept in `dir`, made there on first use, permitted to vouch for local names
   * and private addresses only (LocalNameConstraints.ts). A
   * half-made authority (a key without its certificate) is replaced: nothing was ever trusted
   * with it. So is one without name constraints: its key could vouch for any site to every
   * device that trusts it; its key file is overwritten and `replaced` says so.
   */
  static async open(dir: string): Promise<LocalAuthority> {
    const certFile = path.join(dir, CA_CERT);
    const keyFile = path.join(dir, CA_KEY);
    let replaced: AuthorityReplacement | undefined;
    if (fs.existsSync(certFile) && fs.existsSync(keyFile)) {
      // A key someone (a copy, a backup restore) left readable is made private again.
      fs.chmodSync(keyFile, 0o600);
      const certificatePem = fs.readFileSync(certFile, 'utf8');
      const certificate = new x509.X509Certificate(certificatePem);
      const constraints = LocalNameConstraints.of(certificate);
      if (constraints) {
        const key = await importSigningKey(fs.readFileSync(keyFile, 'utf8'));
        return new LocalAuthority(certificatePem, key, certificate, constraints, undefined);
      }
      replaced = { previousFingerprint: sha256Fingerprint(certificatePem), reason: 'unconstrained' };
    }
    const constraints = LocalNameConstraints.local();
    const keys = await generateKeyPair();
    const notBefore = new Date(Date.now() - 60 * 60_000);
    const notAfter = new Date(notBefore);
    notAfter.setFullYear(notAfter.getFullYear() + CA_YEARS);
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      name: `CN=webbridge local authority (${safeName(os.hostname())}), O=webbridge`,
      keys,
      notBefore,
      notAfter,
      signingAlgorithm: EC_SIGNING,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
        constraints.extension(),
      ],
    });
    const certificatePem = certificate.toString('pem');
    // Key first: a crash in between leaves a key without a certificate, which is remade (and a
    // crash after it, an unconstrained certificate with the new key: replaced again).
    writeSecretFile(keyFile, await privateKeyPem(keys.privateKey));
    writePublicFile(certFile, certificatePem);
    return new LocalAuthority(certificatePem, keys.privateKey, certificate, constraints, replaced);
  }

  /** Whether this authority may vouch for `name` (a DNS name or an IP address). */
  permits(name: string): boolean {
    return this.constraints.permits(name);
  }

  /**
   * A serving certificate for `names` (DNS names and IP addresses), valid `days` days. A name
   * outside the constraints would make clients refuse the whole certificate: it is an error.
   */
  async issue(names: readonly string[], days: number): Promise<{ certificatePem: string; keyPem: string }> {
    const outside = names.filter((name) => !this.permits(name));
    if (outside.length > 0) throw new Error(`The local authority may not vouch for ${outside.join(', ')}.`);
    const keys = await generateKeyPair();
    const notBefore = new Date(Date.now() - 60 * 60_000);
    const notAfter = new Date(notBefore.getTime() + days * 86_400_000);
    const leaf = await x509.X509CertificateGenerator.create({
      subject: `CN=${safeName(names.find((n) => !isIp(n)) ?? 'webbridge')}`,
      issuer: this.certificate.subject,
      publicKey: keys.publicKey,
      signingKey: this.signingKey,
      notBefore,
      notAfter,
      signingAlgorithm: EC_SIGNING,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(
          names.map((n) =>
            isIp(n) ? { type: 'ip' as const, value: n } : { type: 'dns' as const, value: n },
          ),
        ),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
        await x509.AuthorityKeyIdentifierExtension.create(this.certificate),
      ],
    });
    // The chain goes with the leaf, so a client that trusts the authority can build it.
    return {
      certificatePem: `${leaf.toString('pem')}\n${this.certificatePem}`,
      keyPem: await privateKeyPem(keys.privateKey),
    };
  }
}

function isIp(name: string): boolean {
  return isIP(name) !== 0;
}

/** A name that cannot break the distinguished-name syntax. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9.-]/g, '-').slice(0, 60) || 'host';
}
