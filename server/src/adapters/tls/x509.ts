// @peculiar/x509 resolves its ASN.1 schemas through tsyringe, which needs the Reflect metadata
// polyfill loaded first; and it signs with whatever WebCrypto it is handed: Node's own.
import 'reflect-metadata';
import { webcrypto, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

/** @peculiar/x509, ready to use with Node's WebCrypto. Import it from here, never directly. */
export { x509 };

/** ECDSA on P-256: small keys, fast handshakes, accepted by every current browser and OS. */
const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
/** The signature every certificate here carries. */
export const EC_SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** A fresh ECDSA P-256 key pair whose private half can be exported (to be kept on disk). */
export function generateKeyPair(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

/** A PKCS#8 PEM of a private key. */
export async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** The signing key of a PKCS#8 PEM made by {@link privateKeyPem}. */
export function importSigningKey(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decode(pem)[0];
  if (!der) throw new Error('no PEM block');
  return webcrypto.subtle.importKey('pkcs8', der, EC_KEY, false, ['sign']) as Promise<CryptoKey>;
}

/** The SHA-256 fingerprint of a certificate, as browsers and OS dialogs show it (`AB:CD:…`). */
export function sha256Fingerprint(certificatePem: string): string {
  return new X509Certificate(certificatePem).fingerprint256;
}
