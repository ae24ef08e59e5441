import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LocalAuthority } from './LocalAuthority';
import { writePublicFile, writeSecretFile } from './writeSecretFile';

/** Within Apple's limit for certificates under a user-installed root (and the CA/B's 398). */
const LEAF_DAYS = 397;
/** A serving certificate with less left than this is replaced. */
const RENEW_BEFORE_MS = 30 * 86_400_000;

const LEAF_CERT = 'server.crt';
const LEAF_KEY = 'server.key';
const LEAF_NAMES = 'server.names.json';

/** A certificate and key in the form Node's TLS takes. */
export interface KeyAndCertificate {
  readonly certificatePem: string;
  readonly keyPem: string;
}

/**
 * The serving certificate the authority issued for `names`, reused from `dir` while it covers
 * exactly those names, was issued by this authority and has a month left; else a new one.
 */
export async function servingCertificate(
  authority: LocalAuthority,
  dir: string,
  names: readonly string[],
  now = Date.now(),
): Promise<KeyAndCertificate> {
  const wanted = [...new Set(names)].sort();
  const kept = readKept(dir);
  if (kept && sameNames(kept.names, wanted) && stillGood(kept.certificatePem, authority, now)) return kept;
  const issued = await authority.issue(wanted, LEAF_DAYS);
  writeSecretFile(path.join(dir, LEAF_KEY), issued.keyPem);
  writePublicFile(path.join(dir, LEAF_CERT), issued.certificatePem);
  writePublicFile(path.join(dir, LEAF_NAMES), JSON.stringify(wanted));
  return issued;
}

function readKept(dir: string): (KeyAndCertificate & { names: string[] }) | undefined {
  try {
    const names: unknown = JSON.parse(fs.readFileSync(path.join(dir, LEAF_NAMES), 'utf8'));
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) return undefined;
    return {
      names,
      certificatePem: fs.readFileSync(path.join(dir, LEAF_CERT), 'utf8'),
      keyPem: fs.readFileSync(path.join(dir, LEAF_KEY), 'utf8'),
    };
  } catch {
    return undefined;
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

function stillGood(certificatePem: string, authority: LocalAuthority, now: number): boolean {
  try {
    const leaf = new X509Certificate(certificatePem);
    const ca = new X509Certificate(authority.certificatePem);
    return (
      leaf.checkIssued(ca) && leaf.verify(ca.publicKey) && Date.parse(leaf.validTo) - now > RENEW_BEFORE_MS
    );
  } catch {
    return false;
  }
}
