import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../support/chromium';

/** base64(sha256(SPKI)) of the first certificate in `<dataDir>/tls/server.crt` (the leaf). */
function leafSpkiHash(dataDir: string): string {
  const pem = readFileSync(join(dataDir, 'tls', 'server.crt'), 'utf8');
  const first = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0];
  if (!first) throw new Error('no certificate in server.crt');
  const spki = new X509Certificate(first).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

/**
 * Debian's Chromium trusting a TLS test host's serving key (the leaf's SPKI pin; see
 * TOOLCHAIN.md): a secure context off plain loopback HTTP, as a phone sees the host.
 */
export function launchPinnedChromium(dataDir: string): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${leafSpkiHash(dataDir)}`],
  });
}
