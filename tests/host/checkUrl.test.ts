import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkUrl, type Finding } from '../../host/src/cli/checkUrl';
import {
  freePort,
  PROXY_NAME,
  type ProxyCertificate,
  proxyCertificate,
  type RunningProxy,
  startProxy,
} from '../support/reverseProxy';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { CLI } from './cliProcess';

/** `webbridge check-url` against a host behind nginx: a good configuration and a buffering one. */
const line = (findings: readonly Finding[], topic: string) => findings.find((f) => f.line.startsWith(topic));

describe('webbridge check-url', () => {
  let certificate: ProxyCertificate;
  let host: TestHost;
  let stranger: TestHost;
  const proxies: RunningProxy[] = [];
  const behind = async (upstream: TestHost, buffering = false) => {
    const proxy = await startProxy({
      kind: 'nginx',
      certificate,
      upstreamPort: upstream.port,
      port: await freePort(),
      buffering,
    });
    proxies.push(proxy);
    return proxy;
  };
  /** `ca` '': trust the system's authorities only, as a phone that never installed the test one. */
  const check = (url: string, ca: string = certificate.caPem) =>
    checkUrl(url, { accessCode: TEST_CODE, connectTo: '127.0.0.1', waitMs: 3_000, ...(ca ? { ca } : {}) });

  beforeAll(async () => {
    certificate = await proxyCertificate();
    const publicUrl = `https://${PROXY_NAME}`;
    host = await startTestHost({ heartbeatMs: 500, publicUrl, trustProxy: ['loopback'] });
    // A host started without --public-url: it refuses the proxy's name.
    stranger = await startTestHost({ heartbeatMs: 500 });
  }, 30_000);
  afterAll(async () => {
    for (const proxy of proxies) await proxy.stop();
    await host.close(true);
    await stranger.close(true);
  });

  it('passes a good nginx: certificate, host, first event at once, heartbeat', async () => {
    const proxy = await behind(host);
    const findings = await check(proxy.url);
    expect(
      findings.map((f) => f.verdict),
      JSON.stringify(findings),
    ).not.toContain('fail');
    expect(line(findings, 'certificate')?.verdict).toBe('ok');
    expect(line(findings, 'host')?.line).toBe(`host: answers to ${new URL(proxy.url).host}`);
    expect(line(findings, 'first event')?.line).toMatch(/^first event: after \d+ ms \(not buffered\)$/);
    expect(line(findings, 'heartbeat')?.verdict).toBe('ok');
    // The proxy and this test share loopback: the address cannot prove the forwarding.
    expect(line(findings, 'client address')?.line).toMatch(/cannot tell/);
  });

  it('reports a buffering nginx', async () => {
    const proxy = await behind(host, true);
    const findings = await check(proxy.url);
    expect(line(findings, 'host')?.verdict).toBe('ok');
    const first = line(findings, 'first event');
    expect(first?.verdict, JSON.stringify(findings)).toBe('fail');
    expect(first?.line).toMatch(/buffer/);
  });

  it('reports a certificate the phone does not trust, and a host that refuses the name', async () => {
    const proxy = await behind(stranger);
    const untrusted = await check(proxy.url, '');
    expect(line(untrusted, 'certificate')).toMatchObject({ verdict: 'fail' });
    expect(line(untrusted, 'certificate')?.line).toMatch(/will not trust/);
    const refused = await check(proxy.url);
    expect(line(refused, 'host')?.line).toBe(
      `host: refuses the name ${new URL(proxy.url).host}: start it with --public-url https://${new URL(proxy.url).host}`,
    );
  });

  it('checks a public URL with a base path', async () => {
    const mounted = await startTestHost({
      heartbeatMs: 500,
      publicUrl: `https://${PROXY_NAME}/webbridge`,
      trustProxy: ['loopback'],
    });
    try {
      const proxy = await startProxy({
        kind: 'nginx',
        certificate,
        upstreamPort: mounted.port,
        port: await freePort(),
        basePath: '/webbridge',
      });
      proxies.push(proxy);
      const findings = await check(`${proxy.url}/webbridge`);
      expect(
        findings.map((f) => f.verdict),
        JSON.stringify(findings),
      ).not.toContain('fail');
      expect(line(findings, 'heartbeat')?.verdict).toBe('ok');
    } finally {
      await mounted.close(true);
    }
  });

  it('runs as `webbridge check-url`, printing one line each and exiting 1 on a failure', async () => {
    const proxy = proxies[0]!;
    const dir = mkdtempSync(join(tmpdir(), 'webbridge-check-'));
    writeFileSync(join(dir, 'ca.crt'), certificate.caPem);
    const run = (args: string[]) =>
      promisify(execFile)(
        CLI,
        ['check-url', proxy.url, '--connect-to', '127.0.0.1', '--wait-ms', '3000', ...args],
        {
          env: { ...process.env, WEBBRIDGE_ACCESS_CODE: TEST_CODE },
        },
      ).then(
        (done) => ({ code: 0, stdout: done.stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    const good = await run(['--ca', join(dir, 'ca.crt')]);
    expect(good.code, good.stdout).toBe(0);
    expect(good.stdout).toMatch(/^ok {4}certificate: valid for bridge\.internal/m);
    expect(good.stdout).toMatch(/^ok {4}heartbeat: arrived/m);
    expect(good.stdout).not.toContain(TEST_CODE);
    const bad = await run([]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL {2}certificate: a phone will not trust it/m);
  });
});
