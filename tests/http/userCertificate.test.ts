import { spawn } from 'node:child_process';
import type { webcrypto } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost } from '@webbridge/host';
import { TlsSetupError } from '@webbridge/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EC_SIGNING, generateKeyPair, privateKeyPem, x509 } from '../../server/src/adapters/tls/x509';
import { CLI } from '../host/cliProcess';
import { TEST_CODE } from '../support/testHost';
import { trustingFetch } from '../support/trustingFetch';

// A person's own certificate (mkcert, a company CA, ACME) instead of the local authority: a
// good pair is served; each bad pair is a startup error naming the file and the problem, and
// nothing is left listening.

const DAY = 86_400_000;

interface Authority {
  readonly pem: string;
  readonly keys: webcrypto.CryptoKeyPair;
  readonly certificate: x509.X509Certificate;
}

async function makeAuthority(): Promise<Authority> {
  const keys = await generateKeyPair();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=Test Company Root',
    keys,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    signingAlgorithm: EC_SIGNING,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
  });
  return { pem: certificate.toString('pem'), keys, certificate };
}

/** A leaf for 127.0.0.1 and localhost issued by `ca`, valid from `from` to `to` (ms from now). */
async function makeLeaf(ca: Authority, from: number, to: number): Promise<{ cert: string; key: string }> {
  const keys = await generateKeyPair();
  const leaf = await x509.X509CertificateGenerator.create({
    subject: 'CN=localhost',
    issuer: ca.certificate.subject,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    notBefore: new Date(Date.now() + from),
    notAfter: new Date(Date.now() + to),
    signingAlgorithm: EC_SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'dns', value: 'localhost' },
      ]),
    ],
  });
  return { cert: `${leaf.toString('pem')}\n${ca.pem}`, key: await privateKeyPem(keys.privateKey) };
}

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Whether anything accepts a TCP connection on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

let dir: string;
let ca: Authority;
const files: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webbridge-usercert-'));
  ca = await makeAuthority();
  const write = (name: string, content: string) => {
    files[name] = join(dir, name);
    writeFileSync(files[name], content, { mode: 0o600 });
  };
  const good = await makeLeaf(ca, -DAY, 90 * DAY);
  write('good.crt', good.cert);
  write('good.key', good.key);
  const other = await makeLeaf(ca, -DAY, 90 * DAY);
  write('other.key', other.key);
  const expired = await makeLeaf(ca, -10 * DAY, -DAY);
  write('expired.crt', expired.cert);
  write('expired.key', expired.key);
  const future = await makeLeaf(ca, 2 * DAY, 90 * DAY);
  write('future.crt', future.cert);
  write('future.key', future.key);
  write('garbage.crt', 'this is not a certificate\n');
  write('garbage.key', 'neither is this a key\n');
  // Root reads anything, so "unreadable" is a path that is not a readable file: a folder.
  files['folder.crt'] = join(dir, 'folder.crt');
  mkdirSync(files['folder.crt']);
  files['missing.crt'] = join(dir, 'missing.crt');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a user certificate', () => {
  it('a good pair is served over HTTPS and a client trusting only its CA connects', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-test-'));
    const host = await startHost({
      dataDir,
      accessCode: TEST_CODE,
      transport: { certFile: files['good.crt']!, keyFile: files['good.key']! },
    });
    try {
      expect(host.address.scheme).toBe('https');
      // No local authority is made or announced when the person brings their own certificate.
      expect(host.address.authority).toBeUndefined();
      expect(existsSync(join(dataDir, 'tls', 'ca.key'))).toBe(false);
      const secure = trustingFetch(ca.pem);
      const response = await secure(`${host.url}/api/state`, {
        headers: { Authorization: `Bearer ${TEST_CODE}` },
      });
      expect(response.status).toBe(200);
      const byName = await secure(`https://localhost:${host.address.port}/api/locale`);
      expect(byName.status).toBe(200);
    } finally {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const bad: { name: string; cert: string; key: string; message: RegExp }[] = [
    {
      name: 'a missing certificate file',
      cert: 'missing.crt',
      key: 'good.key',
      message: /missing\.crt: the certificate file does not exist\./,
    },
    {
      name: 'a missing key file',
      cert: 'good.crt',
      key: 'missing.crt',
      message: /missing\.crt: the key file does not exist\./,
    },
    {
      name: 'an unreadable certificate (a folder)',
      cert: 'folder.crt',
      key: 'good.key',
      message: /folder\.crt: the certificate file is a folder, not a file\./,
    },
    {
      name: 'a certificate that is not PEM',
      cert: 'garbage.crt',
      key: 'good.key',
      message: /garbage\.crt: not a PEM certificate/,
    },
    {
      name: 'a key that is not PEM',
      cert: 'good.crt',
      key: 'garbage.key',
      message: /garbage\.key: not a PEM private key/,
    },
    {
      name: 'a key of another certificate',
      cert: 'good.crt',
      key: 'other.key',
      message: /other\.key: this key does not belong/,
    },
    {
      name: 'an expired certificate',
      cert: 'expired.crt',
      key: 'expired.key',
      message: /expired\.crt: the certificate expired on/,
    },
    {
      name: 'a certificate not yet valid',
      cert: 'future.crt',
      key: 'future.key',
      message: /future\.crt: the certificate is not valid before/,
    },
  ];

  for (const { name, cert, key, message } of bad) {
    it(`${name} is refused at start with its message, and nothing listens`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-test-'));
      const port = await freePort();
      try {
        const started = startHost({
          dataDir,
          port,
          accessCode: TEST_CODE,
          transport: { certFile: files[cert]!, keyFile: files[key]! },
        });
        await expect(started).rejects.toThrow(TlsSetupError);
        await expect(started).rejects.toThrow(message);
        expect(await listening(port)).toBe(false);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('a certificate without its key is refused', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-test-'));
    try {
      await expect(
        startHost({ dataDir, accessCode: TEST_CODE, transport: { certFile: files['good.crt']! } }),
      ).rejects.toThrow(/needs its key/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('the CLI exits 1 with the message, and nothing listens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-test-'));
    const port = await freePort();
    try {
      const child = spawn(
        CLI,
        [
          'serve',
          '--port',
          String(port),
          '--no-console',
          '--data-dir',
          dataDir,
          '--tls-cert',
          files['expired.crt']!,
          '--tls-key',
          files['expired.key']!,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WEBBRIDGE_ACCESS_CODE: TEST_CODE } },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect(code).toBe(1);
      expect(stderr).toContain(`webbridge: ${files['expired.crt']}: the certificate expired on`);
      expect(stdout).not.toContain('listening');
      expect(await listening(port)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
