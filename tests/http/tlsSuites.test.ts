import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/testHost';

// Only forward-secret AEAD suites: TLS 1.3, and TLS 1.2 with ECDHE and AES-GCM or
// ChaCha20-Poly1305. A client that offers nothing else (CBC, CCM, ARIA) is refused in the
// handshake.

let h: TestHost;
let ca: string;

beforeAll(async () => {
  h = await startTestHost({ tls: true });
  ca = readFileSync(join(h.dataDir, 'tls', 'ca.crt'), 'utf8');
});
afterAll(() => h?.close(true));

/** Connects offering only `ciphers` (TLS 1.2 at most unless `tls13`); what was agreed, or why not. */
function offer(ciphers: string, tls13 = false): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(
      {
        port: h.port,
        host: '127.0.0.1',
        ca,
        ...(tls13 ? { minVersion: 'TLSv1.3' as const } : { maxVersion: 'TLSv1.2' as const, ciphers }),
        ...(tls13 ? { ciphers } : {}),
      },
      () => {
        resolve(`${socket.getProtocol()} ${socket.getCipher().standardName}`);
        socket.destroy();
      },
    );
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(`refused: ${error.code ?? error.message}`));
  });
}

describe('TLS suites', () => {
  it('refuses a TLS 1.2 client that offers only CBC suites', async () => {
    for (const cbc of ['ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES128-SHA256', 'ECDHE-ECDSA-AES256-SHA384']) {
      expect({ cbc, result: await offer(cbc) }).toMatchObject({
        cbc,
        result: expect.stringMatching(/^refused/),
      });
    }
  });

  it('refuses a client offering only a CCM, CCM-8 or ARIA suite', async () => {
    for (const other of [
      'ECDHE-ECDSA-AES128-CCM8',
      'ECDHE-ECDSA-AES128-CCM',
      'ECDHE-ECDSA-ARIA128-GCM-SHA256',
    ]) {
      expect({ other, result: await offer(other) }).toMatchObject({
        other,
        result: expect.stringMatching(/^refused/),
      });
    }
  });

  it('agrees ECDHE with AES-GCM or ChaCha20-Poly1305 on TLS 1.2, and TLS 1.3', async () => {
    expect(await offer('ECDHE-ECDSA-AES128-GCM-SHA256')).toBe(
      'TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
    );
    expect(await offer('ECDHE-ECDSA-CHACHA20-POLY1305')).toBe(
      'TLSv1.2 TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
    );
    expect(await offer('ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-SHA')).toBe(
      'TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
    );
    expect(await offer('TLS_CHACHA20_POLY1305_SHA256', true)).toBe('TLSv1.3 TLS_CHACHA20_POLY1305_SHA256');
  });
});
