import https from 'node:https';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHost, startHost } from '../startHost';
import { tempDir } from '../testing/testController';
import { authorityBanner, connectionBanner, connectUrl, terminalQr } from './connectionBanner';

let hosts: RunningHost[] = [];
afterEach(async () => {
  for (const host of hosts) await host.close();
  hosts = [];
});

function lanIPv4(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && entry.family === 'IPv4')
    .map((entry) => entry.address);
}

describe('connectionBanner', () => {
  it('draws one QR per LAN address and none for loopback when the LAN is reachable', async () => {
    const urls = ['http://127.0.0.1:7878', 'http://192.168.1.20:7878', 'http://10.0.0.7:7878'];
    const banner = await connectionBanner(urls, 'abcde-fghij');
    expect(banner.match(/Scan to pair a device/g)).toHaveLength(2);
    // The link is printed as text too, for copy and paste.
    expect(banner).toContain('  http://10.0.0.7:7878/#pair=abcde-fghij');
    expect(banner).toContain(await terminalQr(connectUrl('http://192.168.1.20:7878', 'abcde-fghij')));
    expect(banner).toContain(await terminalQr(connectUrl('http://10.0.0.7:7878', 'abcde-fghij')));
    expect(banner).not.toContain(await terminalQr(connectUrl('http://127.0.0.1:7878', 'abcde-fghij')));
    const local = await connectionBanner(['http://127.0.0.1:7878'], 'abcde-fghij');
    expect(local).toContain(await terminalQr('http://127.0.0.1:7878/#pair=abcde-fghij'));
  });

  it('on 0.0.0.0 lists every LAN address, and each one answers', async () => {
    const lan = lanIPv4();
    const host = await startHost({
      dataDir: tempDir(),
      accessCode: 'lan-code-1234',
      hostname: '0.0.0.0',
      staticDir: null,
    });
    hosts.push(host);
    const { port } = host.address;
    // Off loopback the bridge speaks HTTPS, with a certificate naming every address.
    expect(host.address.urls).toEqual([
      `https://127.0.0.1:${port}`,
      ...lan.map((a) => `https://${a}:${port}`),
    ]);
    const banner = await connectionBanner(host.address.urls, 'lan-code-1234');
    const ca = host.address.authority?.certificatePem ?? '';
    for (const address of lan) {
      expect(banner).toContain(`Scan to pair a device with https://${address}:${port}`);
      // Only the host's own authority is trusted: the certificate must name this address.
      const status = await new Promise<number | undefined>((resolve, reject) => {
        https
          .get(
            {
              host: address,
              port,
              path: '/api/state',
              ca,
              headers: { Authorization: 'Bearer lan-code-1234' },
            },
            (response) => {
              response.resume();
              resolve(response.statusCode);
            },
          )
          .on('error', reject);
      });
      expect(status).toBe(200);
    }
  });
});

describe('authorityBanner', () => {
  it('says when the fingerprint changed, which one it replaced and why', async () => {
    const facts = { fingerprint: 'AA:BB', downloadUrls: ['http://192.168.1.2:7878/ca.crt'] };
    expect(await authorityBanner(facts)).not.toContain('changed');
    const banner = await authorityBanner({
      ...facts,
      replaced: { previousFingerprint: 'CC:DD', reason: 'unconstrained' },
    });
    expect(banner).toContain('SHA-256 fingerprint: AA:BB');
    expect(banner).toMatch(/fingerprint changed[\s\S]*\(CC:DD\)[\s\S]*could vouch for any site/);
    expect(banner).toContain('Trust the new one on each device and remove the old one');
  });
});
