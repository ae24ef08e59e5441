import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import type { KeyAndCertificate } from './ServingCertificate';

/** A certificate or key file that cannot be served; the message names the file and why. */
export class TlsSetupError extends Error {
  override readonly name = 'TlsSetupError';
}

/**
 * A person's own certificate (mkcert, a company CA, ACME) and its key, checked before anything
 * listens: each file exists and is readable, parses, the key belongs to the certificate, and
 * the certificate is valid now. Any problem is a {@link TlsSetupError} naming the file.
 */
export function loadUserCertificate(certFile: string, keyFile: string, now = Date.now()): KeyAndCertificate {
  const certificatePem = readFile(certFile, 'certificate');
  const keyPem = readFile(keyFile, 'key');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    throw new TlsSetupError(`${certFile}: not a PEM certificate.`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new TlsSetupError(`${keyFile}: not a PEM private key (or it is encrypted).`);
  }
  if (!certificate.checkPrivateKey(key)) {
    throw new TlsSetupError(`${keyFile}: this key does not belong to the certificate ${certFile}.`);
  }
  if (Date.parse(certificate.validTo) <= now) {
    throw new TlsSetupError(`${certFile}: the certificate expired on ${certificate.validTo}.`);
  }
  if (Date.parse(certificate.validFrom) > now) {
    throw new TlsSetupError(`${certFile}: the certificate is not valid before ${certificate.validFrom}.`);
  }
  return { certificatePem, keyPem };
}

function readFile(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read (permission denied)'
          : code === 'EISDIR'
            ? 'is a folder, not a file'
            : 'cannot be read';
    throw new TlsSetupError(`${file}: the ${what} file ${why}.`);
  }
}
