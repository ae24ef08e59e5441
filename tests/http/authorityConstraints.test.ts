import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { startHost } from '@webbridge/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalAuthority } from '../../server/src/adapters/tls/LocalAuthority';
import {
  EC_SIGNING,
  generateKeyPair,
  importSigningKey,
  privateKeyPem,
  x509,
} from '../../server/src/adapters/tls/x509';

// The local authority is name-constrained: its key, even stolen from the data dir, cannot
// vouch for a public site to a device that trusts it. Checked with OpenSSL's command-line
// verifier and with Node's TLS client (a different code path: BoringSSL-like checks in Node's
// OpenSSL build, driven by a real handshake), both with the authority as the only root.

const SERVING_NAMES = [
  'localhost',
  'box.local',
  'nas.home.arpa',
  'printer.internal',
  '127.0.0.1',
  '10.1.2.3',
  '172.20.0.9',
  '192.168.1.20',
  '169.254.3.4',
  '100.100.1.1',
  '::1',
  'fd12:3456::7',
  'fe80::1',
];

let dir: string;
let authority: LocalAuthority;
let caFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-constraints-'));
  authority = await LocalAuthority.open(dir);
  caFile = join(dir, 'ca.crt');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A leaf for `names` signed with the authority's own key, bypassing its `issue` check. */
async function forgeLeaf(names: string[], caDir = dir): Promise<{ cert: string; key: string }> {
  const signingKey = await importSigningKey(readFileSync(join(caDir, 'ca.key'), 'utf8'));
  const ca = new x509.X509Certificate(readFileSync(join(caDir, 'ca.crt'), 'utf8'));
  const keys = await generateKeyPair();
  const leaf = await x509.X509CertificateGenerator.create({
    subject: `CN=${names[0]}`,
    issuer: ca.subject,
    publicKey: keys.publicKey,
    signingKey,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: EC_SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: 'dns' as const, value }))),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
    ],
  });
  return { cert: leaf.toString('pem'), key: await privateKeyPem(keys.privateKey) };
}

