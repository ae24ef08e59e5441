import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../support/chromium';
import {
  freePort,
  PROXY_NAME,
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

/** What a describe's tests reach the host through. */
interface ThroughNginx {
  readonly host: TestHost;
  readonly proxy: RunningProxy;
  readonly browser: Browser;
}

/**
 * Before the describe's tests: a host whose public URL is nginx's name (under `basePath`, which
 * alone of the name then reaches the host: a page, asset or API call that forgot it gets nginx's
 * 404), nginx in front of it, and a Chromium that finds the name at nginx and trusts its
 * certificate; all stopped after them. Returns what they reach, once started.
 */
function throughNginx(basePath = ''): () => ThroughNginx {
  let host: TestHost | undefined;
  let proxy: RunningProxy | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    assertWebBuilt();
    const certificate = await proxyCertificate();
    const port = await freePort();
    host = await startTestHost({
      echoDelayMs: 30,
      publicUrl: `https://${PROXY_NAME}:${port}${basePath}`,
      trustProxy: ['loopback'],
    });
    proxy = await startProxy({
      kind: 'nginx',
      certificate,
      upstreamPort: host.port,
      port,
      ...(basePath ? { basePath } : {}),
    });
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
  return () => {
    if (!host || !proxy || !browser) throw new Error('the host, nginx and Chromium did not start');
    return { host, proxy, browser };
  };
}

/** A pairing link the host prints, for a control device. */
function pairingLink(host: TestHost): string {
  return `${host.host.pairUrls[0]}/#pair=${host.host.bridge.pairingToken('control')}`;
}

/** Pairs the page opened at a pairing link as `name`, and waits until its stream is live. */
async function pairAs(page: Page, name: string): Promise<void> {
  await page.getByLabel('Device name').fill(name);
  await page.getByRole('button', { name: 'Pair' }).click();
  await page.locator('.badge[data-status="live"]').waitFor();
}

/** Waits (up to 10 s) until the page's service worker is registered with `scope`. */
async function expectServiceWorkerAt(page: Page, scope: string): Promise<void> {
  await expect
    .poll(() => page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r?.scope ?? null)'), {
      timeout: 10_000,
    })
    .toBe(scope);
}

describe('a phone through nginx in Chromium', () => {
  const reach = throughNginx();

  it('pairs by the public link, chats with a streamed reply, and runs its service worker', async () => {
    const { host, proxy, browser } = reach();
    const link = pairingLink(host);
    expect(link.startsWith(proxy.url)).toBe(true);
    const { page, problems } = await openPage(browser, link, PHONE);
    await pairAs(page, 'Phone away');
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
    await expectServiceWorkerAt(page, `${proxy.url}/`);
    // The host saw the phone through the proxy, by the address nginx forwarded.
    expect(host.host.bridge.connections().map((c) => c.remoteAddress)).toContain('127.0.0.1');
    await shot(page, 'phone-through-nginx');
    expect(problems).toEqual([]);
  });
});

describe('a phone through nginx under a base path in Chromium', () => {
  const BASE = '/webbridge';
  const reach = throughNginx(BASE);

  it('serves the page, its assets, manifest, service worker and API under the base path', async () => {
    const { host, proxy, browser } = reach();
    const link = pairingLink(host);
    expect(link).toMatch(new RegExp(`^${proxy.url}${BASE}/#pair=`));
    const { page, problems } = await openPage(browser, link, PHONE);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!new URL(request.url()).pathname.startsWith(`${BASE}/`)) outside.push(request.url());
    });
    await pairAs(page, 'Phone under a path');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('under a base path');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => page.locator('.message-assistant').last().textContent(), { timeout: 10_000 })
      .toContain('under a base path');
    await expectServiceWorkerAt(page, `${proxy.url}${BASE}/`);
    const manifest = (await page.evaluate(
      "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())",
    )) as { start_url: string; scope: string };
    expect(manifest).toMatchObject({ start_url: './', scope: './' });
    expect(outside).toEqual([]);
    await shot(page, 'phone-under-base-path');
    expect(problems).toEqual([]);
  });

  it('sends the bare base path to its folder', async () => {
    const { proxy, browser } = reach();
    const { page } = await openPage(browser, `${proxy.url}${BASE}`, PHONE);
    expect(page.url()).toBe(`${proxy.url}${BASE}/`);
    await page.getByLabel('Access code').waitFor();
  });
});
