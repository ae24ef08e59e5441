import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { certificateNames } from './certificateNames';
import { LocalAuthority } from './LocalAuthority';
import { servingCertificate } from './ServingCertificate';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'wb-tls-'));
const mode = (file: string) => fs.statSync(file).mode & 0o777;
const leafOf = (pem: string) => new X509Certificate(pem.split(/(?<=-----END CERTIFICATE-----)/)[0] ?? '');

describe('LocalAuthority', () => {
  it('is made once (key 0600 in a 0700 folder) and reused on the next open', async () => {
    const dir = path.join(tempDir(), 'tls');
    const first = await LocalAuthority.open(dir);
    expect(mode(path.join(dir, 'ca.key'))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    const ca = new X509Certificate(first.certificatePem);
    expect(ca.ca).toBe(true);
    expect(ca.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
    expect(first.fingerprint).toBe(ca.fingerprint256);
    // A key left readable (a copy, a restored backup) is made private again on open.
    fs.chmodSync(path.join(dir, 'ca.key'), 0o644);
    const again = await LocalAuthority.open(dir);
    expect(again.fingerprint).toBe(first.fingerprint);
    expect(mode(path.join(dir, 'ca.key'))).toBe(0o600);
  });

  it('issues a serving certificate for IPs and names, signed by the authority', async () => {
    const authority = await LocalAuthority.open(tempDir());
    const { certificatePem, keyPem } = await authority.issue(
      ['localhost', '127.0.0.1', '::1', 'box.local'],
      397,
    );
    const leaf = leafOf(certificatePem);
    const ca = new X509Certificate(authority.certificatePem);
    expect(leaf.checkIssued(ca) && leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.checkIP('::1')).toBeDefined();
    expect(leaf.checkHost('box.local')).toBe('box.local');
    expect(leaf.checkHost('evil.example')).toBeUndefined();
    expect(leaf.checkIP('10.9.8.7')).toBeUndefined();
    expect(keyPem).toContain('PRIVATE KEY');
  });
});

describe('servingCertificate', () => {
  it('is reused while the names match, re-issued when they change or near expiry', async () => {
    const dir = tempDir();
    const authority = await LocalAuthority.open(dir);
    const first = await servingCertificate(authority, dir, ['localhost', '127.0.0.1']);
    expect(mode(path.join(dir, 'server.key'))).toBe(0o600);
    const same = await servingCertificate(authority, dir, ['127.0.0.1', 'localhost']);
    expect(same.certificatePem).toBe(first.certificatePem);
    const moved = await servingCertificate(authority, dir, ['localhost', '127.0.0.1', '192.168.7.9']);
    expect(moved.certificatePem).not.toBe(first.certificatePem);
    expect(leafOf(moved.certificatePem).checkIP('192.168.7.9')).toBe('192.168.7.9');
    // 380 days on, the 397-day certificate has less than a month left: a new one.
    const later = Date.now() + 380 * 86_400_000;
    const renewed = await servingCertificate(
      authority,
      dir,
      ['localhost', '127.0.0.1', '192.168.7.9'],
      later,
    );
    expect(renewed.certificatePem).not.toBe(moved.certificatePem);
  });

  it('is re-issued when the authority was replaced', async () => {
    const dir = tempDir();
    const first = await servingCertificate(await LocalAuthority.open(dir), dir, ['localhost']);
    fs.rmSync(path.join(dir, 'ca.key'));
    const other = await LocalAuthority.open(dir);
    const next = await servingCertificate(other, dir, ['localhost']);
    expect(next.certificatePem).not.toBe(first.certificatePem);
    expect(leafOf(next.certificatePem).checkIssued(new X509Certificate(other.certificatePem))).toBe(true);
  });
});

describe('certificateNames', () => {
  it('names loopback, the machine as <name>.local (never its bare name), and each interface address on a wildcard bind', () => {
    const names = certificateNames('0.0.0.0', true, {
      addresses: ['127.0.0.1', '192.168.1.20', 'fe80::1', 'fd00::5'],
      machineName: 'Laptop',
    });
    expect(names).toEqual(['127.0.0.1', '192.168.1.20', '::1', 'fd00::5', 'laptop.local', 'localhost']);
  });

  it('names the bound address otherwise, and skips a machine name that is no DNS label', () => {
    expect(certificateNames('[fd00::9]', false, { addresses: [], machineName: 'my box' })).toEqual([
      '127.0.0.1',
      '::1',
      'fd00::9',
      'localhost',
    ]);
  });
});