/** `openssl verify` of `leafPem` against the authority alone; its output and exit status. */
function opensslVerify(leafPem: string, check: string[], ca = caFile): { ok: boolean; output: string } {
  const file = join(dir, `leaf-${Math.random().toString(36).slice(2)}.pem`);
  writeFileSync(file, leafPem);
  try {
    const output = execFileSync('openssl', ['verify', '-CAfile', ca, ...check, file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { ok: true, output };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** A real TLS handshake to a server presenting `cert`, trusting only the authority. */
async function handshake(cert: string, key: string, servername: string): Promise<string> {
  const server: Server = createServer({ cert, key }, (_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<string>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, servername, ca: readFileSync(caFile, 'utf8') });
      socket.once('secureConnect', () => {
        resolve('authorized');
        socket.end();
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(`${error.code}: ${error.message}`));
    });
  } finally {
    server.close();
  }
}

const leafOnly = (pem: string) => pem.split(/(?<=-----END CERTIFICATE-----)/)[0] ?? '';

describe('the local authority is name-constrained', () => {
  it('carries a critical Name Constraints extension', () => {
    const text = execFileSync('openssl', ['x509', '-in', caFile, '-noout', '-text'], { encoding: 'utf8' });
    expect(text).toMatch(/X509v3 Name Constraints: critical/);
    expect(text).toMatch(
      /Permitted:[\s\S]*DNS:localhost[\s\S]*DNS:local\b[\s\S]*DNS:home\.arpa[\s\S]*DNS:internal\b/,
    );
    // Never a bare machine name: one called `dev` would permit every name under `.dev`.
    expect(text.match(/DNS:/g)).toHaveLength(4);
    expect(text).toContain('IP:192.168.0.0/255.255.0.0');
    expect(text).toContain('IP:FC00:0:0:0:0:0:0:0/FE00:0:0:0:0:0:0:0');
  });

  it('a certificate for google.com signed with its key fails in openssl verify', async () => {
    const forged = await forgeLeaf(['google.com']);
    const result = opensslVerify(forged.cert, ['-verify_hostname', 'google.com']);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/permitted subtree violation/);
  });

  it('and in a Node TLS handshake', async () => {
    const forged = await forgeLeaf(['google.com']);
    expect(await handshake(forged.cert, forged.key, 'google.com')).toBe(
      'UNSPECIFIED: permitted subtree violation',
    );
  });

  it('a forged certificate cannot smuggle a public name beside a private one', async () => {
    const forged = await forgeLeaf(['localhost', 'bank.example.com']);
    expect(opensslVerify(forged.cert, ['-verify_hostname', 'localhost']).ok).toBe(false);
    expect(await handshake(forged.cert, forged.key, 'localhost')).not.toBe('authorized');
  });

  it('a certificate for a bare machine name, or a name under a public top-level domain, fails', async () => {
    for (const name of ['mybox', 'app.dev', 'dev']) {
      const forged = await forgeLeaf([name]);
      const result = opensslVerify(forged.cert, ['-verify_hostname', name]);
      expect({ name, ok: result.ok }).toEqual({ name, ok: false });
      expect(result.output).toMatch(/permitted subtree violation/);
    }
  });

  it('its own issue refuses a name outside the constraints', async () => {
    await expect(authority.issue(['localhost', '8.8.8.8'], 1)).rejects.toThrow(/8\.8\.8\.8/);
    expect(authority.permits('2001:4860::8888')).toBe(false);
    expect(authority.permits('192.0.3.1')).toBe(false);
    expect(authority.permits('172.32.0.1')).toBe(false);
    expect(authority.permits('100.128.0.1')).toBe(false);
    expect(authority.permits('localhost.evil.com')).toBe(false);
  });

  it('the serving certificate passes for every private address and local name', async () => {
    const serving = await authority.issue(SERVING_NAMES, 30);
    const leaf = leafOnly(serving.certificatePem);
    for (const name of SERVING_NAMES) {
      const flag = name.includes(':') || /^[\d.]+$/.test(name) ? '-verify_ip' : '-verify_hostname';
      const result = opensslVerify(leaf, [flag, name]);
      expect({ name, ...result }).toMatchObject({ name, ok: true });
    }
    // Node's client checks the name only for DNS servernames; the chain check covers every SAN.
    for (const name of ['localhost', 'box.local', 'nas.home.arpa']) {
      expect({ name, result: await handshake(serving.certificatePem, serving.keyPem, name) }).toEqual({
        name,
        result: 'authorized',
      });
    }
  });
});

describe('an authority made before the constraints', () => {
  it('is replaced on open, and says which fingerprint it replaced', async () => {
    const old = mkdtempSync(join(tmpdir(), 'wb-old-ca-'));
    try {
      const keys = await generateKeyPair();
      const unconstrained = await x509.X509CertificateGenerator.createSelfSigned({
        name: 'CN=webbridge local authority (old), O=webbridge',
        keys,
        notBefore: new Date(Date.now() - 60_000),
        notAfter: new Date(Date.now() + 365 * 86_400_000),
        signingAlgorithm: EC_SIGNING,
        extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
      });
      const oldPem = unconstrained.toString('pem');
      writeFileSync(join(old, 'ca.crt'), oldPem);
      writeFileSync(join(old, 'ca.key'), await privateKeyPem(keys.privateKey), { mode: 0o600 });
      // What the review found: the old authority's key vouches for any site.
      const forged = await forgeLeaf(['google.com'], old);
      expect(opensslVerify(forged.cert, ['-verify_hostname', 'google.com'], join(old, 'ca.crt')).ok).toBe(
        true,
      );
      const opened = await LocalAuthority.open(old);
      const oldFingerprint = new X509Certificate(oldPem).fingerprint256;
      expect(opened.replaced).toEqual({ previousFingerprint: oldFingerprint, reason: 'unconstrained' });
      expect(opened.fingerprint).not.toBe(oldFingerprint);
      // The old key is gone from disk: it could still sign for any name.
      expect(readFileSync(join(old, 'ca.key'), 'utf8')).not.toBe(await privateKeyPem(keys.privateKey));
      const again = await LocalAuthority.open(old);
      expect(again.replaced).toBeUndefined();
      expect(again.fingerprint).toBe(opened.fingerprint);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});

describe("a person's own certificate", () => {
  it('leaves an unconstrained authority in the data dir as it is, and serves the certificate given', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-own-cert-'));
    try {
      // An older run's authority, without constraints, still in <dataDir>/tls.
      const tls = join(dataDir, 'tls');
      const keys = await generateKeyPair();
      const old = await x509.X509CertificateGenerator.createSelfSigned({
        name: 'CN=webbridge local authority (old), O=webbridge',
        keys,
        notBefore: new Date(Date.now() - 60_000),
        notAfter: new Date(Date.now() + 365 * 86_400_000),
        signingAlgorithm: EC_SIGNING,
        extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
      });
      mkdirSync(tls, { mode: 0o700 });
      writeFileSync(join(tls, 'ca.crt'), old.toString('pem'));
      writeFileSync(join(tls, 'ca.key'), await privateKeyPem(keys.privateKey), { mode: 0o600 });
      const before = [readFileSync(join(tls, 'ca.crt'), 'utf8'), readFileSync(join(tls, 'ca.key'), 'utf8')];
      // The person's own certificate for localhost, issued by that same (their own) authority.
      const own = await forgeLeaf(['localhost'], tls);
      writeFileSync(join(dataDir, 'own.crt'), `${own.cert}\n${before[0]}`);
      writeFileSync(join(dataDir, 'own.key'), own.key);
      const host = await startHost({
        dataDir,
        accessCode: 'own-cert-code-1234',
        port: 0,
        staticDir: null,
        logLevel: 'silent',
        transport: {
          tlsOnLoopback: true,
          certFile: join(dataDir, 'own.crt'),
          keyFile: join(dataDir, 'own.key'),
        },
      });
      try {
        expect(host.address.scheme).toBe('https');
        expect(host.address.authority).toBeUndefined();
        const served = await new Promise<string>((resolve, reject) => {
          const socket = connect(
            { host: '127.0.0.1', port: host.address.port, servername: 'localhost', ca: before[0] },
            () => {
              resolve(String(socket.getPeerCertificate().subject?.CN ?? ''));
              socket.end();
            },
          );
          socket.on('error', reject);
        });
        expect(served).toBe('localhost');
      } finally {
        await host.close();
      }
      expect([readFileSync(join(tls, 'ca.crt'), 'utf8'), readFileSync(join(tls, 'ca.key'), 'utf8')]).toEqual(
        before,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
