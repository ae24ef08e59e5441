import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, openPage, PHONE, restartHost, shot } from './browserHarness';
import { launchPinnedChromium } from './pinnedChromium';

interface ManifestIcon {
  readonly src: string;
  readonly sizes: string;
  readonly type: string;
  readonly purpose?: string;
}

/** Every URL in the page's caches (the service worker's only storage). */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(`(async () => {
    const urls = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  })()`) as Promise<string[]>;
}

describe('installable over HTTPS: manifest, icons, service worker, offline page', () => {
  let h: TestHost;
  let browser: Browser;

  beforeAll(async () => {
    assertWebBuilt();
    h = await startTestHost({ tls: true, echoDelayMs: 5 });
    browser = await launchPinnedChromium(h.dataDir);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('links a manifest with standalone display and any + maskable PNG icons that load', async () => {
    const { page, problems, context } = await openPage(browser, `${h.url}/`, PHONE);
    try {
      // Relative, so the app works under a base path too (tests/browser/throughProxy.test.ts).
      expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('./manifest.webmanifest');
      const manifest = (await page.evaluate(
        "fetch('/manifest.webmanifest').then(async (r) => ({ type: r.headers.get('content-type'), body: await r.json() }))",
      )) as {
        type: string;
        body: { display: string; start_url: string; icons: ManifestIcon[]; name: string };
      };
      expect(manifest.type).toMatch(/application\/manifest\+json/);
      expect(manifest.body).toMatchObject({ name: 'webbridge', display: 'standalone', start_url: './' });
      const purposes = manifest.body.icons.map((icon) => icon.purpose);
      expect(purposes).toContain('maskable');
      expect(manifest.body.icons.some((icon) => icon.sizes === '512x512' && icon.purpose === 'any')).toBe(
        true,
      );
      for (const icon of manifest.body.icons) {
        // Decoded by the browser at the size the manifest claims.
        const size = await page.evaluate(
          `fetch(${JSON.stringify(icon.src)}).then((r) => r.blob()).then(createImageBitmap).then((b) => b.width + 'x' + b.height)`,
        );
        expect(size).toBe(icon.sizes);
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('registers the service worker in the secure context; it keeps the shell and never API responses', async () => {
    const { page, problems, context } = await openPage(browser, `${h.url}/#code=${TEST_CODE}`);
    try {
      expect(await page.evaluate('window.isSecureContext')).toBe(true);
      const script = await page.evaluate(
        'navigator.serviceWorker.ready.then((r) => new URL(r.active.scriptURL).pathname)',
      );
      expect(script).toBe('/sw.js');
      await page.locator('.badge[data-status="live"]').waitFor();
      // The page is controlled from its first load on (the worker claims its clients).
      await expect.poll(() => page.evaluate('navigator.serviceWorker.controller !== null')).toBe(true);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('cached or not?');
      await box.press('Enter');
      await page.locator('.message-assistant.status-complete').last().waitFor({ timeout: 10_000 });
      await page.reload();
      await page.locator('.badge[data-status="live"]').waitFor();
      const urls = await cachedUrls(page);
      expect(urls).toContain('/offline.html');
      expect(urls.some((url) => /^\/assets\/index-.*\.js$/.test(url))).toBe(true);
      expect(urls.filter((url) => url.startsWith('/api/'))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the offline page when the host stops, and returns by itself when it is back', async () => {
    const { page, context } = await openPage(browser, `${h.url}/`, PHONE);
    try {
      await page.evaluate('navigator.serviceWorker.ready');
      await h.close();
      await page.reload();
      await page.getByRole('heading', { name: 'The host is unreachable' }).waitFor();
      await page.getByText(/Trying again/).waitFor();
      // The worker answers no API request from a cache: with the host gone, they fail.
      expect(await page.evaluate("fetch('/api/locale').then(() => 'answered', () => 'failed')")).toBe(
        'failed',
      );
      await shot(page, 'phone-offline');
      // In the language chosen in the app (Arabic: right to left).
      await page.evaluate("localStorage.setItem('webbridge.language', 'ar')");
      await page.reload();
      await page.getByRole('heading', { name: 'تعذّر الوصول إلى المضيف' }).waitFor();
      expect(await page.evaluate('document.documentElement.dir')).toBe('rtl');
      await shot(page, 'phone-offline-ar');
      await page.evaluate("localStorage.removeItem('webbridge.language')");
      h = await restartHost(h, { tls: true, echoDelayMs: 5 });
      // The page retries within a few seconds (2 s, then 4 s) and reloads into the app.
      await page.locator('form.connect-card').waitFor({ timeout: 15_000 });
      expect(await page.locator('h1').first().textContent()).not.toBe('The host is unreachable');
    } finally {
      await context.close();
    }
  }, 30_000);
});
