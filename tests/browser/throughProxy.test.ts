import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../support/chromium';
import {
  freePort,
  PROXY_NAME,
  type ProxyCertificate,
  proxyCertificate,
  type RunningProxy,
  startProxy,
} from '../support/reverseProxy';
import { startTestHost, type TestHost } from '../support/testHost';
import { assertWebBuilt, openPage, PHONE, recordOnMutation, shot } from './browserHarness';

/**
 * A phone-sized Chromium outside the house: it finds the public name at nginx (as DNS or
 * MagicDNS would send it there) and accepts the proxy's certificate (pinned, as a phone trusts
 * a real one), opens the printed public link, pairs, and chats, with the page, its service
 * worker and its event stream all through the proxy.
 */
function spkiHash(certFile: string): string {
  const spki = new X509Certificate(readFileSync(certFile)).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

describe('a phone through nginx in Chromium', () => {
  let certificate: ProxyCertificate;
  let host: TestHost;
  let proxy: RunningProxy;
  let browser: Browser;

  beforeAll(async () => {
    assertWebBuilt();
    certificate = await proxyCertificate();
    const port = await freePort();
    host = await startTestHost({
      echoDelayMs: 30,
      publicUrl: `https://${PROXY_NAME}:${port}`,
      trustProxy: ['loopback'],
    });
    proxy = await startProxy({ kind: 'nginx', certificate, upstreamPort: host.port, port });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        ...CHROMIUM_ARGS,
        `--host-resolver-rules=MAP ${PROXY_NAME} 127.0.0.1`,
        `--ignore-certificate-errors-spki-list=${spkiHash(certificate.certFile)}`,
      ],
    });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await proxy?.stop();
    await host?.close(true);
  });

  it('pairs by the public link, chats with a streamed reply, and runs its service worker', async () => {
    const link = `${host.host.pairUrls[0]}/#pair=${host.host.bridge.pairingToken('control')}`;
    expect(link.startsWith(proxy.url)).toBe(true);
    const { page, problems } = await openPage(browser, link, PHONE);
    await page.getByLabel('Device name').fill('Phone away');
    await page.getByRole('button', { name: 'Pair' }).click();
    await page.locator('.badge[data-status="live"]').waitFor();
    expect(host.host.bridge.devices.list().map((d) => d.name)).toEqual(['Phone away']);

    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('one two three four five six seven eight nine ten');
    // Each length the reply's text had: unbuffered, it grows word by word.
    const lengths = await recordOnMutation(
      page,
      "[...document.querySelectorAll('.message-assistant .body')].at(-1)?.textContent.length ?? 0",
    );
    await page.getByRole('button', { name: 'Send' }).click();
    const reply = page.locator('.message-assistant').last();
    // Streaming shows while words arrive one by one (a buffering proxy would show none of it).
    await reply.locator('.status-label-streaming').waitFor();
    await expect.poll(() => reply.textContent(), { timeout: 10_000 }).toContain('ten');
    expect(new Set(await lengths()).size).toBeGreaterThan(5);
    // A secure context through the proxy: the service worker is registered for the public name.
    await expect
      .poll(() => page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r?.scope ?? null)'), {
        timeout: 10_000,
      })
      .toBe(`${proxy.url}/`);
    // The host saw the phone through the proxy, by the address nginx forwarded.
    expect(host.host.bridge.connections().map((c) => c.remoteAddress)).toContain('127.0.0.1');
    await shot(page, 'phone-through-nginx');
    expect(problems).toEqual([]);
  });
});

describe('a phone through nginx under a base path in Chromium', () => {
  const BASE = '/webbridge';
  let certificate: ProxyCertificate;
  let host: TestHost;
  let proxy: RunningProxy;
  let browser: Browser;

  beforeAll(async () => {
    assertWebBuilt();
    certificate = await proxyCertificate();
    const port = await freePort();
    host = await startTestHost({
      echoDelayMs: 30,
      publicUrl: `https://${PROXY_NAME}:${port}${BASE}`,
      trustProxy: ['loopback'],
    });
    // Only /webbridge/ of the name reaches the host: a page, asset or API call that forgot the
    // base path gets nginx's 404.
    proxy = await startProxy({ kind: 'nginx', certificate, upstreamPort: host.port, port, basePath: BASE });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        ...CHROMIUM_ARGS,
        `--host-resolver-rules=MAP ${PROXY_NAME} 127.0.0.1`,
        `--ignore-certificate-errors-spki-list=${spkiHash(certificate.certFile)}`,
      ],
    });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await proxy?.stop();
    await host?.close(true);
  });

  it('serves the page, its assets, manifest, service worker and API under the base path', async () => {
    const link = `${host.host.pairUrls[0]}/#pair=${host.host.bridge.pairingToken('control')}`;
    expect(link).toMatch(new RegExp(`^${proxy.url}${BASE}/#pair=`));
    const { page, problems } = await openPage(browser, link, PHONE);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!new URL(request.url()).pathname.startsWith(`${BASE}/`)) outside.push(request.url());
    });
    await page.getByLabel('Device name').fill('Phone under a path');
    await page.getByRole('button', { name: 'Pair' }).click();
    await page.locator('.badge[data-status="live"]').waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('under a base path');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => page.locator('.message-assistant').last().textContent(), { timeout: 10_000 })
      .toContain('under a base path');
    await expect
      .poll(() => page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r?.scope ?? null)'), {
        timeout: 10_000,
      })
      .toBe(`${proxy.url}${BASE}/`);
    const manifest = (await page.evaluate(
      "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())",
    )) as { start_url: string; scope: string };
    expect(manifest).toMatchObject({ start_url: './', scope: './' });
    expect(outside).toEqual([]);
    await shot(page, 'phone-under-base-path');
    expect(problems).toEqual([]);
  });

  it('sends the bare base path to its folder', async () => {
    const { page } = await openPage(browser, `${proxy.url}${BASE}`, PHONE);
    expect(page.url()).toBe(`${proxy.url}${BASE}/`);
    await page.getByLabel('Access code').waitFor();
  });
});
